/**
 * §5 search limits and error wording: a term written twice is read once, a search holds at most
 * MAX_SEARCH_TERMS different terms (the server plans each range term apart), and a bad value says
 * what its field holds instead of talking of dates for every field.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DELIVERY_STATUS_WORDS, MAX_SEARCH_TERMS, parseSearch, SEARCH_FIELDS, termErrorKey, termErrorParams, type TermError } from './search-language';

const range = (n: number, term: (i: number) => string) => Array.from({ length: n }, (_, i) => term(i)).join(' ');

describe('§5 number of terms', () => {
  it(`reads ${MAX_SEARCH_TERMS} different terms and refuses the first one more, reading nothing after it`, () => {
    const allowed = parseSearch(range(MAX_SEARCH_TERMS, (i) => `po>=${4500100000 + i}`));
    expect(allowed.errors).toEqual([]);
    expect(allowed.terms).toHaveLength(MAX_SEARCH_TERMS);

    const over = parseSearch(`${range(MAX_SEARCH_TERMS, (i) => `dd>=2026-01-${String(i + 1).padStart(2, '0')}`)} door colour=red`);
    expect(over.terms).toHaveLength(MAX_SEARCH_TERMS);
    // The bad term after it is not read: one clear reason, at the first term too many.
    expect(over.errors).toEqual([expect.objectContaining({ index: MAX_SEARCH_TERMS, term: 'door', reason: 'tooManyTerms' })]);
    expect(over.errors[0]?.message).toContain(`at most ${MAX_SEARCH_TERMS}`);
  });

  it('a 500-character query of range terms no longer becomes ~100 terms', () => {
    const text = range(100, (i) => `po>${i}`).slice(0, 500);
    const parsed = parseSearch(text);
    expect(parsed.terms.length).toBeLessThanOrEqual(MAX_SEARCH_TERMS);
    expect(parsed.errors.map((error) => error.reason)).toEqual(['tooManyTerms']);
  });

  it('counts bad terms too, once each', () => {
    const parsed = parseSearch(`${range(MAX_SEARCH_TERMS - 1, (i) => `mat=M${i}`)} po= po= door`);
    expect(parsed.errors.map((error) => [error.index, error.reason])).toEqual([
      [MAX_SEARCH_TERMS - 1, 'emptyValue'],
      [MAX_SEARCH_TERMS, 'emptyValue'],
      [MAX_SEARCH_TERMS + 1, 'tooManyTerms'],
    ]);
  });
});

describe('§5 a term written twice', () => {
  it('is read once, in any spelling of the field, and not counted twice', () => {
    expect(parseSearch(range(100, () => 'dd>=2026-01-01'))).toEqual({ terms: [expect.objectContaining({ index: 0, field: 'deliveryDate', value: '2026-01-01' })], errors: [] });
    expect(parseSearch('po=4500100000 PO=4500100000 purchase_order=4500100000 "purchase order"=4500100000/10').terms).toHaveLength(1);
    expect(parseSearch('door po=1 door "door"').terms.map((term) => term.index)).toEqual([0, 1]);
    const repeated = parseSearch(`${range(MAX_SEARCH_TERMS, (i) => `mat=M${i}`)} ${range(30, (i) => `mat=M${i % MAX_SEARCH_TERMS}`)}`);
    expect(repeated.errors).toEqual([]);
    expect(repeated.terms).toHaveLength(MAX_SEARCH_TERMS);
  });

  it('keeps terms that differ in operator or value', () => {
    expect(parseSearch('po>=1 po<=1 po=1 po=2 plant=FI01 plant!=FI01').terms).toHaveLength(6);
  });

  it('marks a bad term at every place it is written', () => {
    expect(parseSearch('po= door po=').errors.map((error) => error.index)).toEqual([0, 2]);
  });
});

describe('§5 bad values by the kind of their field', () => {
  it.each([
    ['dl=shipped', 'deliveryStatus'],
    ['plant=FI.01', 'code'],
    ['"user email"="a b"', 'email'],
    ['dd=2026-13-01', 'date'],
    ['do=80:00', 'document'],
    [`"equipment description"=${'x'.repeat(101)}`, 'text'],
  ] as const)('%s is a bad %s', (text, kind) => {
    const [error] = parseSearch(text).errors;
    expect(error).toMatchObject({ index: 0, reason: 'badValue', kind });
    expect(termErrorKey(error!)).toBe(`badValue.${kind}`);
  });

  it.each(['po=4500*', 'mat=KM?23', 'user_email=%@example.com', '"equipment description"="main*"', 'dd=2026*'])('%s is a wildcard', (text) => {
    const [error] = parseSearch(text).errors;
    expect(error).toMatchObject({ reason: 'wildcard' });
    expect(error).not.toHaveProperty('kind');
    expect(error?.message).toContain('wildcards');
  });

  it('names other errors by their reason alone', () => {
    expect(parseSearch('colour=red po= dl>delivered lift*').errors.map(termErrorKey)).toEqual(['unknownField', 'emptyValue', 'operatorNotAllowed', 'wildcard']);
  });

  it('gives each error the parameters of its text (the server sends them as `params`)', () => {
    const params = (text: string) => termErrorParams(parseSearch(text).errors[0] as TermError);
    expect(params('door plant=FI.01')).toEqual({ index: 2, term: 'plant=FI.01', reason: 'badValue.code' });
    expect(params('dl=shipped')).toEqual({ index: 1, term: 'dl=shipped', reason: 'badValue.deliveryStatus', statuses: 'delivered, failed, on_the_way, to_be_picked_up, at_access_point' });
    expect(params(range(MAX_SEARCH_TERMS + 1, (i) => `w${i}`))).toEqual({ index: MAX_SEARCH_TERMS + 1, term: `w${MAX_SEARCH_TERMS}`, reason: 'tooManyTerms', max: MAX_SEARCH_TERMS });
  });

  it('every delivery status word is one the parser reads', () => {
    for (const [word, status] of DELIVERY_STATUS_WORDS) expect(parseSearch(`dl=${word}`).terms[0]).toMatchObject({ value: status });
  });
});

describe('texts of every error (en-US; the other locales follow locales.test.ts)', () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  const text = (key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], english);

  it('has a text for every key an error may name, with its parameters', () => {
    const keys = ['unknownField', 'emptyValue', 'operatorNotAllowed', 'wildcard', 'tooManyTerms', ...[...new Set(SEARCH_FIELDS.map((field) => field.kind))].map((kind) => `badValue.${kind}`)];
    for (const key of keys) {
      const found = text(`tracking.search.error.${key}`);
      expect(typeof found, key).toBe('string');
      expect(found, key).toContain('{{term}}');
    }
    expect(text('tracking.search.error.tooManyTerms')).toContain('{{max}}');
    expect(text('tracking.search.error.badValue.deliveryStatus')).toContain('{{statuses}}');
    // The server's 400 (code searchTerm) is worded by the form's own text for its reason.
    expect(text('serverErrors.searchTerm')).toBe('$t(tracking.search.error.{{reason}})');
    expect(typeof text('serverErrors.myOrdersNotAllowed')).toBe('string');
  });
});
