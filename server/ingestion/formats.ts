/**
 * The ERP extract formats (#9), documented in README.md "ERP files". One CSV per file type, a
 * header line naming the columns (any order, case-insensitive), `;` or `,` separated, UTF-8.
 * The file name carries what the dashboard needs before the file is read:
 *
 *   ERP_<TYPE>_<YYYYMMDD>_<MORNING|MIDDAY|EVENING>[_<anything>].csv
 *
 * Cell kinds: text; number (digits with an optional `.` decimal part: "12,5" is an error, never
 * a guess); date (YYYY-MM-DD, a real calendar day); timestamp (ISO 8601 with offset or Z);
 * list (values separated by `|`); status (one of §4's delivery statuses). An empty cell is null.
 */
import { DELIVERY_STATUSES, type FILE_PARTS_OF_DAY } from '../../src/domain/constants';
import { isCalendarDay } from '../../src/contract/dashboard';
import { coded, type Coded } from './coded';

export const ERP_FILE_TYPES = ['ORDERS', 'DELIVERIES', 'STOCK', 'MATERIALS'] as const;
export type ErpFileType = (typeof ERP_FILE_TYPES)[number];
export type PartOfDay = (typeof FILE_PARTS_OF_DAY)[number];

export type CellKind = 'text' | 'number' | 'date' | 'timestamp' | 'list' | 'deliveryStatus' | 'integer' | 'email';

export interface ColumnSpec {
  name: string;
  kind: CellKind;
  required: boolean;
  /** Other header names read as this column. */
  aliases?: readonly string[];
  /** Words people read (descriptions, addresses): FREE_TEXT_MAX characters; a code or number CODE_MAX. */
  freeText?: boolean;
}

/**
 * The longest cell taken (characters). A code (btree-indexed, compared and shown in a column)
 * longer than this is an export gone wrong; past ~2.7 kB the database refuses an index entry
 * (54000) for the whole file, without a line. Descriptions and addresses are people's words.
 */
export const CODE_MAX = 200;
export const FREE_TEXT_MAX = 2000;

const req = (name: string, kind: CellKind = 'text'): ColumnSpec => ({ name, kind, required: true });
const opt = (name: string, kind: CellKind = 'text'): ColumnSpec => ({ name, kind, required: false });
const words = (spec: ColumnSpec): ColumnSpec => ({ ...spec, freeText: true });

/** Columns per file type; `required` columns must be in the header AND filled on every line. */
export const FILE_COLUMNS: Record<ErpFileType, readonly ColumnSpec[]> = {
  MATERIALS: [req('material_code'), words(req('description_english')), req('unit'), opt('material_group')],
  STOCK: [
    req('plant'),
    req('storage_location'),
    req('material_code'),
    opt('bin'),
    opt('unrestricted_count', 'number'),
    // The ERP's name; §3's quantity_inspection_count is read too (#19 item 7), and is what §7 answers.
    { ...opt('quality_inspection_count', 'number'), aliases: ['quantity_inspection_count'] },
    opt('blocked_count', 'number'),
    opt('restricted_count', 'number'),
    opt('transfer_count', 'number'),
    opt('reorder_point', 'number'),
    opt('reorder_quantity', 'number'),
    opt('planner_groups', 'list'),
    opt('work_centers', 'list'),
  ],
  ORDERS: [
    req('service_order'),
    req('line_number', 'integer'),
    req('plant'),
    req('material_code'),
    words(req('material_description')),
    req('unit'),
    opt('equipment_code'),
    words(opt('equipment_description')),
    words(opt('destination')),
    opt('work_center'),
    opt('planner_group'),
    opt('ship_to_party'),
    opt('user_email', 'email'),
    opt('delivery_date', 'date'),
    opt('eta', 'date'),
    opt('delivery_type'),
    words(opt('delivery_address')),
    opt('storage_location'),
    opt('address_code'),
    opt('reservation_doc_number'),
    opt('reservation_quantity', 'number'),
    opt('pending', 'number'),
    opt('purchase_order_doc_number'),
    opt('purchase_order'),
    opt('purchase_order_quantity', 'number'),
    opt('purchase_order_confirmation_category'),
    opt('purchase_order_confirmation_quantity', 'number'),
    opt('purchase_order_goods_receipt_quantity', 'number'),
    opt('goods_receipt_posted_at', 'timestamp'),
    opt('sales_order_doc_number'),
    opt('sales_order_doc_number_at_po'),
    opt('sales_order_schedule_line_quantity', 'number'),
    opt('sales_order_quantity', 'number'),
    opt('delivery_order_doc_number'),
    opt('delivery_quantity', 'number'),
    opt('main_asset_number'),
    opt('network'),
    opt('cost_center'),
    opt('action_point'),
    opt('notification'),
  ],
  DELIVERIES: [
    req('service_order'),
    req('line_number', 'integer'),
    req('tracking_number'),
    req('carrier'),
    req('event_status'),
    words(req('event_description')),
    req('occurred_at', 'timestamp'),
    words(opt('event_location')),
    opt('delivery_status', 'deliveryStatus'),
    opt('eta', 'date'),
    opt('delivery_date', 'date'),
  ],
};

/** Order header columns: every line of one service order must agree on them. */
export const ORDER_HEADER_COLUMNS = [
  'plant',
  'equipment_code',
  'equipment_description',
  'destination',
  'work_center',
  'planner_group',
  'ship_to_party',
  'user_email',
] as const;

export interface FileNameParts {
  fileType: ErpFileType;
  businessDate: string;
  partOfDay: PartOfDay;
}

// ` (1)` before `.csv`: the name a browser gives a second download of the same file.
const FILE_NAME = /^ERP_([A-Z]+)_(\d{4})(\d{2})(\d{2})_(MORNING|MIDDAY|EVENING)(?:_[A-Za-z0-9-]+)?(?: \(\d{1,3}\))?\.csv$/i;

export const FILE_NAME_RULE = 'ERP_<ORDERS|DELIVERIES|STOCK|MATERIALS>_<YYYYMMDD>_<MORNING|MIDDAY|EVENING>.csv';

export const isCalendarDate = isCalendarDay;

/** Reads the file name; a refusal (Coded) says what is wrong with it. */
export function parseFileName(fileName: string): FileNameParts | Coded {
  const match = FILE_NAME.exec(fileName);
  if (!match) return coded('erpFileNameRule', { fileName, rule: FILE_NAME_RULE }, `The file name "${fileName}" does not follow ${FILE_NAME_RULE}.`);
  const type = match[1]!.toUpperCase();
  if (!(ERP_FILE_TYPES as readonly string[]).includes(type)) {
    const types = ERP_FILE_TYPES.join(', ');
    return coded('erpFileTypeUnknown', { type, fileName, types }, `The file type "${type}" of "${fileName}" is unknown; expected one of ${types}.`);
  }
  const businessDate = `${match[2]}-${match[3]}-${match[4]}`;
  const date = `${match[2]}${match[3]}${match[4]}`;
  if (!isCalendarDate(businessDate)) return coded('erpFileDateInvalid', { date, fileName }, `The date ${date} in "${fileName}" is not a calendar day.`);
  return { fileType: type as ErpFileType, businessDate, partOfDay: match[5]!.toLowerCase() as PartOfDay };
}

/** parseFileName's refusal. */
export const isRefusal = (parsed: FileNameParts | Coded): parsed is Coded => 'message' in parsed;

export function fileNameFor(fileType: string, businessDate: string, partOfDay: string): string {
  return `ERP_${fileType}_${businessDate.replaceAll('-', '')}_${partOfDay.toUpperCase()}.csv`;
}

export const isDeliveryStatus = (value: string): value is (typeof DELIVERY_STATUSES)[number] =>
  (DELIVERY_STATUSES as readonly string[]).includes(value);
