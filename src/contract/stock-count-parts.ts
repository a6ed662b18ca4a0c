/**
 * #18 several counters on one stock count (decision 0033): the split of a count into parts, each
 * counted by one person; each counter's quantities; "my part is done"; the merge of lines counted
 * twice and the planner's resolution. Paths under /api/v2/my_stock_count (server/routes/stock/stock-count-parts.ts).
 */
import { z } from './zod';
import { countedQuantity, repeated } from './common';
import { STOCK_COUNT_STATUSES } from '../domain/constants';
import { MERGE_STATES, PART_STATUSES } from '../domain/stock-count-parts';

const id = (name: string) => z.number({ message: `${name} must be a number` }).check(z.int(`${name} must be a whole number`), z.positive(`${name} must be positive`));
const queryId = (name: string) =>
  z.coerce.number({ message: `${name} must be a number` }).check(z.int(`${name} must be a whole number`), z.positive(`${name} must be positive`));
const materialCode = z.string().check(z.trim(), z.minLength(1, 'a material code must not be empty'), z.maxLength(40));

const binRange = z
  .strictObject({
    from: z.string().check(z.trim(), z.minLength(1, 'bins.from is required'), z.maxLength(40)),
    to: z.string().check(z.trim(), z.minLength(1, 'bins.to is required'), z.maxLength(40)),
  })
  .check(z.refine((range) => range.from.toUpperCase() <= range.to.toUpperCase(), 'bins.from must not come after bins.to'));

/** One part of a split: who counts it, and its lines by bin range, by picked material, or "the rest". */
export const partSpec = z
  .strictObject({
    counter: z.string().check(z.trim(), z.email('counter must be an e-mail address')),
    label: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(120))),
    /** Lines whose bin lies in one of these ranges (inclusive, case-insensitive). */
    bins: z.optional(z.array(binRange).check(z.maxLength(50))),
    /** Lines picked by material code. */
    materialCodes: z.optional(z.array(materialCode).check(z.maxLength(5000))),
    /** Every line no other part takes (at most one part). */
    rest: z.optional(z.boolean()),
  })
  .check(
    z.refine((part) => (part.bins?.length ?? 0) > 0 || (part.materialCodes?.length ?? 0) > 0 || part.rest === true, 'each part needs bins, materialCodes or rest: true'),
  );
export type PartSpec = z.infer<typeof partSpec>;

/** The split as create and edit send it. */
export const splitFields = {
  parts: z
    .array(partSpec)
    .check(
      z.minLength(1, 'parts must list at least one part'),
      z.maxLength(50, 'parts may list at most 50 parts'),
      z.refine((parts) => new Set(parts.map((part) => part.counter.toLowerCase())).size === parts.length, 'a person counts one part of a count: parts lists a counter twice'),
      z.refine((parts) => parts.filter((part) => part.rest).length <= 1, 'only one part can take the rest'),
    ),
  /** Material codes deliberately put in two or more parts: a control count. Any other overlap is refused. */
  controlMaterialCodes: z.optional(z.array(materialCode).check(z.maxLength(5000))),
};

export const splitStockCountBody = z
  .strictObject({
    stockCountId: id('stockCountId'),
    ...splitFields,
    /** Blind count: counters get no book quantity. Changeable only before anything is counted. */
    blind: z.optional(z.boolean()),
    /**
     * The ids of the parts the planner started from (empty: the count was not split): other parts
     * now are a 409 (code splitChangedMeanwhile) instead of a split replaced unseen. Optional: other
     * clients may leave it out.
     */
    expectedPartIds: z.optional(z.array(id('expectedPartIds')).check(z.maxLength(50, 'expectedPartIds may list at most 50 parts'))),
    /**
     * The split_revision the planner's form was read from: lines moved between the same parts, a
     * counter or a label changed since are a 409 (splitChangedMeanwhile) too. Optional.
     */
    expectedSplitRevision: z.optional(z.string().check(z.maxLength(64, 'expectedSplitRevision must be 64 characters or less'))),
  })
  .register(z.globalRegistry, { id: 'SplitStockCount' });
export type SplitStockCountBody = z.infer<typeof splitStockCountBody>;

export const stockCountPartRow = z
  .object({
    id: z.int(),
    stock_count_id: z.int(),
    counter: z.string(),
    counter_name: z.nullable(z.string()),
    label: z.nullable(z.string()),
    status: z.enum(PART_STATUSES),
    done_at: z.nullable(z.string()),
    total_lines: z.int(),
    counted_lines: z.int(),
    /** Lines this part shares with another part (control count). */
    control_lines: z.int(),
    is_mine: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'StockCountPart' });
export type StockCountPartRow = z.infer<typeof stockCountPartRow>;

export const stockCountPartsQuery = z.object({ stockCountId: queryId('stockCountId') });

/** Progress per counter. Everyone who sees the count sees it (no quantities). */
export const stockCountPartsResponse = z
  .object({
    stock_count_id: z.int(),
    status: z.enum(STOCK_COUNT_STATUSES),
    is_blind: z.boolean(),
    parts: z.array(stockCountPartRow),
    total_lines: z.int(),
    /** Lines of the count in no part (added after the split): they need a part before submit. */
    lines_in_no_part: z.int(),
    variance_lines: z.int(),
    /** The split as it stands (its parts and their lines), for a save to name (expectedSplitRevision). Optional: services without it leave it out. */
    split_revision: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'StockCountParts' });
export type StockCountParts = z.infer<typeof stockCountPartsResponse>;

export const partLineRow = z
  .object({
    material_count_id: z.int(),
    material_code: z.string(),
    material_description_english: z.string(),
    unit: z.string(),
    bin: z.nullable(z.string()),
    /** This part's counted quantity (not the count's merged one). */
    quantity: z.nullable(z.number()),
    counted_by: z.nullable(z.string()),
    counted_at: z.nullable(z.string()),
    /** This part line's version: send it back with a change; a stale one whose value differs is a 409. */
    version: z.int(),
    /** Null for counters of a blind count. */
    book_quantity: z.nullable(z.number()),
    book_quantity_at: z.nullable(z.string()),
    book_quantity_now: z.nullable(z.number()),
    /** Another part counts this line too (control count). */
    is_control: z.boolean(),
  })
  .register(z.globalRegistry, { id: 'StockCountPartLine' });
export type PartLineRow = z.infer<typeof partLineRow>;

export const partLinesQuery = z.object({
  stockCountId: queryId('stockCountId'),
  /** Planners: any part of the count. Counters: omit it (their own part), or their own part's id. */
  partId: z.optional(queryId('partId')),
});

export const partLinesResponse = z
  .object({
    stock_count: z.object({ id: z.int(), status: z.enum(STOCK_COUNT_STATUSES), is_blind: z.boolean() }),
    part: stockCountPartRow,
    lines: z.array(partLineRow),
    /**
     * The count's other material codes: in another part (part_id) or in none yet (null, a line a
     * planner added after the split). A scan of one of them tells the counter whose it is instead
     * of offering to add a line the server refuses. Optional: services without it leave it out.
     */
    elsewhere: z.optional(z.array(z.object({ material_code: z.string(), part_id: z.nullable(z.int()) }))),
    /** The whole split's revision when this part was read (as on StockCountParts). Optional. */
    split_revision: z.optional(z.string()),
  })
  .register(z.globalRegistry, { id: 'StockCountPartLines' });
export type PartLines = z.infer<typeof partLinesResponse>;
export type PartElsewhere = NonNullable<PartLines['elsewhere']>[number];

export const partQuantitiesBody = z
  .strictObject({
    stockCountId: id('stockCountId'),
    quantities: z
      .array(
        z.strictObject({
          materialCountId: id('materialCountId'),
          quantity: countedQuantity(),
          version: z.optional(z.int().check(z.gte(0))),
        }),
      )
      .check(
        z.minLength(1, 'quantities must list at least one line'),
        z.maxLength(1000, 'quantities may list at most 1000 lines'),
        z.refine((lines) => new Set(lines.map((line) => line.materialCountId)).size === lines.length, 'quantities lists a line twice'),
      ),
  })
  .register(z.globalRegistry, { id: 'StockCountPartQuantities' });
export type PartQuantitiesBody = z.infer<typeof partQuantitiesBody>;

export const partQuantitiesResponse = z
  .object({
    part: stockCountPartRow,
    lines: z.array(partLineRow),
    stock_count: z.object({ id: z.int(), status: z.enum(STOCK_COUNT_STATUSES) }),
  })
  .register(z.globalRegistry, { id: 'StockCountPartQuantitiesResult' });

export const partLineConflict = z.object({ message: z.string(), conflicts: z.array(partLineRow) }).register(z.globalRegistry, { id: 'StockCountPartLineConflict' });

export const partStatusBody = z
  .strictObject({ stockCountId: id('stockCountId'), status: z.enum(PART_STATUSES, { message: 'status must be done or open' }) })
  .register(z.globalRegistry, { id: 'StockCountPartStatus' });
export type PartStatusBody = z.infer<typeof partStatusBody>;

export const mergeLineRow = z
  .object({
    material_count_id: z.int(),
    material_code: z.string(),
    material_description_english: z.string(),
    unit: z.string(),
    state: z.enum(MERGE_STATES),
    /** The count's quantity for the line (null: not counted, or a variance not resolved). */
    quantity: z.nullable(z.number()),
    book_quantity: z.nullable(z.number()),
    counts: z.array(
      z.object({ part_id: z.int(), counter: z.string(), quantity: z.nullable(z.number()), counted_by: z.nullable(z.string()), counted_at: z.nullable(z.string()) }),
    ),
    resolved_part_id: z.nullable(z.int()),
    resolved_by: z.nullable(z.string()),
    /** The decider's display name (null: none on record; show resolved_by). */
    resolved_by_name: z.nullable(z.string()),
    resolved_at: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'StockCountMergeLine' });
export type MergeLineRow = z.infer<typeof mergeLineRow>;

export const mergeQuery = z.object({
  stockCountId: queryId('stockCountId'),
  /** Only the lines in this state (e.g. variance); default: lines counted by two or more parts, and every variance. */
  state: z.optional(z.enum(MERGE_STATES, { message: `state must be one of ${MERGE_STATES.join(', ')}` })),
});

export const mergeResponse = z.object({ stock_count_id: z.int(), lines: z.array(mergeLineRow) }).register(z.globalRegistry, { id: 'StockCountMerge' });
export type MergeResponse = z.infer<typeof mergeResponse>;

/**
 * The line's decision the planner was shown (resolved_part_id; null: not decided): another one now
 * (another planner's Take or Send to recount) is a 409 (mergeDecidedMeanwhile) instead of that
 * decision overridden unseen (decision 0068). Optional: older clients leave it out.
 */
const expectedResolvedPartId = z.optional(z.nullable(id('expectedResolvedPartId')));

export const resolveLineBody = z
  .discriminatedUnion(
    'action',
    [
      z.strictObject({
        stockCountId: id('stockCountId'),
        materialCountId: id('materialCountId'),
        action: z.literal('take'),
        partId: id('partId'),
        /**
         * The counter's quantity the planner was shown: another one now is a 409
         * (mergeChangedMeanwhile) instead of a quantity booked unseen. Optional: older clients leave it out.
         */
        expectedQuantity: z.optional(z.number({ message: 'expectedQuantity must be a number' })),
        expectedResolvedPartId,
      }),
      z.strictObject({
        stockCountId: id('stockCountId'),
        materialCountId: id('materialCountId'),
        action: z.literal('recount'),
        /** Each counter's quantity the planner was shown: any other now is a 409 (mergeRecountChangedMeanwhile). Optional. */
        expectedCounts: z.optional(
          z.array(z.strictObject({ partId: id('partId'), quantity: z.nullable(z.number({ message: 'expectedCounts.quantity must be a number or null' })) })).check(z.maxLength(50)),
        ),
        expectedResolvedPartId,
      }),
    ],
    { error: 'send action "take" with the partId whose quantity to take, or action "recount"' },
  )
  .register(z.globalRegistry, { id: 'ResolveStockCountLine' });
export type ResolveLineBody = z.infer<typeof resolveLineBody>;

/**
 * The open parts a planner was shown when confirming them (`openPartIds` of GET
 * /my_stock_count/submit, repeated keys, with confirmOpenParts=true): a part open now that is not
 * among them is refused (409, code openPartsChangedMeanwhile) instead of confirmed unseen.
 */
export const openPartIdsParam = z.optional(repeated(queryId('openPartIds')));

/** Submit refused (409): parts still open (confirm them with confirmOpenParts=true), or variances to resolve. */
export const submitConflict = z
  .object({
    message: z.string(),
    /** openPartsChangedMeanwhile: the open parts are not those confirmed (open_parts lists them as they are). */
    code: z.optional(z.string()),
    params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
    open_parts: z.optional(z.array(stockCountPartRow)),
    variances: z.optional(z.array(mergeLineRow)),
  })
  .register(z.globalRegistry, { id: 'StockCountSubmitConflict' });
