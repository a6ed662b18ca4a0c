/** Stock service (§7 /api/v2): stock counts and material counts. */
import { z } from './zod';
import { STOCK_COUNT_STATUSES, STOCK_COUNT_TYPES, SORT_DIRECTIONS } from '../domain/constants';
import { MAX_COUNTED_QUANTITY } from '../domain/quantity';
import { afterParam, atMostThreeDecimals, countedQuantity, countsCapped, nextCursor, maxResultsParam, pageEnvelope, pageParam, queryBoolean, requiredMaxResultsParam, requiredPageParam, searchText } from './common';
import { openPartIdsParam, splitFields } from './stock-count-parts';
import { TRANSFER_DECISIONS } from '../domain/stock';
import { isCalendarDay } from './dashboard';

/** The longest search the stock and stock-count lists take (the search screens hold typing to it). */
export const STOCK_QUERY_MAX_LENGTH = 200;

const positiveId = (name: string) =>
  z.coerce.number({ message: `${name} must be a number` }).check(z.int(`${name} must be a whole number`), z.positive(`${name} must be positive`));

export const pageQuery = {
  page: pageParam,
  maxResults: maxResultsParam(500),
  sortDirection: z.optional(z.enum(SORT_DIRECTIONS, { message: 'sortDirection must be asc or desc' })),
};

// ───────────── material counts ─────────────

export const MATERIAL_COUNT_SORT_COLUMNS = ['quantity', 'material_code', 'material_description_english', 'unit', 'id'] as const;

/** §5 "list queries require their listed parameters": paging is required (decision 0024); filters and order have defaults. */
const requiredPaging = {
  page: requiredPageParam,
  maxResults: requiredMaxResultsParam(500),
};

export const materialCountListQuery = z.object({
  stockCountId: positiveId('stockCountId'),
  query: z.optional(searchText(STOCK_QUERY_MAX_LENGTH)),
  ...pageQuery,
  ...requiredPaging,
  orderByColumn: z.optional(z.enum(MATERIAL_COUNT_SORT_COLUMNS, { message: `orderByColumn must be one of ${MATERIAL_COUNT_SORT_COLUMNS.join(', ')}` })),
});
export type MaterialCountListQuery = z.input<typeof materialCountListQuery>;

export const materialCountRow = z
  .object({
    id: z.int(),
    stock_count_id: z.int(),
    material_code: z.string(),
    material_description_english: z.string(),
    quantity: z.nullable(z.number()),
    unit: z.string(),
    book_quantity: z.nullable(z.number()),
    book_quantity_at: z.nullable(z.string()),
    /** The book quantity now; differs from book_quantity when stock moved after it was taken. */
    book_quantity_now: z.nullable(z.number()),
    version: z.int(),
    updated_by: z.nullable(z.string()),
    updated_at: z.string(),
    /** #18: the material's bin, on the lines of a counter's part (split counts are split by bin). Absent elsewhere. */
    bin: z.optional(z.nullable(z.string())),
  })
  .register(z.globalRegistry, { id: 'MaterialCount' });
export type MaterialCountRow = z.infer<typeof materialCountRow>;

export const materialCountListResponse = z
  .object({ ...pageEnvelope, total: z.int(), material_counts: z.array(materialCountRow) })
  .register(z.globalRegistry, { id: 'MaterialCountPage' });
export type MaterialCountPage = z.infer<typeof materialCountListResponse>;

export const modifiedMaterial = z.object({
  id: positiveId('id'),
  quantity: countedQuantity(),
  /** The version the edit was made from; a stale version whose value differs is a 409. */
  version: z.optional(z.int().check(z.gte(0))),
  /**
   * The book quantity the counter accepts as the line's reference (after the book moved):
   * the line's book_quantity becomes this value, taken now.
   */
  acceptBookQuantity: z.optional(z.nullable(z.number({ message: 'acceptBookQuantity must be a number' }))),
});

export const modifyMaterialsBody = z
  .object({
    modifiedMaterials: z
      .array(modifiedMaterial)
      .check(
        z.minLength(1, 'modifiedMaterials must list at least one line'),
        z.maxLength(1000, 'modifiedMaterials may list at most 1000 lines'),
        z.refine((lines) => new Set(lines.map((line) => line.id)).size === lines.length, 'modifiedMaterials lists a line twice'),
      ),
  })
  .register(z.globalRegistry, { id: 'ModifyMaterialCounts' });
export type ModifyMaterialsBody = z.infer<typeof modifyMaterialsBody>;

export const modifyMaterialsResponse = z
  .object({
    material_counts: z.array(materialCountRow),
    stock_counts: z.array(z.object({ id: z.int(), status: z.enum(STOCK_COUNT_STATUSES) })),
  })
  .register(z.globalRegistry, { id: 'ModifyMaterialCountsResult' });
export type ModifyMaterialsResponse = z.infer<typeof modifyMaterialsResponse>;

export const materialCountConflict = z
  .object({
    message: z.string(),
    conflicts: z.array(materialCountRow),
  })
  .register(z.globalRegistry, { id: 'MaterialCountConflict' });
export type MaterialCountConflict = z.infer<typeof materialCountConflict>;

export const addMaterialBody = z
  .object({ stockCountId: positiveId('stockCountId'), materialCode: z.string().check(z.trim(), z.minLength(1, 'Field materialCode is required'), z.maxLength(40)) })
  .register(z.globalRegistry, { id: 'AddMaterialCount' });

export const deleteMaterialQuery = z.object({ materialCountId: positiveId('materialCountId') });

// ───────────── stock counts ─────────────

export const STOCK_COUNT_SORT_COLUMNS = ['plant', 'created', 'should_be_done_at', 'status', 'storage_location', 'conducted_by', 'id', 'type'] as const;

export const stockCountListQuery = z.object({
  stockCountId: z.optional(positiveId('stockCountId')),
  query: z.optional(searchText(STOCK_QUERY_MAX_LENGTH)),
  type: z.optional(z.enum(STOCK_COUNT_TYPES, { message: 'type must be single or wall_to_wall' })),
  ...pageQuery,
  ...requiredPaging,
  orderByColumn: z.optional(z.enum(STOCK_COUNT_SORT_COLUMNS, { message: `orderByColumn must be one of ${STOCK_COUNT_SORT_COLUMNS.join(', ')}` })),
});

export const stockCountRow = z
  .object({
    id: z.int(),
    created: z.string(),
    created_by: z.string(),
    plant: z.string(),
    type: z.string(),
    should_be_done_at: z.nullable(z.string()),
    status: z.enum(STOCK_COUNT_STATUSES),
    is_draft: z.boolean(),
    storage_location: z.string(),
    conducted_by: z.nullable(z.string()),
    work_center: z.nullable(z.string()),
    latest_sap_error: z.nullable(z.string()),
    physical_inventory_document_number: z.nullable(z.string()),
    total_lines: z.int(),
    counted_lines: z.int(),
    /** The open recount of this completed count, if any (#19: one open recount per count). Absent from older servers and copies. */
    open_recount_id: z.optional(z.nullable(z.int())),
    /** #18: counters get no book quantity. Absent from older servers and copies. */
    is_blind: z.optional(z.boolean()),
    /** #18: how many parts (counters) the count is split into; 0 for a single-counter count. */
    part_count: z.optional(z.int()),
    /**
     * Whether the caller plans this count (its planner or overseer), not only counts it: editing,
     * cancelling, recounting, splitting and deleting lines are a planner's. Absent from older servers and copies.
     */
    planned_by_you: z.optional(z.boolean()),
    /**
     * Whether the caller may change this count (count, add lines, submit), not only read it: a
     * read-only super manager reads every count and changes only those its other roles give it
     * (decisions 0063, 0065). Absent from older servers, other services and copies: writable.
     */
    writable_by_you: z.optional(z.boolean()),
    /**
     * Submitted and its ERP booking not finished (decision 0053): submitting it again finishes the
     * same booking. Absent from older servers and copies.
     */
    being_booked: z.optional(z.boolean()),
    /**
     * Some line's counted quantity differs from its book quantity (what a recount recounts): a
     * completed count without one has nothing to recount. Absent from older servers and copies.
     */
    has_differences: z.optional(z.boolean()),
  })
  .register(z.globalRegistry, { id: 'StockCount' });
export type StockCountRow = z.infer<typeof stockCountRow>;

export const stockCountListResponse = z
  .object({ ...pageEnvelope, total: z.int(), stock_counts: z.array(stockCountRow) })
  .register(z.globalRegistry, { id: 'StockCountPage' });
export type StockCountPage = z.infer<typeof stockCountListResponse>;

export const submitQuery = z.object({ stockCountId: positiveId('stockCountId') });

/** #18: a planner submits a split count with parts still open only when confirming them. */
/** openPartIds: with confirmOpenParts, the open parts the planner was shown (a part opened since refuses the submit, 409). */
export const submitStockCountQuery = z.extend(submitQuery, { confirmOpenParts: z.optional(queryBoolean), openPartIds: openPartIdsParam });

// ───────────── materials ─────────────

export const myMaterialQuery = z.object({
  materialCode: z.optional(z.string().check(z.maxLength(40))),
  ...pageQuery,
});

export const myMaterialResponse = z
  .object({
    ...pageEnvelope,
    my_material_items: z.array(z.object({ material_code: z.string(), material_description_english: z.string(), unit: z.string() })),
  })
  .register(z.globalRegistry, { id: 'MyMaterialPage' });
export type MyMaterialPage = z.infer<typeof myMaterialResponse>;

// ───────────── stock (my / team / plant) ─────────────

/** §5: stock list queries require query, maxResults and page (the type is the path); decision 0024. */
export const stockListQuery = z.object({
  query: searchText(STOCK_QUERY_MAX_LENGTH, true),
  ...requiredPaging,
  after: afterParam,
});

export const stockItemRow = z
  .object({
    id: z.int(),
    bin: z.nullable(z.string()),
    blocked_count: z.nullable(z.number()),
    material_code: z.string(),
    material_description_english: z.string(),
    unit: z.string(),
    planner_groups: z.array(z.string()),
    plant: z.string(),
    /** §3's name; the ERP STOCK file and the database column say quality_inspection_count (#19 item 7). */
    quantity_inspection_count: z.nullable(z.number()),
    reorder_point: z.nullable(z.number()),
    reorder_quantity: z.nullable(z.number()),
    restricted_count: z.nullable(z.number()),
    storage_location: z.string(),
    transfer_count: z.nullable(z.number()),
    unrestricted_count: z.nullable(z.number()),
    work_centers: z.array(z.string()),
    total_quantity: z.nullable(z.number()),
    /** The counts and total are hidden (null): the caller counts this material here blind, in this stock count (decision 0064). */
    blind_count_id: z.optional(z.int()),
  })
  .register(z.globalRegistry, { id: 'StockItem' });
export type StockItemRow = z.infer<typeof stockItemRow>;

export const stockListResponse = z
  .object({
    ...pageEnvelope,
    total: z.int(),
    storage_location_count: z.int(),
    counts_capped: z.optional(countsCapped(['total', 'storage_location_count'])),
    next_cursor: nextCursor,
    stock_items: z.array(stockItemRow),
  })
  .register(z.globalRegistry, { id: 'StockPage' });
export type StockPage = z.infer<typeof stockListResponse>;

// ───────────── stock count management ─────────────

/** A real calendar day: "2026-02-30" is a 400 here, not a database error (500) further on. */
const isoDate = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD', abort: true }), z.refine(isCalendarDay, 'must be a calendar day (YYYY-MM-DD)'));

export const createStockCountBody = z
  .object({
    plant: z.string().check(z.trim(), z.minLength(1, 'Field plant is required')),
    storageLocation: z.string().check(z.trim(), z.minLength(1, 'Field storageLocation is required')),
    type: z.enum(['single', 'wall_to_wall'], { message: 'type must be single or wall_to_wall' }),
    conductedBy: z.optional(z.string().check(z.trim(), z.email('conductedBy must be an e-mail address'))),
    workCenter: z.optional(z.string().check(z.trim(), z.minLength(1))),
    shouldBeDoneAt: z.optional(isoDate),
    /** For a single count: the materials to count. A wall-to-wall count takes every material of the location. */
    materialCodes: z.optional(z.array(z.string().check(z.trim(), z.minLength(1))).check(z.maxLength(5000))),
    draft: z._default(z.boolean(), false),
    /** #18 blind count: the people counting get no book quantity. */
    blind: z.optional(z.boolean()),
    /** #18: split the count among several counters at once (decision 0033); see PUT /my_stock_count/parts. */
    parts: z.optional(splitFields.parts),
    controlMaterialCodes: splitFields.controlMaterialCodes,
  })
  .check(z.refine((body) => body.parts !== undefined || body.controlMaterialCodes === undefined, { message: 'controlMaterialCodes needs parts', path: ['controlMaterialCodes'] }))
  .register(z.globalRegistry, { id: 'CreateStockCount' });
export type CreateStockCountBody = z.input<typeof createStockCountBody>;

/**
 * The count as the planner's screen showed it when the edit or the cancel began (decision 0068, a
 * save names what it started from): a field that differs now is a 409 (code countChangedMeanwhile)
 * instead of another planner's change overwritten unseen. Only the fields sent are compared; null:
 * the count had none. Optional: other callers work as before.
 */
export const expectedStockCount = z.strictObject({
  conductedBy: z.optional(z.nullable(z.string().check(z.trim()))),
  workCenter: z.optional(z.nullable(z.string().check(z.trim()))),
  shouldBeDoneAt: z.optional(z.nullable(isoDate)),
  status: z.optional(z.enum(STOCK_COUNT_STATUSES, { message: `expected.status must be one of ${STOCK_COUNT_STATUSES.join(', ')}` })),
});
export type ExpectedStockCount = z.infer<typeof expectedStockCount>;

export const updateStockCountBody = z
  .union(
    [
      z.strictObject({ stockCountId: z.int().check(z.positive()), status: z.literal('cancelled'), expected: z.optional(expectedStockCount) }),
      z.strictObject({
        stockCountId: z.int().check(z.positive()),
        conductedBy: z.optional(z.string().check(z.trim(), z.email('conductedBy must be an e-mail address'))),
        workCenter: z.optional(z.string().check(z.trim(), z.minLength(1))),
        shouldBeDoneAt: z.optional(isoDate),
        /** Send a draft to the person counting. */
        draft: z.optional(z.literal(false)),
        expected: z.optional(expectedStockCount),
      }),
    ],
    // Neither shape fits: say what each looks like rather than zod's bare "Invalid input".
    { error: 'send {stockCountId, status: "cancelled"} to cancel, or stockCountId with any of conductedBy, workCenter, shouldBeDoneAt, draft: false to edit' },
  )
  .register(z.globalRegistry, { id: 'UpdateStockCount' });
export type UpdateStockCountBody = z.infer<typeof updateStockCountBody>;

export const recountBody = z.object({ stockCountId: z.int().check(z.positive()) }).register(z.globalRegistry, { id: 'RecountRequest' });

export const occupancyQuery = z.object({
  start_date: isoDate,
  end_date: isoDate,
  plant: z.optional(z.string()),
  planner_group: z.optional(z.string()),
  conducted_by: z.optional(z.string()),
});

export const occupancyRow = z.object({
  conducted_by: z.string(),
  total_tasks: z.int(),
  completed_count: z.int(),
  not_completed_count: z.int(),
  completed_percentage: z.number(),
  not_completed_percentage: z.number(),
});
export type OccupancyRow = z.infer<typeof occupancyRow>;

export const occupancyResponse = z.object({ rows: z.array(occupancyRow), total: occupancyRow }).register(z.globalRegistry, { id: 'OccupancyReport' });
export type OccupancyReport = z.infer<typeof occupancyResponse>;

export const relationshipResponse = z
  .object({
    plants: z.array(z.object({ code: z.string(), name: z.string() })),
    storage_locations: z.array(z.object({ plant: z.string(), code: z.string(), name: z.string(), work_center: z.nullable(z.string()) })),
    work_centers: z.array(z.object({ plant: z.string(), code: z.string(), name: z.string(), planner_group: z.nullable(z.string()) })),
    mechanics: z.array(z.object({ email: z.string(), display_name: z.string(), work_centers: z.array(z.string()) })),
  })
  .register(z.globalRegistry, { id: 'Relationships' });
export type Relationships = z.infer<typeof relationshipResponse>;

export const printMaterialsResponse = z
  .object({
    stock_count: stockCountRow,
    lines: z.array(z.object({ material_code: z.string(), material_description_english: z.string(), unit: z.string(), bin: z.nullable(z.string()), book_quantity: z.nullable(z.number()) })),
  })
  .register(z.globalRegistry, { id: 'PrintMaterials' });

// ───────────── stock transfer requests ─────────────

export const TRANSFER_QUANTITY_MESSAGE = 'Quantity should be greater than 0';
/** The newest transfer requests a list holds (decision 0061); `has_more` says when there are more. */
export const TRANSFER_LIST_MAX = 100;

export const transferRequestBody = z
  .object({
    plant: z.string().check(z.trim(), z.minLength(1, 'Field plant is required')),
    storageLocationFrom: z.string().check(z.trim(), z.minLength(1, 'Field storageLocationFrom is required')),
    storageLocationTo: z.string().check(z.trim(), z.minLength(1, 'Field storageLocationTo is required')),
    materialCode: z.string().check(z.trim(), z.minLength(1, 'Field materialCode is required')),
    quantity: z
      .number({ message: TRANSFER_QUANTITY_MESSAGE })
      .check(
        z.positive(TRANSFER_QUANTITY_MESSAGE),
        z.lte(MAX_COUNTED_QUANTITY),
        atMostThreeDecimals(),
      ),
  })
  .check(z.refine((body) => body.storageLocationFrom !== body.storageLocationTo, { message: 'Choose two different storage locations' }))
  .register(z.globalRegistry, { id: 'StockTransferRequest' });
export type TransferRequestBody = z.infer<typeof transferRequestBody>;

export const transferRequestRow = z.object({
  id: z.string(),
  plant: z.string(),
  storage_location_from: z.string(),
  storage_location_to: z.string(),
  material_code: z.string(),
  quantity: z.number(),
  status: z.string(),
  created: z.string(),
  /** Decision 0061: who asked (lists show others' requests to those who decide them), the unit, and the decision. */
  requested_by: z.optional(z.string()),
  unit: z.optional(z.string()),
  material_description: z.optional(z.nullable(z.string())),
  decided_by: z.optional(z.nullable(z.string())),
  decided_at: z.optional(z.nullable(z.string())),
  /**
   * The unrestricted stock of the material at `storage_location_from` now, for who sees that
   * stock (its plant is theirs, or a super manager) and does not count it blind (decision 0064):
   * what a decider weighs the quantity against. Null when the stock row or its count is missing;
   * absent when hidden from the caller, in a decision's answer, and from older servers and copies.
   */
  from_unrestricted_count: z.optional(z.nullable(z.number())),
});
export type TransferRequestRow = z.infer<typeof transferRequestRow>;

export const transferRequestList = z
  .object({
    items: z.array(transferRequestRow),
    /** Present (true) when requests beyond the newest TRANSFER_LIST_MAX exist: the list is not all of them. */
    has_more: z.optional(z.boolean()),
  })
  .register(z.globalRegistry, { id: 'StockTransferRequests' });

export const transferDecisionBody = z
  .object({ status: z.enum(TRANSFER_DECISIONS, { message: `Field status must be one of: ${TRANSFER_DECISIONS.join(', ')}` }) })
  .register(z.globalRegistry, { id: 'StockTransferDecision' });
export type TransferDecisionBody = z.infer<typeof transferDecisionBody>;

export const transferIdParams = z.object({ id: z.uuid({ message: 'Transfer request id must be a UUID' }).check(z.toLowerCase()) });
