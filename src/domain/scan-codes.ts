/**
 * What a scanned code means (#17), shared by the camera sheet, keyboard-wedge scanners and the
 * print sheet that prints the codes. Pure: no DOM.
 *
 * A scanner hands us a string; it can be
 * - a plain material code (`KM123456`), possibly zero-padded as SAP pads numeric material
 *   numbers (`000000000012345678`) or as an EAN-13 / UPC / GTIN-14 of the same number;
 * - a GS1 element string (GS1-128, GS1 DataMatrix, GS1 QR): `]C1`/`]d2`/`]Q3` symbology prefix
 *   or GS (0x1D) separators as a decoder gives them, or the `(01)…(240)…` form printed under a
 *   label and typed by hand. The material is looked for in AI 240 (additional product id),
 *   241 (customer part number), 91–99 (company internal) and 01 (GTIN), in that order;
 * - the QR of one of our count sheets: the count's address `…/mechanic-view/{id}`.
 */
import { isControlCharacter } from './text';

export type ScanReading =
  | { kind: 'count'; stockCountId: number }
  /** Material codes the scan may stand for, most likely first, upper case. */
  | { kind: 'material'; candidates: string[] }
  | { kind: 'empty' };

const GS = '\u001d';
const SYMBOLOGY_PREFIX = /^\][A-Za-z][0-9A-Za-z]/;
/** GS1 symbology identifiers: GS1-128, GS1 DataMatrix, GS1 QR, GS1 DataBar / composite. */
const GS1_PREFIXES = [']C1', ']d2', ']Q3', ']e0', ']J1'];

/** Application identifiers of fixed data length (GS1 General Specifications §3.2); the rest are variable. */
const FIXED_LENGTH: Record<string, number> = {
  '00': 18, '01': 14, '02': 14, '03': 14, '04': 16, '11': 6, '12': 6, '13': 6, '15': 6, '16': 6, '17': 6, '20': 2,
  '410': 13, '411': 13, '412': 13, '413': 13, '414': 13, '415': 13, '416': 13, '417': 13,
};
/** Variable-length AIs we read, with their 2- or 3-digit prefixes; maximum lengths per the spec. */
const VARIABLE_MAX: Record<string, number> = {
  '10': 20, '21': 20, '22': 20, '30': 8, '37': 8, '240': 30, '241': 30, '242': 6, '250': 30, '251': 30, '400': 30, '401': 30,
  '403': 30, '90': 30, '91': 90, '92': 90, '93': 90, '94': 90, '95': 90, '96': 90, '97': 90, '98': 90, '99': 90,
};
/** 4-digit AIs (measures 310n–369n: 6 digits) and 7-digit-free variants we skip over. */
const isMeasureAi = (ai: string) => /^3[1-6]\d\d$/.test(ai);

/** AIs holding a material, best first. */
const MATERIAL_AIS = ['240', '241', '91', '92', '93', '94', '95', '96', '97', '98', '99', '01', '02'];

/** Upper case without blanks, control characters or a symbology identifier. */
export function cleanCode(raw: string): string {
  return [...raw.replace(SYMBOLOGY_PREFIX, '')]
    .filter((char) => !isControlCharacter(char) && !/\s/.test(char))
    .join('')
    .toUpperCase();
}

/**
 * Two codes name the same material when equal after cleaning and, for all-digit codes, after
 * dropping leading zeros (SAP's zero padding, GTIN-14 / EAN-13 / UPC-A of one number).
 */
export function materialKey(code: string): string {
  const clean = cleanCode(code);
  return /^\d+$/.test(clean) ? clean.replace(/^0+(?=\d)/, '') : clean;
}

/** Reads a GS1 element string into its AIs, or null when it is not one. */
export function parseGs1(raw: string): Map<string, string> | null {
  let text = raw.trim();
  const prefixed = GS1_PREFIXES.some((prefix) => text.startsWith(prefix));
  if (prefixed) text = text.slice(3);
  if (/^\(\d{2,4}\)/.test(text)) return parseBracketed(text);
  if (!prefixed && !text.includes(GS)) return null;
  if (text.startsWith(GS)) text = text.slice(1);
  const fields = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    const ai = readAi(text, at);
    if (!ai) return fields.size > 0 ? fields : null;
    at += ai.length;
    const fixed = FIXED_LENGTH[ai] ?? (isMeasureAi(ai) ? 6 : undefined);
    if (fixed !== undefined) {
      fields.set(ai, text.slice(at, at + fixed));
      at += fixed;
      if (text[at] === GS) at += 1;
    } else {
      const end = text.indexOf(GS, at);
      const stop = end === -1 ? text.length : end;
      fields.set(ai, text.slice(at, Math.min(stop, at + (VARIABLE_MAX[ai] ?? 90))));
      at = end === -1 ? text.length : end + 1;
    }
  }
  return fields.size > 0 ? fields : null;
}

function readAi(text: string, at: number): string | null {
  for (const length of [2, 3, 4]) {
    const ai = text.slice(at, at + length);
    if (!/^\d+$/.test(ai) || ai.length < length) return null;
    if (ai in FIXED_LENGTH || ai in VARIABLE_MAX || (length === 4 && isMeasureAi(ai))) return ai;
  }
  return null;
}

function parseBracketed(text: string): Map<string, string> | null {
  const fields = new Map<string, string>();
  const pattern = /\((\d{2,4})\)([^(]*)/g;
  for (const match of text.matchAll(pattern)) fields.set(match[1]!, match[2]!.trim());
  return fields.size > 0 ? fields : null;
}

/** `…/mechanic-view/{id}` (absolute or not): the QR of one of our count sheets. */
const COUNT_PATH = /(?:^|\/)mechanic-view\/(\d{1,12})(?:[/?#]|$)/;

/** The address a count sheet's QR carries: opens the count in the app, also from a phone's camera app. */
export function countSheetUrl(origin: string, stockCountId: number): string {
  return `${origin.replace(/\/+$/, '')}/mechanic-view/${stockCountId}`;
}

export function readScan(raw: string): ScanReading {
  const trimmed = raw.trim();
  if (!trimmed) return { kind: 'empty' };
  const count = COUNT_PATH.exec(trimmed);
  if (count && /^(https?:\/\/[^/]+)?\/?mechanic-view\//i.test(trimmed)) return { kind: 'count', stockCountId: Number(count[1]) };
  const gs1 = parseGs1(trimmed);
  if (gs1) {
    const candidates = MATERIAL_AIS.map((ai) => gs1.get(ai)).filter((value): value is string => Boolean(value)).map(cleanCode);
    return candidates.length > 0 ? { kind: 'material', candidates: unique(candidates) } : { kind: 'empty' };
  }
  const clean = cleanCode(trimmed);
  return clean ? { kind: 'material', candidates: [clean] } : { kind: 'empty' };
}

const unique = (values: string[]) => [...new Set(values)];

/** An index of a count's material codes by `materialKey`, so a scan finds its line at once. */
export function indexMaterials(codes: Iterable<string>): Map<string, string> {
  const index = new Map<string, string>();
  for (const code of codes) {
    const key = materialKey(code);
    if (!index.has(key)) index.set(key, code);
  }
  return index;
}

/** The material code of the count that a scan names, or null (then `candidates[0]` is what to offer to add). */
export function matchMaterial(reading: ScanReading, index: ReadonlyMap<string, string>): string | null {
  if (reading.kind !== 'material') return null;
  for (const candidate of reading.candidates) {
    const found = index.get(materialKey(candidate));
    if (found !== undefined) return found;
  }
  return null;
}

/**
 * §5 search text for a scanned label on the tracking search: purchase order (45…), service order
 * (40…), outbound delivery (80…), a parcel's tracking number (carrier formats, SSCC, GS1 AI 00 /
 * 400 / 401), otherwise the code as free text.
 */
export function orderSearchFor(raw: string): string {
  const gs1 = parseGs1(raw);
  if (gs1) {
    const po = gs1.get('400');
    if (po) return `po=${cleanCode(po)}`;
    const tracking = gs1.get('00') ?? gs1.get('401');
    if (tracking) return `tn=${cleanCode(tracking)}`;
  }
  const code = cleanCode(raw).replace(/[^0-9A-Z/]/g, '');
  if (!code) return '';
  if (/^45\d{8}(\/\d{1,6})?$/.test(code)) return `po=${code}`;
  if (/^40\d{8}$/.test(code)) return `so=${code}`;
  if (/^80\d{8}$/.test(code)) return `do=${code}`;
  if (/^(JJ[A-Z]{1,2}\d{15,20}|1Z[0-9A-Z]{16}|[A-Z]{2}\d{9}[A-Z]{2}|6A\d{11}|\d{14}|\d{18}|\d{20,22})$/.test(code)) return `tn=${code}`;
  return code;
}
