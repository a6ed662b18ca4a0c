/**
 * Every refusal of a priority CSV upload carries a code and params (serverErrors.<code>) beside
 * its English message, so the browser words it in the user's language: the whole-file refusals
 * (422), the size (413) and type (415) refusals, and the apply refused for its rows (422).
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIORITY_UPLOAD_MAX_BYTES, PRIORITY_UPLOAD_MAX_ROWS } from '../../src/domain/constants';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const URL = '/user_api/v1/uap_priority/uploads/add';
const HEADER = 'shipToPartyCode;accessPointId;priority';
const ROW = '0050010001;FI-AP-10231;93';

describe.each(ENGINES)('priority upload refusal codes on %s', (engine) => {
  let product: TestProduct;
  let token = '';

  beforeAll(async () => {
    product = await createTestProduct(engine);
    token = await product.token('pm.writer@example.com');
  });
  afterAll(async () => {
    await product?.close();
  });

  const upload = (payload: string | Buffer | Readable, options: { dryRun?: boolean; contentType?: string | null; url?: string } = {}) =>
    product.app.inject({
      method: 'POST',
      url: `${options.url ?? URL}${options.dryRun ? '?dryRun=true' : ''}`,
      headers: { ...bearer(token), ...(options.contentType === null ? {} : { 'content-type': options.contentType ?? 'text/csv; charset=utf-8' }) },
      payload,
    });

  const latin1 = Buffer.concat([Buffer.from(`${HEADER}\n${ROW}\n0050020001;DE-AP-20114;M`), Buffer.from([0xfc]), Buffer.from('nchen\n')]);

  // Whole-file refusals are the same with and without dryRun.
  it.each([
    { name: 'an empty file', body: '', code: 'csvEmpty', params: { columns: 'shipToPartyCode, accessPointId, priority' }, message: 'The file is empty.' },
    { name: 'a header without rows', body: `${HEADER}\n\n`, code: 'csvNoRows', params: {}, message: 'The file has a header but no rows.' },
    {
      name: 'more rows than the limit',
      body: [HEADER, ...Array.from({ length: PRIORITY_UPLOAD_MAX_ROWS + 1 }, () => ROW)].join('\n'),
      code: 'csvTooManyRows',
      params: { max: PRIORITY_UPLOAD_MAX_ROWS },
      message: 'The file has more than 20,000 rows',
    },
    {
      name: 'a header lacking one column',
      body: 'shipToPartyCode;accessPointId\n0050010001;FI-AP-10231\n',
      code: 'csvMissingColumns',
      params: { line: 1, columns: 'priority', count: 1, required: 'shipToPartyCode, accessPointId, priority', found: 'shipToPartyCode | accessPointId' },
      message: 'The header on line 1 lacks the column priority.',
    },
    {
      name: 'a header lacking every column (wrong delimiter)',
      body: '\nshipToPartyCode:accessPointId:priority\n0050010001:FI-AP-10231:3\n',
      code: 'csvMissingColumns',
      params: {
        line: 2,
        columns: 'shipToPartyCode, accessPointId, priority',
        count: 3,
        required: 'shipToPartyCode, accessPointId, priority',
        found: 'shipToPartyCode:accessPointId:priority',
      },
      message: 'The header on line 2 lacks the columns shipToPartyCode, accessPointId, priority.',
    },
    { name: 'bytes that are not UTF-8', body: latin1, code: 'csvNotUtf8AtLine', params: { line: 3 }, message: 'The file is not UTF-8 text (line 3' },
  ])('422 $code for $name', async ({ body, code, params, message }) => {
    for (const dryRun of [false, true]) {
      const res = await upload(body, { dryRun });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(422);
      const answer = res.json();
      expect(answer.code).toBe(code);
      expect(answer.params).toEqual(params);
      expect(answer.message).toContain(message);
      expect(Array.isArray(answer.errors)).toBe(true);
    }
  });

  it('keeps the line errors of a coded whole-file refusal', async () => {
    const res = await upload('shipToPartyCode;accessPointId\n0050010001;FI-AP-10231\n');
    expect(res.json().errors).toMatchObject([{ line: 1, column: 'priority', code: 'missingColumn', params: { column: 'priority' } }]);
  });

  it('413 csvTooLarge, announced by Content-Length or counted while streaming', async () => {
    const big = `${HEADER}\n${`${ROW}\n`.repeat(Math.ceil(PRIORITY_UPLOAD_MAX_BYTES / ROW.length) + 10)}`;
    const announced = await upload(big);
    // A stream has no Content-Length: the limit is reached while reading.
    const streamed = await upload(Readable.from([Buffer.from(big)]));
    for (const res of [announced, streamed]) {
      expect(res.statusCode, res.body.slice(0, 300)).toBe(413);
      expect(res.json()).toEqual({
        message: expect.stringContaining('The file is larger than 5 MB'),
        code: 'csvTooLarge',
        params: { maxMegabytes: PRIORITY_UPLOAD_MAX_BYTES / (1024 * 1024) },
      });
    }
  });

  it.each([
    { name: 'JSON', contentType: 'application/json', code: 'csvWrongType', params: { mediaType: 'application/json' }, message: 'Send the file as text/csv (UTF-8), not application/json.' },
    { name: 'plain text', contentType: 'text/plain; charset=utf-8', code: 'csvWrongType', params: { mediaType: 'text/plain' }, message: 'Send the file as text/csv (UTF-8), not text/plain.' },
    { name: 'no Content-Type', contentType: null, code: 'csvNoType', params: undefined, message: 'Send the file as text/csv (UTF-8).' },
    {
      name: 'a charset other than UTF-8',
      contentType: 'text/csv; charset="ISO-8859-1"',
      code: 'csvNotUtf8Charset',
      params: { charset: 'iso-8859-1' },
      message: 'Only UTF-8 CSV files are accepted, not iso-8859-1.',
    },
  ])('415 $code for $name', async ({ contentType, code, params, message }) => {
    const res = await upload(`${HEADER}\n${ROW}\n`, { contentType });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(415);
    const answer = res.json();
    expect(answer.code).toBe(code);
    expect(answer.params).toEqual(params);
    expect(answer.message).toContain(message);
  });

  it.each([
    { rows: [`0050010001;FI-AP-10231;0`], count: 1, message: '1 row has errors; nothing was changed. Correct it and upload the file again.' },
    {
      // Two errors on line 3 count as one row.
      rows: ['0050010001;FI-AP-10231;0', '0050010001;;abc', '0050010001;FI-AP-10245;100'],
      count: 3,
      message: '3 rows have errors; nothing was changed. Correct them and upload the file again.',
    },
  ])('422 uploadRowsHaveErrors counts the failing rows ($count)', async ({ rows, count, message }) => {
    const file = [HEADER, ...rows].join('\n');
    const res = await upload(file);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(422);
    const answer = res.json();
    expect(answer).toMatchObject({ message, code: 'uploadRowsHaveErrors', params: { count } });
    expect(new Set(answer.errors.map((error: { line: number }) => error.line)).size).toBe(count);
    // The dry run answers the same rows with 200 and their errors, no refusal.
    const preview = await upload(file, { dryRun: true });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().code).toBeUndefined();
  });
});
