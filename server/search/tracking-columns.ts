/**
 * The data of the tracking search index (tracking-index.ts) in columns: orders and items as slots
 * in typed arrays, every text value interned once (lower case) in a value table whose values also
 * sit in one contiguous string. A search then costs one `indexOf` walk over that string per free
 * term (which values contain it), and one pass over the orders with integer compares — no object
 * per item, nothing scattered over the heap. The §5 rules are those of tracking.ts (termSql,
 * fieldTermSql, trackingScope, arrivedSql), applied in memory; a test holds both to the same answers.
 *
 * Orders are replaced, not edited: a changed order gets new slots (its old ones are dead) and the
 * list newest-first is merged again. Values are never removed from a table: the index is built
 * anew once dead slots outnumber live ones (tracking-index.ts).
 */
import { findField, type SearchFieldKey, type SearchTerm } from '../../src/domain/search-language';
import type { TrackingFilter } from '../../src/domain/tracking';

/** Who may see which order (tracking.ts scopeParts): `plants` undefined is every plant. */
export interface IndexScope {
  plants?: string[];
  narrowers: { plant: string; kind: 'work_center' | 'planner_group'; code: string }[];
  shipTo: string[];
  email: string;
}

export interface IndexQuery {
  scope: IndexScope;
  /** "My orders": only orders addressed to this e-mail. */
  mine: string | null;
  terms: SearchTerm[];
  status: TrackingFilter;
  offset: number;
  limit: number;
}

export interface IndexAnswer {
  counts: { total: number; arrived: number; incoming: number; actionPoint: number };
  /** The page's order ids, newest change first. */
  ids: string[];
  /** The ids of the page's items that match (search and tab): the rows the page shows. */
  itemIds: number[];
}

/**
 * An order as read for the index (tracking-index.ts reads them as JSON arrays, several times faster
 * than rows of columns): id, updated_at in microseconds since the epoch, plant, work center,
 * planner group, ship-to party, user e-mail, service order, equipment code, equipment
 * description, destination.
 */
export type OrderRow = [
  id: string,
  updatedUs: number,
  plant: string,
  workCenter: string | null,
  plannerGroup: string | null,
  shipToParty: string | null,
  userEmail: string | null,
  serviceOrder: string | null,
  equipmentCode: string | null,
  equipmentDescription: string | null,
  destination: string | null,
];

/** An item as read for the index: its order, the §5 columns, the delivery date, §4 arrived, at an access point. */
export type ItemRow = [
  orderId: string,
  materialCode: string | null,
  materialDescription: string | null,
  reservationDocNumber: string | null,
  purchaseOrderDocNumber: string | null,
  salesOrderDocNumber: string | null,
  deliveryOrderDocNumber: string | null,
  trackingNumber: string | null,
  storageLocation: string | null,
  deliveryStatus: string | null,
  deliveryDate: string | null,
  arrived: boolean,
  actionPoint: boolean | null,
  id: number,
];

/** An order with its items, as put into the columns. */
export interface OrderWithItems {
  row: OrderRow;
  items: ItemRow[];
}

/** Newest change first, then the larger id (the list's `order by updated_at desc, id desc`). */
function newestFirst(a: OrderWithItems, b: OrderWithItems): number {
  return b.row[1] - a.row[1] || (a.row[0] < b.row[0] ? 1 : a.row[0] > b.row[0] ? -1 : 0);
}

/** The id of a null value in every column. */
const NULL = -1;
/** A null date. */
const NO_DATE = -0x80000000;
/** Between two values of the contiguous text: PostgreSQL text never holds NUL, a term neither. */
const BETWEEN = '\0';

/** A typed array that grows (Int32Array or Float64Array). */
class Column<A extends Int32Array | Float64Array> {
  data: A;
  length = 0;
  readonly #make: (length: number) => A;
  constructor(make: (length: number) => A) {
    this.#make = make;
    this.data = make(1024);
  }
  push(value: number): number {
    if (this.length === this.data.length) {
      const next = this.#make(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = value;
    return this.length++;
  }
}
const ints = () => new Column((length) => new Int32Array(length));
const floats = () => new Column((length) => new Float64Array(length));

/**
 * Distinct strings with an id each, and all of them in one string (NUL between two), so "which
 * values contain this term" is an indexOf walk over contiguous memory.
 */
class ValueTable {
  readonly #ids = new Map<string, number>();
  readonly values: string[] = [];
  /** Where each value starts in the contiguous text. */
  readonly #starts = ints();
  #text = '';
  #pending: string[] = [];
  #end = 0;
  /** Values added after the build (see #collect). */
  #tail = '';
  /** How many values the main text holds once sealed; -1 while building. */
  #sealedCount = -1;

  get size(): number {
    return this.values.length;
  }

  /** About how many bytes it holds: each value twice (alone and in the text), its map entry and start. */
  get bytes(): number {
    return this.#end * 2 + this.values.length * 48 + this.#starts.data.byteLength;
  }

  id(value: string | null): number {
    if (value === null) return NULL;
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.#ids.set(value, id);
      this.#starts.push(this.#end);
      this.#pending.push(value);
      this.#end += value.length + 1;
    }
    return id;
  }

  /** The id of a value already present, or -2 (no value has it). */
  find(value: string): number {
    return this.#ids.get(value) ?? -2;
  }

  /**
   * The values added so far, into the text: while building, into the main text (flattened once by
   * seal()); after it, into a tail of their own, so a value added by a change does not make the
   * next search copy the whole main text to flatten it again.
   */
  #collect(): void {
    if (this.#pending.length === 0) return;
    const added = this.#pending.join(BETWEEN) + BETWEEN;
    this.#pending = [];
    if (this.#sealedCount < 0) this.#text += added;
    else this.#tail += added;
  }

  /** Adds what was put so far to the main text (in slices while building: no long pause at the end). */
  collect(): void {
    this.#collect();
  }

  /** Ends the build: the main text becomes one flat string, later values go to the tail. */
  seal(): void {
    this.#collect();
    // indexOf over a string built by concatenation flattens it first: done here, once.
    this.#text.indexOf(BETWEEN);
    this.#sealedCount = this.values.length;
  }

  /**
   * Which values contain `term`, as a bit set (bit `id`): small enough to stay in the processor's
   * cache while the orders are walked, where a byte per value would not.
   */
  containing(term: string): Uint32Array {
    this.#collect();
    const count = this.values.length;
    const hits = new Uint32Array((count >>> 5) + 1);
    const main = this.#sealedCount < 0 ? count : this.#sealedCount;
    this.#walk(this.#text, 0, 0, main, term, hits);
    if (main < count) this.#walk(this.#tail, this.#starts.data[main]!, main, count, term, hits);
    return hits;
  }

  /** Marks the values [first, end) found in `text` (whose position 0 is offset `shift` of the starts). */
  #walk(text: string, shift: number, first: number, end: number, term: string, hits: Uint32Array): void {
    const starts = this.#starts.data;
    let from = 0;
    let low = first;
    for (;;) {
      const found = text.indexOf(term, from);
      if (found < 0) return;
      const at = found + shift;
      // The value holding `at`: the last start at or before it (binary search past the last hit).
      let high = end - 1;
      while (low < high) {
        const mid = (low + high + 1) >>> 1;
        if (starts[mid]! <= at) low = mid;
        else high = mid - 1;
      }
      hits[low >>> 5]! |= 1 << (low & 31);
      if (low + 1 >= end) return;
      from = starts[low + 1]! - shift;
      low += 1;
    }
  }
}

/** 'yyyy-mm-dd' (a longer year, ' AD' or ' BC' after it) as a number that orders like the date. */
function dateNumber(value: string | null): number {
  if (value === null) return NO_DATE;
  const match = /^(\d+)-(\d\d)-(\d\d)(?: (AD|BC))?$/.exec(value);
  if (!match) return NO_DATE;
  const n = Number(match[1]) * 10_000 + Number(match[2]) * 100 + Number(match[3]);
  return match[4] === 'BC' ? -n : n;
}

/** Is bit `id` set? */
const has = (bits: Uint32Array, id: number) => ((bits[id >>> 5]! >>> (id & 31)) & 1) === 1;

const lower = (value: string | null) => (value === null ? null : value.toLowerCase());

/** The item columns, in the order of ITEM_FREE_TEXT (first seven) then the other field columns. */
const ITEM_FIELDS = {
  material: 0,
  materialDescription: 1,
  purchaseOrder: 3,
  salesOrder: 4,
  deliveryOrder: 5,
  trackingNumber: 6,
  storageLocation: 7,
  delivery: 8,
} as const satisfies Partial<Record<SearchFieldKey, number>>;
/** §5 free text on items: material, description, reservation, PO, SO, DO, tracking number (tracking.ts FREE_TEXT_COLUMNS). */
const ITEM_FREE_TEXT = 7;
const ITEM_COLUMNS = 9;

const ORDER_FIELDS = {
  serviceOrder: 0,
  plant: 1,
  plannerGroup: 2,
  equipment: 3,
  equipmentDescription: 4,
  workCenter: 5,
  userEmail: 6,
} as const satisfies Partial<Record<SearchFieldKey, number>>;
/** §5 free text on orders: id, equipment code, equipment description, destination. */
const ORDER_FREE_TEXT = [7, 3, 4, 8] as const;
/** After the 9 value columns of an order: its scope codes as written. */
const CODE_PLANT = 9;
const CODE_WORK_CENTER = 10;
const CODE_PLANNER_GROUP = 11;
const CODE_SHIP_TO = 12;
const CODE_EMAIL = 13;
const ORDER_STRIDE = 14;

type Test = (id: number) => boolean;

export class TrackingColumns {
  /** Lower-case values of every searchable column. */
  readonly #values = new ValueTable();
  /** The scope's codes as written (plants, work centers, planner groups, ship-to parties, e-mails). */
  readonly #codes = new ValueTable();

  readonly #orderIds: string[] = [];
  readonly #updatedUs = floats();
  /** Per order slot (ORDER_STRIDE): 9 value ids (ORDER_FIELDS, id, destination), then the 5 scope codes. */
  readonly #orderCols = ints();
  readonly #itemStart = ints();
  readonly #itemEnd = ints();
  readonly #slotOf = new Map<string, number>();

  /** Per item slot: ITEM_COLUMNS value ids. */
  readonly #itemCols = ints();
  readonly #dates = ints();
  /** Per item slot: 1 arrived (§4), 2 at an access point. */
  readonly #flags = ints();
  /** Per item slot: the item's id (order_items.id). */
  readonly #itemIds = floats();
  #deadItems = 0;
  /** The most items one order has had. */
  #widest = 0;

  /** Live order slots, newest change first. */
  #sorted = new Int32Array(0);

  get orders(): number {
    return this.#slotOf.size;
  }

  get items(): number {
    return this.#itemCols.length / ITEM_COLUMNS - this.#deadItems;
  }

  /** About how many bytes the columns hold (typed arrays, values, ids of orders). */
  get bytes(): number {
    const arrays = [this.#updatedUs, this.#orderCols, this.#itemStart, this.#itemEnd, this.#itemCols, this.#dates, this.#flags, this.#itemIds];
    return (
      arrays.reduce((sum, array) => sum + array.data.byteLength, 0) +
      this.#sorted.byteLength +
      this.#values.bytes +
      this.#codes.bytes +
      this.#orderIds.length * 64
    );
  }

  /** Slots no longer live: worth building anew when they outnumber the live ones. */
  get dead(): number {
    return this.#orderIds.length - this.#slotOf.size + this.#deadItems;
  }

  /** Adds the values put so far to the contiguous text (in slices while building: no long pause at the end). */
  collect(): void {
    this.#values.collect();
  }

  /** Ends the build: the text becomes one flat string; values added by later changes go to a tail. */
  prepare(): void {
    this.#values.seal();
  }

  /** Adds orders (with their items) and puts them in order; an order already held is replaced. */
  put(orders: OrderWithItems[]): void {
    const fresh: number[] = [];
    const replaced = new Set<number>();
    // Slots are given newest first, the order searches walk them in: memory is read in sequence.
    for (const { row, items } of [...orders].sort(newestFirst)) {
      const old = this.#slotOf.get(row[0]);
      if (old !== undefined) {
        replaced.add(old);
        this.#deadItems += this.#itemEnd.data[old]! - this.#itemStart.data[old]!;
      }
      fresh.push(this.#add(row, items));
    }
    this.#merge(replaced, fresh);
  }

  /** Removes orders that are gone. */
  remove(ids: Iterable<string>): void {
    const removed = new Set<number>();
    for (const id of ids) {
      const slot = this.#slotOf.get(id);
      if (slot === undefined) continue;
      removed.add(slot);
      this.#slotOf.delete(id);
      this.#deadItems += this.#itemEnd.data[slot]! - this.#itemStart.data[slot]!;
    }
    if (removed.size > 0) this.#merge(removed, []);
  }

  #add(row: OrderRow, items: ItemRow[]): number {
    const [id, updatedUs, plant, workCenter, plannerGroup, shipToParty, userEmail, serviceOrder, equipmentCode, equipmentDescription, destination] = row;
    const slot = this.#orderIds.length;
    this.#orderIds.push(id);
    this.#slotOf.set(id, slot);
    this.#updatedUs.push(updatedUs);
    const v = (value: string | null) => this.#values.id(lower(value));
    const c = (value: string | null) => this.#codes.id(value);
    const cols = this.#orderCols;
    // ORDER_FIELDS, then the order's id and destination (free text), then the scope codes.
    for (const value of [serviceOrder, plant, plannerGroup, equipmentCode, equipmentDescription, workCenter, userEmail, id, destination]) cols.push(v(value));
    for (const value of [plant, workCenter, plannerGroup, shipToParty, userEmail]) cols.push(c(value));
    this.#itemStart.push(this.#dates.length);
    const itemCols = this.#itemCols;
    for (const item of items) {
      // ITEM_FIELDS: the seven free-text columns (index 1–7 of the row), storage location, delivery status.
      for (let column = 1; column <= ITEM_COLUMNS; column += 1) itemCols.push(v(item[column] as string | null));
      this.#dates.push(dateNumber(item[10]));
      this.#flags.push((item[11] ? 1 : 0) | (item[12] === true ? 2 : 0));
      this.#itemIds.push(item[13]);
    }
    this.#itemEnd.push(this.#dates.length);
    this.#widest = Math.max(this.#widest, items.length);
    return slot;
  }

  /** Newest change first, then the larger id (the list's `order by updated_at desc, id desc`). */
  #before(a: number, b: number): number {
    const updated = this.#updatedUs.data;
    const ids = this.#orderIds;
    return updated[b]! - updated[a]! || (ids[a]! < ids[b]! ? 1 : ids[a]! > ids[b]! ? -1 : 0);
  }

  #merge(dropped: Set<number>, added: number[]): void {
    const order = (a: number, b: number) => this.#before(a, b);
    added.sort(order);
    const kept = dropped.size > 0 ? this.#sorted.filter((slot) => !dropped.has(slot)) : this.#sorted;
    const out = new Int32Array(kept.length + added.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < kept.length && j < added.length) out[k++] = order(kept[i]!, added[j]!) <= 0 ? kept[i++]! : added[j++]!;
    while (i < kept.length) out[k++] = kept[i++]!;
    while (j < added.length) out[k++] = added[j++]!;
    this.#sorted = out;
  }

  /** A field term as a test of a value id (or a date number): tracking.ts fieldTermSql in memory. */
  #fieldTest(term: Exclude<SearchTerm, { type: 'free' }>, containing: (term: string) => Uint32Array): Test {
    const kind = findField(term.field)?.kind;
    const { operator } = term;
    if (kind === 'date') {
      const wanted = dateNumber(term.value);
      if (operator === '=') return (d) => d !== NO_DATE && d === wanted;
      if (operator === '!=') return (d) => d === NO_DATE || d !== wanted;
      if (wanted === NO_DATE) return () => false;
      if (operator === '>') return (d) => d !== NO_DATE && d > wanted;
      if (operator === '<') return (d) => d !== NO_DATE && d < wanted;
      if (operator === '>=') return (d) => d !== NO_DATE && d >= wanted;
      return (d) => d !== NO_DATE && d <= wanted;
    }
    const wanted = term.value.toLowerCase();
    if (kind === 'text' && (operator === '=' || operator === '!=')) {
      // "contains" / "does not contain"
      const hits = containing(wanted);
      return operator === '=' ? (id) => id !== NULL && has(hits, id) : (id) => id === NULL || !has(hits, id);
    }
    if (operator === '=') {
      const found = this.#values.find(wanted);
      return (id) => id === found;
    }
    if (operator === '!=') {
      const found = this.#values.find(wanted);
      return (id) => id !== found;
    }
    const values = this.#values.values;
    if (operator === '>') return (id) => id !== NULL && values[id]! > wanted;
    if (operator === '<') return (id) => id !== NULL && values[id]! < wanted;
    if (operator === '>=') return (id) => id !== NULL && values[id]! >= wanted;
    return (id) => id !== NULL && values[id]! <= wanted;
  }

  /** The scope as a test of an order slot (tracking.ts trackingScope). */
  #scopeTest(scope: IndexScope): ((slot: number) => boolean) | null {
    if (!scope.plants) return null;
    const cols = this.#orderCols.data;
    const codes = this.#codes;
    const plants = new Set(scope.plants.map((plant) => codes.find(plant)));
    const shipTo = new Set(scope.shipTo.map((code) => codes.find(code)));
    const email = codes.find(scope.email);
    const narrowers = scope.narrowers.map((n) => ({ plant: codes.find(n.plant), column: n.kind === 'work_center' ? CODE_WORK_CENTER : CODE_PLANNER_GROUP, code: codes.find(n.code) }));
    return (slot) => {
      const base = slot * ORDER_STRIDE;
      const plant = cols[base + CODE_PLANT]!;
      if (plants.has(plant) && (narrowers.length === 0 || narrowers.some((n) => n.plant === plant && cols[base + n.column] === n.code))) return true;
      const ship = cols[base + CODE_SHIP_TO]!;
      return (ship !== NULL && shipTo.has(ship)) || cols[base + CODE_EMAIL] === email;
    };
  }

  /** Can the columns answer these terms? (A search field added later without a column here: no.) */
  static answers(terms: SearchTerm[]): boolean {
    return terms.every((term) => term.type === 'free' || term.field in ORDER_FIELDS || term.field in ITEM_FIELDS || term.field === 'deliveryDate');
  }

  match(query: IndexQuery): IndexAnswer {
    const hitCache = new Map<string, Uint32Array>();
    const containing = (term: string) => {
      let hits = hitCache.get(term);
      if (!hits) hitCache.set(term, (hits = this.#values.containing(term)));
      return hits;
    };
    const free: Uint32Array[] = [];
    const orderTests: { column: number; test: Test }[] = [];
    const itemTests: { column: number; test: Test }[] = [];
    for (const term of query.terms) {
      if (term.type === 'free') free.push(containing(term.value.toLowerCase()));
      else if (term.field in ORDER_FIELDS) orderTests.push({ column: ORDER_FIELDS[term.field as keyof typeof ORDER_FIELDS], test: this.#fieldTest(term, containing) });
      else if (term.field === 'deliveryDate') itemTests.push({ column: -1, test: this.#fieldTest(term, containing) });
      else itemTests.push({ column: ITEM_FIELDS[term.field as keyof typeof ITEM_FIELDS], test: this.#fieldTest(term, containing) });
    }
    const inScope = this.#scopeTest(query.scope);
    const mine = query.mine === null ? null : this.#codes.find(query.mine);

    const sorted = this.#sorted;
    const orderCols = this.#orderCols.data;
    const itemCols = this.#itemCols.data;
    const dates = this.#dates.data;
    const flags = this.#flags.data;
    const itemIds = this.#itemIds.data;
    /** The matching items of the order at hand, and their number. */
    const matched = new Int32Array(Math.max(16, this.#widest));
    const pageItems: number[] = [];
    const starts = this.#itemStart.data;
    const ends = this.#itemEnd.data;
    const inOrderText = new Uint8Array(free.length);
    const counts = { total: 0, arrived: 0, incoming: 0, actionPoint: 0 };
    const ids: string[] = [];
    const { status, offset, limit } = query;
    let position = 0;

    orders: for (let r = 0; r < sorted.length; r += 1) {
      const slot = sorted[r]!;
      const base = slot * ORDER_STRIDE;
      if (mine !== null && orderCols[base + CODE_EMAIL] !== mine) continue;
      if (inScope && !inScope(slot)) continue;
      for (const { column, test } of orderTests) if (!test(orderCols[base + column]!)) continue orders;
      for (let k = 0; k < free.length; k += 1) {
        const hits = free[k]!;
        let found = 0;
        for (const column of ORDER_FREE_TEXT) {
          const id = orderCols[base + column]!;
          if (id !== NULL && has(hits, id)) {
            found = 1;
            break;
          }
        }
        inOrderText[k] = found;
      }
      let any = 0;
      let arrived = false;
      let incoming = false;
      let actionPoint = false;
      items: for (let item = starts[slot]!, end = ends[slot]!; item < end; item += 1) {
        const at = item * ITEM_COLUMNS;
        for (let k = 0; k < free.length; k += 1) {
          if (inOrderText[k] === 1) continue;
          const hits = free[k]!;
          let found = false;
          for (let column = 0; column < ITEM_FREE_TEXT; column += 1) {
            const id = itemCols[at + column]!;
            if (id !== NULL && has(hits, id)) {
              found = true;
              break;
            }
          }
          if (!found) continue items;
        }
        for (const { column, test } of itemTests) if (!test(column < 0 ? dates[item]! : itemCols[at + column]!)) continue items;
        matched[any++] = item;
        const flag = flags[item]!;
        if (flag & 1) arrived = true;
        else incoming = true;
        if (flag & 2) actionPoint = true;
      }
      if (any === 0) continue;
      counts.total += 1;
      if (arrived) counts.arrived += 1;
      if (incoming) counts.incoming += 1;
      if (actionPoint) counts.actionPoint += 1;
      if (status === 'all' || (status === 'arrived' ? arrived : incoming)) {
        if (position >= offset && ids.length < limit) {
          ids.push(this.#orderIds[slot]!);
          // The tab's items of it: every matching one, or those (not) arrived.
          for (let m = 0; m < any; m += 1) {
            const item = matched[m]!;
            if (status === 'all' || (status === 'arrived') === ((flags[item]! & 1) === 1)) pageItems.push(itemIds[item]!);
          }
        }
        position += 1;
      }
    }
    return { counts, ids, itemIds: pageItems };
  }
}
