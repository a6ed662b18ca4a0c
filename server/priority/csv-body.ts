/**
 * The HTTP edge of the CSV uploads: only text/csv in UTF-8 is accepted (415 otherwise, before
 * the body is read), the body is read up to the size limit (413 with a message, checked against
 * Content-Length first and counted while streaming) and decoded as strict UTF-8 (422 otherwise).
 * Each refusal carries a code (serverErrors.<code>), so the browser words it in the user's language.
 */
import type { FastifyRequest } from 'fastify';
import { PRIORITY_UPLOAD_MAX_BYTES } from '../../src/domain/constants';
import { HttpError } from '../plugins/errors';
import { CsvRefusal, decodeUtf8 } from './csv';

const LIMIT_MB = PRIORITY_UPLOAD_MAX_BYTES / (1024 * 1024);
const tooLarge = () =>
  new HttpError(413, `The file is larger than ${LIMIT_MB} MB, the limit of one upload. Split it into smaller files and upload them one by one.`, {
    code: 'csvTooLarge',
    params: { maxMegabytes: LIMIT_MB },
  });

export async function requireCsvContentType(request: FastifyRequest): Promise<void> {
  const header = request.headers['content-type'] ?? '';
  const [mediaType = '', ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  if (mediaType !== 'text/csv') {
    // Two codes: without a Content-Type there is no type to name.
    const coded = mediaType ? { code: 'csvWrongType', params: { mediaType } } : { code: 'csvNoType' };
    throw new HttpError(415, `Send the file as text/csv (UTF-8)${mediaType ? `, not ${mediaType}` : ''}.`, coded);
  }
  const charset = params.find((param) => param.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError(415, `Only UTF-8 CSV files are accepted, not ${charset}. Save the file as "CSV UTF-8" and upload it again.`, {
      code: 'csvNotUtf8Charset',
      params: { charset },
    });
  }
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > PRIORITY_UPLOAD_MAX_BYTES) throw tooLarge();
}

export async function readCsvBody(payload: AsyncIterable<Buffer | string>): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > PRIORITY_UPLOAD_MAX_BYTES) throw tooLarge();
    parts.push(buffer);
  }
  try {
    return decodeUtf8(Buffer.concat(parts));
  } catch (error) {
    if (error instanceof CsvRefusal) throw new HttpError(422, error.message, error.body);
    throw error;
  }
}
