/**
 * #18 several counters on one stock count (decision 0033): the split of a count into parts, each
 * counted by one person; each counter's quantities; "my part is done"; the merge of lines counted
 * twice and the planner's resolution. Paths under /api/v2/my_stock_count (server/routes/stock/stock-count-parts.ts).
 */
import { z } from 'zod';
import { STOCK_COUNT_STATUSES } from '../domain/constants';
import { QUANTITY_MESSAGE, isValidCountedQuantity } from '../domain/quantity';
import { MERGE_STATES, PART_STATUSES } from '../domain/stock-count-parts';

const id = (name: string) => z.number({ message: `${name} must be a number` }).int(`${name} must be a whole number`).positive(`${name} must be positive`);
const queryId = (name: string) =>
  z.coerce.number({ message: `${name} must be a number` }).int(`${name} must be a whole number`).positive(`${name} must be positive`);
const materialCode = z.string().trim().min(1, 'a material code must not be empty').max(40);

const binRange = z
  .object({ from: z.string().trim().min(1, 'bins.from is required').max(40), to: z.string().trim().min(1, 'bins.to is required').max(40) })
  .strict()
  .refine((range) => range.from.toUpperCase() <= range.to.toUpperCase(), 'bins.from must not come after bins.to');

/** One part of a split: who counts it, and its lines by bin range, by picked material, or "the rest". */
export const partSpec = z
  .object({
    counter: z.string().trim().email('counter must be an e-mail address'),
    label: z.string().trim().min(1).max(120).optional(),
    /** Lines whose bin lies in one of these ranges (inclusive, case-insensitive). */
    bins: z.array(binRange).max(50).optional(),
    /** Lines picked by material code. */
    materialCodes: z.array(materialCode).max(5000).optional(),
    /** Every line no other part takes (at most one part). */
    rest: z.boolean().optional(),
  })
  .strict()
  .refine((part) => (part.bins?.length ?? 0) > 0 || (part.materialCodes?.length ?? 0) > 0 || part.rest === true, 'each part needs bins, materialCodes or rest: true');
export type PartSpec = z.infer<typeof partSpec>;

/** The split as create and edit send it. */
export const splitFields = {
  parts: z
    .array(partSpec)
    .min(1, 'parts must list at least one part')
    .max(50, 'parts may list at most 50 parts')
    .refine((parts) => new Set(parts.map((part) => part.counter.toLowerCase())).size === parts.length, 'a person counts one part of a count: parts lists a counter twice')
    .refine((parts) => parts.filter((part) => part.rest).length <= 1, 'only one part can take the rest'),
  /** Material codes deliberately put in two or more parts: a control count. Any other overlap is refused. */
  controlMaterialCodes: z.array(materialCode).max(5000).optional(),
};

export const splitStockCountBody = z
  .object({
    stockCountId: id('stockCountId'),
    ...splitFields,
    /** Blind count: counters get no book quantity. Changeable only before anything is counted. */
    blind: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'SplitStockCount' });
export type SplitStockCountBody = z.infer<typeof splitStockCountBody>;

export const stockCountPartRow = z
  .object({
    id: z.number().int(),
    stock_count_id: z.number().int(),
    counter: z.string(),
    counter_name: z.string().nullable(),
    label: z.string().nullable(),
    status: z.enum(PART_STATUSES),
    done_at: z.string().nullable(),
    total_lines: z.number().int(),
    counted_lines: z.number().int(),
    /** Lines this part shares with another part (control count). */
    control_lines: z.number().int(),
    is_mine: z.boolean(),
  })
  .meta({ id: 'StockCountPart' });
export type StockCountPartRow = z.infer<typeof stockCountPartRow>;

export const stockCountPartsQuery = z.object({ stockCountId: queryId('stockCountId') });

/** Progress per counter. Everyone who sees the count sees it (no quantities). */
export const stockCountPartsResponse = z
  .object({
    stock_count_id: z.number().int(),
    status: z.enum(STOCK_COUNT_STATUSES),
    is_blind: z.boolean(),
    parts: z.array(stockCountPartRow),
    total_lines: z.number().int(),
    /** Lines of the count in no part (added after the split): they need a part before submit. */
    lines_in_no_part: z.number().int(),
    variance_lines: z.number().int(),
  })
  .meta({ id: 'StockCountParts' });
export type StockCountParts = z.infer<typeof stockCountPartsResponse>;

export const partLineRow = z
  .object({
    material_count_id: z.number().int(),
    material_code: z.string(),
    material_description_english: z.string(),
    unit: z.string(),
    bin: z.string().nullable(),
    /** This part's counted quantity (not the count's merged one). */
    quantity: z.number().nullable(),
    counted_by: z.string().nullable(),
    counted_at: z.string().nullable(),
    /** This part line's version: send it back with a change; a stale one whose value differs is a 409. */
    version: z.number().int(),
    /** Null for counters of a blind count. */
    book_quantity: z.number().nullable(),
    book_quantity_at: z.string().nullable(),
    book_quantity_now: z.number().nullable(),
    /** Another part counts this line too (control count). */
    is_control: z.boolean(),
  })
  .meta({ id: 'StockCountPartLine' });
export type PartLineRow = z.infer<typeof partLineRow>;

export const partLinesQuery = z.object({
  stockCountId: queryId('stockCountId'),
  /** Planners: any part of the count. Counters: omit it (their own part), or their own part's id. */
  partId: queryId('partId').optional(),
});

export const partLinesResponse = z
  .object({
    stock_count: z.object({ id: z.number().int(), status: z.enum(STOCK_COUNT_STATUSES), is_blind: z.boolean() }),
    part: stockCountPartRow,
    lines: z.array(partLineRow),
  })
  .meta({ id: 'StockCountPartLines' });
export type PartLines = z.infer<typeof partLinesResponse>;

export const partQuantitiesBody = z
  .object({
    stockCountId: id('stockCountId'),
    quantities: z
      .array(
        z
          .object({
            materialCountId: id('materialCountId'),
            quantity: z.number({ message: QUANTITY_MESSAGE }).refine(isValidCountedQuantity, QUANTITY_MESSAGE),
            version: z.number().int().min(0).optional(),
          })
          .strict(),
      )
      .min(1, 'quantities must list at least one line')
      .max(1000, 'quantities may list at most 1000 lines')
      .refine((lines) => new Set(lines.map((line) => line.materialCountId)).size === lines.length, 'quantities lists a line twice'),
  })
  .strict()
  .meta({ id: 'StockCountPartQuantities' });
export type PartQuantitiesBody = z.infer<typeof partQuantitiesBody>;

export const partQuantitiesResponse = z
  .object({
    part: stockCountPartRow,
    lines: z.array(partLineRow),
    stock_count: z.object({ id: z.number().int(), status: z.enum(STOCK_COUNT_STATUSES) }),
  })
  .meta({ id: 'StockCountPartQuantitiesResult' });

export const partLineConflict = z.object({ message: z.string(), conflicts: z.array(partLineRow) }).meta({ id: 'StockCountPartLineConflict' });

export const partStatusBody = z
  .object({ stockCountId: id('stockCountId'), status: z.enum(PART_STATUSES, { message: 'status must be done or open' }) })
  .strict()
  .meta({ id: 'StockCountPartStatus' });
export type PartStatusBody = z.infer<typeof partStatusBody>;

export const mergeLineRow = z
  .object({
    material_count_id: z.number().int(),
    material_code: z.string(),
    material_description_english: z.string(),
    unit: z.string(),
    state: z.enum(MERGE_STATES),
    /** The count's quantity for the line (null: not counted, or a variance not resolved). */
    quantity: z.number().nullable(),
    book_quantity: z.number().nullable(),
    counts: z.array(
      z.object({ part_id: z.number().int(), counter: z.string(), quantity: z.number().nullable(), counted_by: z.string().nullable(), counted_at: z.string().nullable() }),
    ),
    resolved_part_id: z.number().int().nullable(),
    resolved_by: z.string().nullable(),
    resolved_at: z.string().nullable(),
  })
  .meta({ id: 'StockCountMergeLine' });
export type MergeLineRow = z.infer<typeof mergeLineRow>;

export const mergeQuery = z.object({
  stockCountId: queryId('stockCountId'),
  /** Only the lines in this state (e.g. variance); default: lines counted by two or more parts, and every variance. */
  state: z.enum(MERGE_STATES, { message: `state must be one of ${MERGE_STATES.join(', ')}` }).optional(),
});

export const mergeResponse = z.object({ stock_count_id: z.number().int(), lines: z.array(mergeLineRow) }).meta({ id: 'StockCountMerge' });
export type MergeResponse = z.infer<typeof mergeResponse>;

export const resolveLineBody = z
  .discriminatedUnion(
    'action',
    [
      z.object({ stockCountId: id('stockCountId'), materialCountId: id('materialCountId'), action: z.literal('take'), partId: id('partId') }).strict(),
      z.object({ stockCountId: id('stockCountId'), materialCountId: id('materialCountId'), action: z.literal('recount') }).strict(),
    ],
    { error: 'send action "take" with the partId whose quantity to take, or action "recount"' },
  )
  .meta({ id: 'ResolveStockCountLine' });
export type ResolveLineBody = z.infer<typeof resolveLineBody>;

/** Submit refused (409): parts still open (confirm them with confirmOpenParts=true), or variances to resolve. */
export const submitConflict = z
  .object({ message: z.string(), open_parts: z.array(stockCountPartRow).optional(), variances: z.array(mergeLineRow).optional() })
  .meta({ id: 'StockCountSubmitConflict' });
