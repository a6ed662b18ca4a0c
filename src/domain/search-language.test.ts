import { describe, expect, it } from 'vitest';
import {
  findField,
  formatSearch,
  normalizeSearchDate,
  OPERATORS,
  OPERATOR_SUFFIXES,
  parseSearch,
  purchaseOrderNumber,
  SEARCH_FIELDS,
  splitTerms,
  toQueryParams,
  type SearchField,
} from './search-language';

/** A valid value of each field kind, and how the parser stores it. */
const SAMPLE: Record<SearchField['kind'], [string, string]> = {
  document: ['4500100123', '4500100123'],
  code: ['fi01', 'FI01'],
  text: ['door', 'door'],
  email: ['Mechanic@Example.com', 'mechanic@example.com'],
  date: ['20.11.2026', '2026-11-20'],
  deliveryStatus: ['delivered', 'Delivered'],
};

/** Every way to write a multi-word alias. */
const spellings = (alias: string) =>
  alias.includes(' ') ? [`"${alias}"`, alias.replaceAll(' ', '_'), alias.replaceAll(' ', '-'), alias.toUpperCase().replaceAll(' ', '_')] : [alias, alias.toUpperCase()];

/** mulberry32: a seeded stream, so a failing case can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('§5 splitting', () => {
  it('splits on white space and keeps quoted spaces in one term', () => {
    expect(splitTerms('  po>=1   door\tmat=X\n')).toEqual(['po>=1', 'door', 'mat=X']);
    expect(splitTerms('"purchase order">=1 "equipment description"="main lift"')).toEqual(['"purchase order">=1', '"equipment description"="main lift"']);
    // Control characters separate terms, quoted or not: none reaches a query (the database refuses NUL).
    expect(splitTerms('rope\u0000x "a\u001fb" c\u007fd')).toEqual(['rope', 'x', '"a', 'b"', 'c', 'd']);
    expect(splitTerms(undefined)).toEqual([]);
  });
});

describe('§5 every alias × every operator', () => {
  for (const field of SEARCH_FIELDS) {
    for (const alias of field.aliases) {
      for (const spelling of spellings(alias)) {
        for (const operator of OPERATORS) {
          const [input, stored] = SAMPLE[field.kind];
          const term = `${spelling}${operator}${input}`;
          it(`${term}`, () => {
            const parsed = parseSearch(term);
            if (field.kind === 'deliveryStatus' && operator !== '=' && operator !== '!=') {
              expect(parsed.errors).toEqual([expect.objectContaining({ index: 0, reason: 'operatorNotAllowed' })]);
              return;
            }
            expect(parsed.errors).toEqual([]);
            expect(parsed.terms).toEqual([{ index: 0, raw: term, type: 'field', field: field.key, operator, value: stored }]);
            expect(toQueryParams(parsed.terms)).toEqual({ [`${field.key}${OPERATOR_SUFFIXES[operator]}`]: [stored] });
          });
        }
      }
    }
  }

  it('takes the longest operator: >= is not > with a value "=1"', () => {
    expect(parseSearch('po>=1').terms[0]).toMatchObject({ operator: '>=', value: '1' });
    expect(parseSearch('po!=1').terms[0]).toMatchObject({ operator: '!=', value: '1' });
    expect(parseSearch('po<=1').terms[0]).toMatchObject({ operator: '<=', value: '1' });
  });

  it('names every suffix', () => {
    expect(OPERATOR_SUFFIXES).toEqual({ '>': '_gt', '<': '_lt', '>=': '_gte', '<=': '_lte', '=': '_eq', '!=': '_ne' });
  });

  it('finds fields by alias in any spelling, and by key', () => {
    expect(findField('Material_Description')?.key).toBe('materialDescription');
    expect(findField('deliveryDate')?.key).toBe('deliveryDate');
    expect(findField('colour')).toBeUndefined();
  });
});

describe('§5 errors by term index and free text', () => {
  it('reports unknown fields, empty values and bad values with their index, keeps the good terms', () => {
    const parsed = parseSearch('door colour=red po= dd=2026-13-01 mat=ABC dl>delivered lift*');
    expect(parsed.errors.map((e) => [e.index, e.reason])).toEqual([
      [1, 'unknownField'],
      [2, 'emptyValue'],
      [3, 'badValue'],
      [5, 'operatorNotAllowed'],
      [6, 'wildcard'],
    ]);
    expect(parsed.errors[0]?.message).toContain('colour');
    expect(parsed.terms.map((t) => t.index)).toEqual([0, 4]);
    expect(parsed.terms[0]).toMatchObject({ type: 'free', value: 'door' });
  });

  it('a name of Object.prototype is no delivery status', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(parseSearch(`dl=${name}`).errors[0], name).toMatchObject({ index: 0, reason: 'badValue' });
    }
  });

  it('an operator with no field is an unknown field', () => {
    expect(parseSearch('>=5').errors[0]).toMatchObject({ index: 0, reason: 'unknownField' });
  });

  it('quoted text is free text even with an operator inside', () => {
    expect(parseSearch('"a=b"').terms).toEqual([{ index: 0, raw: '"a=b"', type: 'free', value: 'a=b' }]);
    expect(toQueryParams(parseSearch('door "a=b"').terms)).toEqual({ text: ['door', 'a=b'] });
  });
});

describe('purchase order as the screen shows it (#19 item 26)', () => {
  it('reads order/item as the purchase order, with any alias and operator', () => {
    for (const text of ['po=4500111273/00020', '"purchase order"=4500111273/20', 'PurchaseOrder>=4500111273/00020']) {
      expect(parseSearch(text).terms, text).toEqual([expect.objectContaining({ field: 'purchaseOrder', value: '4500111273' })]);
    }
    expect(toQueryParams(parseSearch('po=4500111273/00020').terms)).toEqual({ purchaseOrder_eq: ['4500111273'] });
  });

  it('leaves other values and other fields as they are', () => {
    // Copied into the box without a field, it searches the order number as free text; a code with a slash stays as typed.
    expect(toQueryParams(parseSearch('4500111273/00020').terms)).toEqual({ text: ['4500111273'] });
    expect(toQueryParams(parseSearch('MX18/2').terms)).toEqual({ text: ['MX18/2'] });
    expect(purchaseOrderNumber('4500111273')).toBe('4500111273');
    expect(purchaseOrderNumber('4500/111/273')).toBe('4500/111/273');
    expect(parseSearch('do=8000111273/00020').terms[0]).toMatchObject({ field: 'deliveryOrder', value: '8000111273/00020' });
  });
});

describe('§5 dates', () => {
  it.each([
    ['2026-11-20', '2026-11-20'],
    ['2026/11/20', '2026-11-20'],
    ['2026.11.20', '2026-11-20'],
    ['2026\\11\\20', '2026-11-20'],
    ['20261120', '2026-11-20'],
    ['20-11-2026', '2026-11-20'],
    ['20/11/2026', '2026-11-20'],
    ['20.11.2026', '2026-11-20'],
    ['20\\11\\2026', '2026-11-20'],
    ['20112026', '2026-11-20'],
    ['31-12-2026', '2026-12-31'],
    ['01-01-2026', '2026-01-01'],
    ['29-02-2028', '2028-02-29'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeSearchDate(input)).toBe(expected);
  });
  it.each(['2026-13-01', '2026-00-10', '2026-11-32', '2026-11-00', '32-01-2026', '2026-02-30', '29-02-2026', '2026-04-31', '0000-01-01', '2026-1-20', '2026/11-20', '26-11-20', 'yesterday', ''])('%s is not a date', (input) => {
    expect(normalizeSearchDate(input)).toBeNull();
  });
});

describe('§5 properties', () => {
  it('round trip: formatting parsed terms and parsing again gives the same terms (2,000 seeded searches)', () => {
    const next = random(20261120);
    const pick = <T,>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const words = ['door', 'motor', 'a=b', 'rope 8mm', 'x>y', '!', 'lift'];
    for (let run = 0; run < 2000; run++) {
      const parts: string[] = [];
      const count = 1 + Math.floor(next() * 5);
      for (let i = 0; i < count; i++) {
        if (next() < 0.3) {
          const word = pick(words);
          parts.push(/[\s<>=!]/.test(word) ? `"${word}"` : word);
        } else {
          const field = pick(SEARCH_FIELDS);
          const alias = pick(spellings(pick(field.aliases)));
          const operator = field.kind === 'deliveryStatus' ? pick(['=', '!='] as const) : pick(OPERATORS);
          const value = field.kind === 'text' && next() < 0.5 ? '"main lift"' : SAMPLE[field.kind][0];
          parts.push(`${alias}${operator}${value}`);
        }
      }
      const first = parseSearch(parts.join(' '));
      expect(first.errors).toEqual([]);
      const again = parseSearch(formatSearch(first.terms));
      expect(again.errors).toEqual([]);
      // Without positions too: a term written twice is read once, so the terms after it move up.
      const strip = (terms: typeof first.terms) => terms.map(({ raw: _raw, index: _index, ...rest }) => rest);
      expect(strip(again.terms)).toEqual(strip(first.terms));
      expect(toQueryParams(again.terms)).toEqual(toQueryParams(first.terms));
    }
  });

  it('junk never throws and every error points at a real term (5,000 seeded strings)', () => {
    const next = random(42);
    const alphabet = ['p', 'o', '>', '<', '=', '!', '"', ' ', '\t', '-', '_', '/', '.', '\\', '*', '%', '?', '1', '9', 'é', '😀', '\u0000', 'dd', 'mat', 'po'];
    for (let run = 0; run < 5000; run++) {
      let text = '';
      const length = Math.floor(next() * 40);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      const terms = splitTerms(text);
      const parsed = parseSearch(text);
      for (const error of parsed.errors) {
        expect(error.index).toBeLessThan(terms.length);
        expect(error.term).toBe(terms[error.index]);
      }
      expect(parsed.terms.length + parsed.errors.length).toBeLessThanOrEqual(terms.length);
    }
    for (const odd of [null, 42, {}, [], '', '   ', '"', '""', '=', '!=!=', '>>>', 'po>="', '"po>=1']) {
      expect(() => parseSearch(odd)).not.toThrow();
    }
  });
});
