/**
 * Priority manager rules shared by the server (CSV validation) and the browser (upload help,
 * error CSV): the three upload kinds and their columns, header matching, the priority range and
 * spreadsheet-formula cells (CSV injection: a cell starting with = + - @ is run by spreadsheets).
 */
import { PRIORITY_MAX, PRIORITY_MIN } from './constants';

export const PRIORITY_UPLOAD_KINDS = ['add', 'disable', 'shipToParty'] as const;
export type PriorityUploadKind = (typeof PRIORITY_UPLOAD_KINDS)[number];

export type PriorityCsvColumn = 'shipToPartyCode' | 'accessPointId' | 'priority' | 'action';

/** Columns each upload needs, and the optional ones it understands. Other columns are ignored. */
export const PRIORITY_CSV_COLUMNS: Record<PriorityUploadKind, { required: readonly PriorityCsvColumn[]; optional: readonly PriorityCsvColumn[] }> = {
  add: { required: ['shipToPartyCode', 'accessPointId', 'priority'], optional: [] },
  disable: { required: ['shipToPartyCode', 'accessPointId'], optional: ['action'] },
  shipToParty: { required: ['shipToPartyCode'], optional: [] },
};

/** What a disable upload does to a row: switch it off (default) or remove it. */
export const DISABLE_ACTIONS = ['disable', 'delete'] as const;
export type DisableAction = (typeof DISABLE_ACTIONS)[number];

/** "Ship-to-party code", "ship_to_party_code" and "shipToPartyCode" name the same column. */
export function normaliseHeader(cell: string): string {
  return cell.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const HEADER_ALIASES: Record<PriorityCsvColumn, readonly string[]> = {
  shipToPartyCode: ['shiptopartycode', 'shiptoparty', 'shiptopartynumber', 'shiptopartyno'],
  accessPointId: ['accesspointid', 'accesspoint', 'uapid', 'uap'],
  priority: ['priority', 'prio'],
  action: ['action'],
};

export function columnOfHeader(cell: string): PriorityCsvColumn | null {
  const name = normaliseHeader(cell);
  const entry = Object.entries(HEADER_ALIASES).find(([, aliases]) => aliases.includes(name));
  return entry ? (entry[0] as PriorityCsvColumn) : null;
}

export function isValidPriority(value: number): boolean {
  return Number.isInteger(value) && value >= PRIORITY_MIN && value <= PRIORITY_MAX;
}

export const PRIORITY_RANGE_MESSAGE = `Priority must be a whole number from ${PRIORITY_MIN} to ${PRIORITY_MAX}`;

/** OWASP CSV injection: these first characters make a spreadsheet evaluate the cell. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function looksLikeFormula(cell: string): boolean {
  return FORMULA_START.test(cell);
}

/** A cell a spreadsheet shows as text: formula-like cells get a leading quote. */
export function neutraliseCell(cell: string): string {
  return looksLikeFormula(cell) ? `'${cell}` : cell;
}

/** One CSV line: cells neutralised, then quoted where they hold a comma, quote or line break. */
export function toCsvLine(cells: readonly (string | number | null)[]): string {
  return cells
    .map((cell) => {
      const text = neutraliseCell(cell === null ? '' : String(cell));
      return /[",\r\n;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(',');
}
