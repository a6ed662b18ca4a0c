/**
 * Row checks that need no database: required cells (§5 "Field <field> is required"), formula
 * cells, control characters in cells, cells past the header (a wrong delimiter on that line), the
 * priority range of the database check, the disable action, and rows the file lists twice. Every
 * row keeps its line.
 */
import type { UploadErrorCode, UploadErrorParams, UploadLineError } from '../../src/contract/priority';
import {
  DISABLE_ACTIONS,
  isValidPriority,
  looksLikeFormula,
  PRIORITY_CSV_COLUMNS,
  PRIORITY_RANGE_MESSAGE,
  type DisableAction,
  type PriorityCsvColumn,
  type PriorityUploadKind,
} from '../../src/domain/priority';
import { PRIORITY_MAX, PRIORITY_MIN } from '../../src/domain/constants';
import { hasControlCharacter } from '../../src/domain/text';
import type { ParsedCsv } from './csv';

export interface CheckedRow {
  line: number;
  shipToPartyCode: string;
  accessPointId: string | null;
  priority: number | null;
  action: DisableAction | null;
  /** False when any check failed; such rows are shown but never applied. */
  isValid: boolean;
}

const MAX_CELL = 100;

export function checkRows(parsed: ParsedCsv, kind: PriorityUploadKind): { rows: CheckedRow[]; errors: UploadLineError[] } {
  const { required, optional } = PRIORITY_CSV_COLUMNS[kind];
  const errors: UploadLineError[] = [];
  const firstLineOf = new Map<string, number>();
  const rows = parsed.rows.map((source): CheckedRow => {
    const rowErrors: UploadLineError[] = [];
    const fail = (column: PriorityCsvColumn | null, value: string | null, message: string, code: UploadErrorCode, params: UploadErrorParams = {}) =>
      rowErrors.push({ line: source.line, column, value, message, code, params });

    for (const column of [...required, ...optional]) {
      const value = source.cells[column] ?? '';
      if (value === '') {
        if (required.includes(column)) fail(column, null, `Field ${column} is required`, 'required', { column });
      } else if (looksLikeFormula(value)) {
        fail(column, value, `${column} starts with "${value[0]}" like a spreadsheet formula; enter the plain value`, 'formula', { column, char: value[0]! });
      } else if (value.length > MAX_CELL || hasControlCharacter(value)) {
        // Line breaks and tabs, and any other control character: NUL cannot even reach SQL (22021).
        fail(column, value, `${column} is not a valid value (too long, or contains a line break or another control character)`, 'invalidValue', { column });
      }
    }
    if (source.extraCells > 0) {
      fail(null, null, `This line has ${source.extraCells} more cell${source.extraCells > 1 ? 's' : ''} than the header; check the delimiter (the file is ${parsed.delimiter} separated)`, 'extraCells', {
        count: source.extraCells,
        // A name (CSV_DELIMITER_NAMES) the browser words in the user's language; English in `message` only.
        delimiter: parsed.delimiter,
      });
    }

    let priority: number | null = null;
    const priorityCell = source.cells.priority;
    if (kind === 'add' && priorityCell && !looksLikeFormula(priorityCell)) {
      priority = /^\d{1,3}$/.test(priorityCell) ? Number(priorityCell) : null;
      if (priority === null || !isValidPriority(priority)) {
        fail('priority', priorityCell, PRIORITY_RANGE_MESSAGE, 'priorityRange', { min: PRIORITY_MIN, max: PRIORITY_MAX });
        priority = null;
      }
    }

    let action: DisableAction | null = null;
    if (kind === 'disable') {
      const actionCell = (source.cells.action ?? '').toLowerCase();
      if (actionCell === '') action = 'disable';
      else if ((DISABLE_ACTIONS as readonly string[]).includes(actionCell)) action = actionCell as DisableAction;
      else if (!looksLikeFormula(actionCell)) fail('action', source.cells.action ?? '', `action must be ${DISABLE_ACTIONS.join(' or ')} (empty means disable)`, 'actionInvalid');
    }

    const shipToPartyCode = source.cells.shipToPartyCode ?? '';
    const accessPointId = kind === 'shipToParty' ? null : (source.cells.accessPointId ?? '');
    const key = accessPointId === null ? shipToPartyCode : `${shipToPartyCode}\u0000${accessPointId}`;
    if (rowErrors.length === 0) {
      const first = firstLineOf.get(key);
      if (first !== undefined) {
        const what = accessPointId === null ? `Ship-to-party number ${shipToPartyCode}` : `Access point ${accessPointId} of ship-to-party ${shipToPartyCode}`;
        if (accessPointId === null) fail(null, null, `${what} is also on line ${first}; list it once`, 'shipToPartyTwice', { shipToPartyCode, first });
        else fail(null, null, `${what} is also on line ${first}; list it once`, 'accessPointTwice', { accessPointId, shipToPartyCode, first });
      } else {
        firstLineOf.set(key, source.line);
      }
    }
    errors.push(...rowErrors);
    return { line: source.line, shipToPartyCode, accessPointId, priority, action, isValid: rowErrors.length === 0 };
  });
  return { rows, errors };
}
