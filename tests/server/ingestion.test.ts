/**
 * ERP file ingestion (#9) on PGlite and PostgreSQL: the four formats applied for real, bad files
 * that change nothing but their own row (errors with line numbers), duplicates, a process dying
 * mid-file, two processes on one PostgreSQL, the schedule's missing slots, and the upload call.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { openDatabase, rowsOf, type Database, type Db } from '../../server/db/client';
import { fileProcessing, notifications, orderItems, orders, parcelEvents, stockItems, users, materials } from '../../server/db/schema';
import { claimNext, processClaimed, processPending, registerFile, sweepMissing } from '../../server/ingestion/queue';
import { DEFAULT_SCHEDULE } from '../../server/ingestion/schedule';
import { bearer, createScratchDatabase, createTestProduct, ENGINES, type TestProduct } from './harness';
import { providedTemplates, seedTestData } from './template';

const csv = (fields: string[], rows: Array<Array<string | number>>) => `${Papa.unparse({ fields, data: rows }, { newline: '\n' })}\n`;
let fileCounter = 0;
/** A fresh slot-free file name per test: a date far from the seed's 30 days. */
const nameFor = (type: string, part = 'MORNING') => `ERP_${type}_2030${String(1 + (fileCounter % 12)).padStart(2, '0')}${String(1 + (Math.floor(fileCounter++ / 12) % 28)).padStart(2, '0')}_${part}.csv`;

const ORDER_FIELDS = ['service_order', 'line_number', 'plant', 'material_code', 'material_description', 'unit', 'user_email', 'reservation_quantity', 'delivery_date'];

async function count(db: Db, table: typeof orders | typeof orderItems | typeof parcelEvents | typeof materials | typeof stockItems | typeof fileProcessing | typeof notifications): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table);
  return row!.n;
}

/**
 * Claims and processes the next waiting file inside a transaction of the test's, which reads the
 * rows inserted into and updated in `orders` before and after (the statistics may also hold
 * earlier transactions' counts not yet flushed, hence the difference within one transaction).
 */
async function orderWritesOfNextFile(db: Db): Promise<{ ins: number; upd: number }> {
  return db.transaction(async (tx) => {
    const counters = async () =>
      rowsOf<{ ins: number; upd: number }>(
        await tx.execute(sql`select n_tup_ins::int as ins, n_tup_upd::int as upd from pg_stat_xact_user_tables where relname = 'orders'`),
      )[0]!;
    const before = await counters();
    const claimed = await claimNext(tx, { workerId: 'test-worker', leaseSeconds: 60 });
    const row = await processClaimed(tx, claimed!.id, { workerId: 'test-worker' });
    expect(row).toMatchObject({ status: 'processed', errors: [] });
    const after = await counters();
    return { ins: after.ins - before.ins, upd: after.upd - before.upd };
  });
}

async function ingest(db: Db, fileName: string, content: string) {
  const { file, duplicate } = await registerFile(db, { fileName, content, source: 'inbox' });
  const done = await processPending(db, { workerId: 'test-worker', leaseSeconds: 60 });
  const [row] = await db.select().from(fileProcessing).where(eq(fileProcessing.id, file.id));
  return { row: row!, duplicate, done };
}

describe.each(ENGINES)('ERP ingestion on %s', (engine) => {
  let product: TestProduct;
  const db = () => product.database.db;

  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => {
    await product?.close();
  });

  it('seeds 30 days of file rows through the real pipeline, errors with line numbers included', async () => {
    const rows = await db().select().from(fileProcessing);
    expect(new Set(rows.map((r) => r.businessDate)).size).toBe(30);
    const errored = rows.filter((r) => r.status === 'errored');
    expect(errored.length).toBeGreaterThan(0);
    for (const row of errored) {
      const errors = row.errors as Array<{ line: number | null; message: string }>;
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((e) => typeof e.line === 'number' && e.line > 1)).toBe(true);
    }
    expect(rows.filter((r) => r.status === 'processed').every((r) => (r.lineCount ?? 0) > 1 && r.source === 'seed')).toBe(true);
    expect(rows.some((r) => r.status === 'missing' && r.checksum === null)).toBe(true);
  });

  it('applies an ORDERS file: new orders and items, changed items, in one go', async () => {
    const before = await count(db(), orderItems);
    const content = csv(ORDER_FIELDS, [
      ['4999000001', 10, 'FI01', 'MAT-NEW-1', 'Door roller 60 mm', 'PC', 'mechanic@example.com', '2', '2030-01-10'],
      // The mechanic's address as an ERP may write it: stored lower-case, as signed-in users' are.
      ['4999000001', 20, 'FI01', 'MAT-NEW-2', 'Landing door contact', 'PC', 'Mechanic@Example.COM', '1.5', ''],
      ['4999000002', 10, 'DE02', 'MAT-NEW-3', 'Traction sheave "K8"; cast', 'PC', '', '', ''],
    ]);
    const { row } = await ingest(db(), nameFor('ORDERS'), content);
    expect(row).toMatchObject({ status: 'processed', errors: [], lineCount: 4, source: 'inbox' });
    expect(row.startDate).not.toBeNull();
    expect(row.endDate).not.toBeNull();
    expect(await count(db(), orderItems)).toBe(before + 3);
    const items = await db().select().from(orderItems).where(eq(orderItems.orderId, '4999000001'));
    expect(items.map((i) => [i.lineNumber, i.reservationQuantity, i.deliveryDate])).toEqual(
      expect.arrayContaining([
        [10, '2', '2030-01-10'],
        [20, '1.5', null],
      ]),
    );
    // Compared with the signed-in user's address: "addressed to me", My orders, delivery notifications.
    expect((await db().select().from(orders).where(eq(orders.id, '4999000001')))[0]!.userEmail).toBe('mechanic@example.com');
    const [header] = await db().select().from(orders).where(eq(orders.id, '4999000002'));
    expect(header).toMatchObject({ plant: 'DE02', userEmail: null });
    const [sheave] = await db().select().from(orderItems).where(eq(orderItems.materialCode, 'MAT-NEW-3'));
    expect(sheave?.materialDescription).toBe('Traction sheave "K8"; cast');
  });

  it('writes a new order once, with the item summary and search text of its lines; an order that exists once more (migration 0020)', async () => {
    const fields = [
      'service_order', 'line_number', 'plant', 'material_code', 'material_description', 'unit', 'equipment_code', 'equipment_description', 'destination',
      'reservation_doc_number', 'purchase_order_doc_number', 'sales_order_doc_number', 'delivery_order_doc_number', 'goods_receipt_posted_at', 'purchase_order_goods_receipt_quantity',
    ];
    const first = await ingest(db(), nameFor('ORDERS'), csv(fields, [['4999100009', 10, 'FI01', 'MAT-E-1', 'Old part', 'PC', 'EQ-9', 'Escalator', 'Hall 9', '', '', '', '', '', '']]));
    expect(first.row.status).toBe('processed');
    const lines: Array<Array<string | number>> = [
      ['4999100001', 20, 'FI01', 'MAT-W-2', 'Ääniläpivienti STRAßE', 'PC', 'EQ-1', 'Kone MonoSpace', 'Pasila 1', 'R-1', 'PO-1', 'SO-1', 'DO-1', '', ''],
      ['4999100001', 10, 'FI01', 'MAT-W-1', 'Door roller', 'PC', 'EQ-1', 'Kone MonoSpace', 'Pasila 1', '', 'PO-2', '', '', '2030-01-02T10:00:00Z', ''],
      ['4999100001', 30, 'FI01', 'MAT-W-3', 'Rope', 'M', 'EQ-1', 'Kone MonoSpace', 'Pasila 1', '', '', '', '', '', '2'],
      ['4999100002', 10, 'DE02', 'MAT-W-4', 'Sheave', 'PC', '', '', '', '', '', '', '', '', ''],
      ['4999100009', 20, 'FI01', 'MAT-E-2', 'New part', 'PC', 'EQ-9', 'Escalator', 'Hall 9', '', '', '', '', '', ''],
    ];
    await registerFile(db(), { fileName: nameFor('ORDERS'), content: csv(fields, lines), source: 'inbox' });
    const writes = await orderWritesOfNextFile(db());
    // Two new orders inserted and never rewritten; the order that existed rewritten once (summary
    // and text together). Before: every order of the file three times (insert, summary, text).
    expect(writes).toEqual({ ins: 2, upd: 1 });

    const ids = ['4999100001', '4999100002', '4999100009'];
    const summaries = await db()
      .select({ id: orders.id, n: orders.itemCount, arrived: orders.arrivedItems, actionPoint: orders.actionPointItems })
      .from(orders)
      .where(inArray(orders.id, ids))
      .orderBy(orders.id);
    // Arrived (§4): a goods receipt posted (line 10) or a goods receipt quantity (line 30).
    expect(summaries).toEqual([
      { id: '4999100001', n: 3, arrived: 2, actionPoint: 0 },
      { id: '4999100002', n: 1, arrived: 0, actionPoint: 0 },
      { id: '4999100009', n: 2, arrived: 0, actionPoint: 0 },
    ]);
    // The text joined again from the raw rows, in line order (decision 0031), lower-cased by the database.
    const SEP = '\x1f';
    const texts = [];
    for (const order of await db().select().from(orders).where(inArray(orders.id, ids))) {
      const items = await db().select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.lineNumber);
      const own = [order.id, order.equipmentCode, order.equipmentDescription, order.destination].map((v) => v ?? '').join(SEP);
      const fromItems = items
        .map((i) => SEP + [i.materialCode, i.materialDescription, i.reservationDocNumber, i.purchaseOrderDocNumber, i.salesOrderDocNumber, i.deliveryOrderDocNumber, i.trackingNumber].map((v) => v ?? '').join(SEP))
        .join('');
      texts.push({ id: order.id, t: own + fromItems });
    }
    expect(texts.length).toBe(3);
    const stale = rowsOf<{ id: string }>(
      await db().execute(sql`select o.id from ${orders} o join jsonb_to_recordset(${JSON.stringify(texts)}::jsonb) as x(id text, t text) on x.id = o.id
        where o.search_text is distinct from lower(x.t)`),
    );
    expect(stale).toEqual([]);
    // The new order with items in and out of the arrived tab holds each tab's items' text, as its
    // items' trigger would write it (it wrote nothing: upd above); the others hold none (migration 0024).
    const tabs = await db()
      .select({ id: orders.id, arrived: orders.arrivedText, incoming: orders.incomingText, actionPoint: orders.actionPointText })
      .from(orders)
      .where(inArray(orders.id, ids))
      .orderBy(orders.id);
    expect(tabs).toEqual([
      { id: '4999100001', arrived: `${SEP}mat-w-1${SEP}door roller${SEP}${SEP}po-2${SEP}${SEP}${SEP}${SEP}mat-w-3${SEP}rope${SEP}${SEP}${SEP}${SEP}${SEP}`, incoming: `${SEP}mat-w-2${SEP}ääniläpivienti straße${SEP}r-1${SEP}po-1${SEP}so-1${SEP}do-1${SEP}`, actionPoint: null },
      { id: '4999100002', arrived: null, incoming: null, actionPoint: null },
      { id: '4999100009', arrived: null, incoming: null, actionPoint: null },
    ]);
  });

  it('writes an order once when a DELIVERIES line changes its item’s status and tracking number (migration 0021)', async () => {
    const [item] = await db()
      .select({ orderId: orderItems.orderId, lineNumber: orderItems.lineNumber, id: orderItems.id })
      .from(orderItems)
      .where(eq(orderItems.deliveryStatus, 'OnTheWay'))
      .orderBy(orderItems.id)
      .limit(1);
    expect(item).toBeDefined();
    const [before] = await db().select({ arrived: orders.arrivedItems }).from(orders).where(eq(orders.id, item!.orderId));
    const fields = ['service_order', 'line_number', 'tracking_number', 'carrier', 'event_status', 'event_description', 'occurred_at', 'event_location', 'delivery_status', 'delivery_date'];
    // A new tracking number (the order's search text) and Delivered (its arrived count), in one line.
    const content = csv(fields, [[item!.orderId, item!.lineNumber, 'JJFI0021NEW', 'Posti', 'Delivered', 'Delivered', '2026-11-21T09:00:00Z', 'Vantaa', 'Delivered', '2026-11-21']]);
    // Files still waiting (the seed's) first: the claims below take this test's own.
    await processPending(db(), { workerId: 'test-worker', leaseSeconds: 60 });
    await registerFile(db(), { fileName: nameFor('DELIVERIES'), content, source: 'inbox' });
    const { upd: writes } = await orderWritesOfNextFile(db());
    // Before: twice (the item summary's trigger, then the search text's).
    expect(writes).toBe(1);
    const [after] = await db().select({ arrived: orders.arrivedItems, text: orders.searchText }).from(orders).where(eq(orders.id, item!.orderId));
    expect(after!.arrived).toBe(before!.arrived + 1);
    expect(after!.text).toContain('jjfi0021new');

    // A scan that changes neither the summary nor the text (a later event of the same parcel) writes no order.
    const later = csv(fields, [[item!.orderId, item!.lineNumber, 'JJFI0021NEW', 'Posti', 'Delivered', 'Signed for', '2026-11-21T09:05:00Z', 'Vantaa', '', '']]);
    await registerFile(db(), { fileName: nameFor('DELIVERIES', 'EVENING'), content: later, source: 'inbox' });
    const { upd: quiet } = await orderWritesOfNextFile(db());
    expect(quiet).toBe(0);
  });

  it('refuses a malformed file with line numbers and writes nothing of it', async () => {
    const beforeItems = await count(db(), orderItems);
    const beforeOrders = await count(db(), orders);
    const content = [
      ORDER_FIELDS.join(';'),
      '4999000003;10;FI01;MAT-A;Valid line;PC;;1;',
      '4999000003;20;FI01;MAT-B;Bad number;PC;;12,5;',
      '',
      '4999000003;30;FI01;;No material;PC;;1;',
      '4999000003;40;FI01;MAT-C;Bad date;PC;;1;2024-02-30',
      '4999000003;50;FI01;MAT-D;Short line',
      '"4999000003";60;FI01;MAT-E;"quoted',
      'line break";PC;;1;',
      '4999000003;70;FI01;MAT-F;After the break;PC;;x;',
    ].join('\r\n');
    const { row } = await ingest(db(), nameFor('ORDERS'), content);
    expect(row.status).toBe('errored');
    expect(row.errors).toEqual([
      // The English, and the code with its values that the app words in the reader's language (decision 0074).
      { line: 3, message: 'reservation_quantity "12,5" is not a number (digits with an optional . decimal part)', code: 'erpNotNumber', params: { column: 'reservation_quantity', value: '12,5' } },
      { line: 5, message: 'material_code is empty', code: 'erpEmptyCell', params: { column: 'material_code' } },
      { line: 6, message: 'delivery_date "2024-02-30" is not a valid date (YYYY-MM-DD)', code: 'erpNotDate', params: { column: 'delivery_date', value: '2024-02-30' } },
      { line: 7, message: 'Unexpected column count 5 (expected 9)', code: 'erpColumnCount', params: { count: 5, expected: 9 } },
      { line: 10, message: 'reservation_quantity "x" is not a number (digits with an optional . decimal part)', code: 'erpNotNumber', params: { column: 'reservation_quantity', value: 'x' } },
    ]);
    expect(await count(db(), orderItems)).toBe(beforeItems);
    expect(await count(db(), orders)).toBe(beforeOrders);
  });

  it('checks references against the database: one unknown plant, storage location or material refuses the whole file', async () => {
    const [stock] = await db().select().from(stockItems).where(eq(stockItems.plant, 'FI01')).limit(1);
    const fields = ['plant', 'storage_location', 'material_code', 'unrestricted_count'];
    const content = csv(fields, [
      [stock!.plant, stock!.storageLocation, stock!.materialCode, '999'],
      ['FI1', '0001', stock!.materialCode, '1'],
      ['FI01', 'NOPE', stock!.materialCode, '1'],
      ['FI01', '0001', 'NO-SUCH-MATERIAL', '1'],
      [stock!.plant, stock!.storageLocation, stock!.materialCode, '5'],
    ]);
    const { row } = await ingest(db(), nameFor('STOCK'), content);
    expect(row.status).toBe('errored');
    expect(row.errors).toEqual([
      { line: 3, message: 'Unknown plant code "FI1"', code: 'erpUnknownPlant', params: { plant: 'FI1', storageLocation: '0001' } },
      { line: 4, message: 'Storage location NOPE does not exist in plant FI01', code: 'erpUnknownStorageLocation', params: { plant: 'FI01', storageLocation: 'NOPE' } },
      { line: 5, message: 'Unknown material code "NO-SUCH-MATERIAL" (send it in a MATERIALS file first)', code: 'erpUnknownMaterial', params: { material: 'NO-SUCH-MATERIAL' } },
      {
        line: 6,
        message: `Stock of ${stock!.materialCode} in FI01/${stock!.storageLocation} appears twice (first on line 2)`,
        code: 'erpDuplicateStock',
        params: { material: stock!.materialCode, plant: 'FI01', storageLocation: stock!.storageLocation, firstLine: 2 },
      },
    ]);
    const [after] = await db().select().from(stockItems).where(eq(stockItems.id, stock!.id));
    expect(after?.unrestrictedCount).toBe(stock!.unrestrictedCount);
  });

  it('applies MATERIALS then STOCK, and re-sending the current state changes nothing', async () => {
    const materialsFile = csv(['material_code', 'description_english', 'unit', 'material_group'], [['MAT-ING-1', 'Buffer spring 120 kN', 'PC', 'BUFFER']]);
    expect((await ingest(db(), nameFor('MATERIALS'), materialsFile)).row.status).toBe('processed');
    const stockFile = csv(['plant', 'storage_location', 'material_code', 'unrestricted_count', 'planner_groups'], [['FI01', '0001', 'MAT-ING-1', '7', 'F10|F20']]);
    expect((await ingest(db(), nameFor('STOCK'), stockFile)).row.status).toBe('processed');
    const [row] = await db().select().from(stockItems).where(and(eq(stockItems.plant, 'FI01'), eq(stockItems.materialCode, 'MAT-ING-1')));
    expect(row).toMatchObject({ storageLocation: '0001', unrestrictedCount: '7', plannerGroups: ['F10', 'F20'] });
    // The same state again under another name: processed, no row changed (updated_at kept).
    const again = await ingest(db(), nameFor('STOCK', 'EVENING'), stockFile.replace('\n', '\r\n'));
    expect(again.row.status).toBe('processed');
    const [same] = await db().select().from(stockItems).where(eq(stockItems.id, row!.id));
    expect(same?.updatedAt.getTime()).toBe(row!.updatedAt.getTime());
  });

  it('changes only the columns a file names: an optional column left out keeps its value; a misspelt one refuses the file (line 1)', async () => {
    const materialsFile = csv(['material_code', 'description_english', 'unit', 'material_group'], [['MAT-ING-2', 'Guide shoe insert', 'PC', 'GUIDE']]);
    expect((await ingest(db(), nameFor('MATERIALS'), materialsFile)).row.status).toBe('processed');
    const full = csv(['plant', 'storage_location', 'material_code', 'unrestricted_count', 'bin', 'planner_groups'], [['FI01', '0001', 'MAT-ING-2', '4', 'A-01', 'F10|F20']]);
    expect((await ingest(db(), nameFor('STOCK'), full)).row.status).toBe('processed');
    // The next file carries the count only: the bin and planner groups stay as they were.
    const countOnly = csv(['plant', 'storage_location', 'material_code', 'unrestricted_count'], [['FI01', '0001', 'MAT-ING-2', '9']]);
    expect((await ingest(db(), nameFor('STOCK', 'MIDDAY'), countOnly)).row.status).toBe('processed');
    const [stock] = await db().select().from(stockItems).where(and(eq(stockItems.plant, 'FI01'), eq(stockItems.materialCode, 'MAT-ING-2')));
    expect(stock).toMatchObject({ unrestrictedCount: '9', bin: 'A-01', plannerGroups: ['F10', 'F20'] });
    // A MATERIALS file without material_group keeps the group.
    const renamed = csv(['material_code', 'description_english', 'unit'], [['MAT-ING-2', 'Guide shoe insert, 10 mm', 'PC']]);
    expect((await ingest(db(), nameFor('MATERIALS', 'MIDDAY'), renamed)).row.status).toBe('processed');
    const [material] = rowsOf<{ description_english: string; material_group: string | null }>(
      await db().execute(sql`select description_english, material_group from materials where code = 'MAT-ING-2'`),
    );
    expect(material).toEqual({ description_english: 'Guide shoe insert, 10 mm', material_group: 'GUIDE' });

    // An order's mechanic is not cleared by a file without user_email.
    const order = csv(ORDER_FIELDS, [['4999000071', 10, 'FI01', 'MAT-A', 'Roller', 'PC', 'mechanic@example.com', 1, '2030-02-01']]);
    expect((await ingest(db(), nameFor('ORDERS'), order)).row.status).toBe('processed');
    const withoutMechanic = csv(
      ORDER_FIELDS.filter((field) => field !== 'user_email'),
      [['4999000071', 10, 'FI01', 'MAT-A', 'Roller, new', 'PC', 2, '2030-02-03']],
    );
    expect((await ingest(db(), nameFor('ORDERS', 'MIDDAY'), withoutMechanic)).row.status).toBe('processed');
    const [kept] = await db().select().from(orders).where(eq(orders.id, '4999000071'));
    expect(kept?.userEmail).toBe('mechanic@example.com');
    const [item] = await db().select().from(orderItems).where(eq(orderItems.orderId, '4999000071'));
    expect(item).toMatchObject({ materialDescription: 'Roller, new', reservationQuantity: '2' });

    // "user_mail" is no column of an ORDERS file: refused on line 1, the order unchanged.
    const misspelt = csv(
      ORDER_FIELDS.map((field) => (field === 'user_email' ? 'user_mail' : field)),
      [['4999000071', 10, 'FI01', 'MAT-A', 'Roller', 'PC', 'someone@example.com', 1, '2030-02-01']],
    );
    const { row } = await ingest(db(), nameFor('ORDERS', 'EVENING'), misspelt);
    expect(row.status).toBe('errored');
    expect(row.errors).toEqual([
      {
        line: 1,
        message: expect.stringMatching(/^The header names a column an ORDERS file does not have: user_mail \(known columns: service_order, /),
        code: 'erpHeaderUnknown',
        params: { columns: 'user_mail', fileType: 'ORDERS', known: expect.stringMatching(/^service_order, line_number, /) },
      },
    ]);
    const [same] = await db().select().from(orderItems).where(eq(orderItems.orderId, '4999000071'));
    expect(same?.materialDescription).toBe('Roller, new');
  });

  it('processes the same file for the same slot only once (by checksum), even under a browser copy\'s name', async () => {
    const content = csv(['material_code', 'description_english', 'unit'], [['MAT-DUP-1', 'Pit ladder', 'PC']]);
    const name = nameFor('MATERIALS');
    const first = await ingest(db(), name, content);
    expect(first).toMatchObject({ duplicate: false, row: { status: 'processed' } });
    const filesBefore = await count(db(), fileProcessing);
    for (const again of [name, name.replace('.csv', ' (1).csv')]) {
      const second = await ingest(db(), again, content);
      expect(second.duplicate).toBe(true);
      expect(second.row.id).toBe(first.row.id);
      expect(second.done).toEqual([]);
    }
    expect(await count(db(), fileProcessing)).toBe(filesBefore);
  });

  it('takes the same bytes for another slot as that slot\'s file (an unchanged export the next day): applied, and the slot is not missing', async () => {
    const content = csv(['material_code', 'description_english', 'unit'], [['MAT-DUP-2', 'Buffer spring', 'PC']]);
    expect((await ingest(db(), 'ERP_MATERIALS_20330118_MORNING.csv', content)).row.status).toBe('processed');
    // Meanwhile someone changed the material: the next day's file, byte for byte the same, is the ERP's word again.
    await db().update(materials).set({ descriptionEnglish: 'Changed meanwhile' }).where(eq(materials.code, 'MAT-DUP-2'));
    // The sweep found the next morning's MATERIALS slot empty.
    await db().execute(sql`insert into file_processing (id, file_type, file_name, business_date, file_part_of_day, status, errors, created_at)
      values (gen_random_uuid(), 'MATERIALS', 'ERP_MATERIALS_20330119_MORNING.csv', '2033-01-19', 'morning', 'missing', '[]'::jsonb, now())`);
    const next = await ingest(db(), 'ERP_MATERIALS_20330119_MORNING.csv', content);
    expect(next).toMatchObject({ duplicate: false, row: { status: 'processed', fileName: 'ERP_MATERIALS_20330119_MORNING.csv' } });
    const slot = and(eq(fileProcessing.businessDate, '2033-01-19'), eq(fileProcessing.fileType, 'MATERIALS'), eq(fileProcessing.filePartOfDay, 'morning'));
    expect((await db().select().from(fileProcessing).where(slot)).map((r) => r.status)).toEqual(['processed']);
    const [material] = await db().select().from(materials).where(eq(materials.code, 'MAT-DUP-2'));
    expect(material?.descriptionEnglish).toBe('Buffer spring');
  });

  it('applies DELIVERIES: scans stored once, the status changed, the mechanic notified', async () => {
    const [item] = await db()
      .select({ orderId: orderItems.orderId, lineNumber: orderItems.lineNumber, id: orderItems.id, tn: orderItems.trackingNumber })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(and(eq(orders.userEmail, 'mechanic@example.com'), eq(orderItems.deliveryStatus, 'OnTheWay')))
      .limit(1);
    expect(item).toBeDefined();
    const [mechanic] = await db().select().from(users).where(eq(users.email, 'mechanic@example.com'));
    const notified = async () =>
      (await db().select({ n: sql<number>`count(*)::int` }).from(notifications).where(and(eq(notifications.userId, mechanic!.id), eq(notifications.notificationKey, 'delivery_notification'))))[0]!.n;
    const notificationsBefore = await notified();
    const eventsBefore = await count(db(), parcelEvents);
    const fields = ['service_order', 'line_number', 'tracking_number', 'carrier', 'event_status', 'event_description', 'occurred_at', 'event_location', 'delivery_status', 'delivery_date'];
    const content = csv(fields, [
      [item!.orderId, item!.lineNumber, item!.tn ?? 'JJFI1', 'Posti', 'OutForDelivery', 'Out for delivery', '2026-11-20T07:00:00Z', 'Espoo', '', ''],
      [item!.orderId, item!.lineNumber, item!.tn ?? 'JJFI1', 'Posti', 'Delivered', 'Delivered', '2026-11-20T08:15:00+00:00', 'Espoo', 'Delivered', '2026-11-20'],
    ]);
    const { row } = await ingest(db(), nameFor('DELIVERIES'), content);
    expect(row).toMatchObject({ status: 'processed', errors: [] });
    expect(await count(db(), parcelEvents)).toBe(eventsBefore + 2);
    const [after] = await db().select().from(orderItems).where(eq(orderItems.id, item!.id));
    expect(after).toMatchObject({ deliveryStatus: 'Delivered', deliveryDate: '2026-11-20' });
    const events = (after!.transportDetails as { events: Array<{ status: string; occurredAt: string }> }).events;
    expect(events.at(-1)).toMatchObject({ status: 'Delivered', occurredAt: '2026-11-20T08:15:00.000Z' });
    expect(await notified()).toBeGreaterThan(notificationsBefore);

    // The same scans in another file: nothing new, nobody notified twice.
    const again = await ingest(db(), nameFor('DELIVERIES', 'EVENING'), `${content}\n`);
    expect(again.row.status).toBe('processed');
    expect(await count(db(), parcelEvents)).toBe(eventsBefore + 2);
    const notificationsAfter = await notified();
    const third = await ingest(db(), nameFor('DELIVERIES', 'MIDDAY'), `${content}\n\n`);
    expect(third.row.status).toBe('processed');
    expect(await notified()).toBe(notificationsAfter);
  });

  it('refuses a delivery for an order item that does not exist, naming the line', async () => {
    const fields = ['service_order', 'line_number', 'tracking_number', 'carrier', 'event_status', 'event_description', 'occurred_at'];
    const { row } = await ingest(db(), nameFor('DELIVERIES'), csv(fields, [['4000000000', 10, 'X1', 'DHL', 'InTransit', 'In transit', '2026-11-20T07:00:00Z']]));
    expect(row.status).toBe('errored');
    expect(row.errors).toEqual([
      { line: 2, message: 'No item 10 of service order 4000000000 (send it in an ORDERS file first)', code: 'erpNoSuchItem', params: { item: 10, serviceOrder: '4000000000' } },
    ]);
  });

  it('a worker that fails mid-file leaves nothing applied; after the lease another worker processes it once', async () => {
    const content = csv(ORDER_FIELDS, [['4999000010', 10, 'FI01', 'MAT-CRASH', 'Crash test part', 'PC', '', '1', '']]);
    const { file } = await registerFile(db(), { fileName: nameFor('ORDERS'), content, source: 'upload', uploadedBy: 'manager@example.com' });
    const claimed = await claimNext(db(), { workerId: 'dying-worker', leaseSeconds: 60 });
    expect(claimed?.id).toBe(file.id);
    await expect(
      processClaimed(db(), file.id, {
        workerId: 'dying-worker',
        hooks: {
          beforeCommit: () => {
            throw new Error('process killed');
          },
        },
      }),
    ).rejects.toThrow('process killed');
    const [stuck] = await db().select().from(fileProcessing).where(eq(fileProcessing.id, file.id));
    expect(stuck).toMatchObject({ status: 'in_progress', claimedBy: 'dying-worker' });
    expect(await db().select().from(orders).where(eq(orders.id, '4999000010'))).toEqual([]);
    // Within the lease nobody takes it; after it, another worker does.
    expect(await claimNext(db(), { workerId: 'other', leaseSeconds: 60 })).toBeNull();
    const later = new Date(Date.now() + 61_000);
    const done = await processPending(db(), { workerId: 'other', leaseSeconds: 60, clock: () => later });
    expect(done.map((d) => [d.id, d.status, d.claimedBy])).toEqual([[file.id, 'processed', 'other']]);
    expect(await db().select({ id: orders.id }).from(orders).where(eq(orders.id, '4999000010'))).toHaveLength(1);
  });

  it('applies files one at a time, oldest first: no worker claims a file while another holds one under a live lease', async () => {
    const first = await registerFile(db(), { fileName: nameFor('MATERIALS'), content: csv(['material_code', 'description_english', 'unit'], [['MAT-ORD-1', 'Morning text', 'PC']]), source: 'inbox' });
    const second = await registerFile(db(), { fileName: nameFor('MATERIALS', 'MIDDAY'), content: csv(['material_code', 'description_english', 'unit'], [['MAT-ORD-1', 'Midday text', 'PC']]), source: 'inbox' });
    const claimedA = await claimNext(db(), { workerId: 'replica-a', leaseSeconds: 60 });
    expect(claimedA?.id).toBe(first.file.id);
    // Replica B asks while A holds the morning file: nothing, not the midday file.
    expect(await claimNext(db(), { workerId: 'replica-b', leaseSeconds: 60 })).toBeNull();
    expect((await processClaimed(db(), claimedA!.id, { workerId: 'replica-a' }))?.status).toBe('processed');
    const claimedB = await claimNext(db(), { workerId: 'replica-b', leaseSeconds: 60 });
    expect(claimedB?.id).toBe(second.file.id);
    expect((await processClaimed(db(), claimedB!.id, { workerId: 'replica-b' }))?.status).toBe('processed');
    const [material] = rowsOf<{ description_english: string }>(await db().execute(sql`select description_english from materials where code = 'MAT-ORD-1'`));
    expect(material?.description_english).toBe('Midday text');
    // A holder past its lease (a dead process) no longer holds the others back.
    const third = await registerFile(db(), { fileName: nameFor('MATERIALS', 'EVENING'), content: csv(['material_code', 'description_english', 'unit'], [['MAT-ORD-1', 'Evening text', 'PC']]), source: 'inbox' });
    const longAgo = new Date(Date.now() - 3600_000);
    expect((await claimNext(db(), { workerId: 'replica-dead', leaseSeconds: 60, now: longAgo }))?.id).toBe(third.file.id);
    expect((await claimNext(db(), { workerId: 'replica-b', leaseSeconds: 60 }))?.id).toBe(third.file.id);
    expect((await processClaimed(db(), third.file.id, { workerId: 'replica-b' }))?.status).toBe('processed');
  });

  it('queues again the bytes of a file that errored (what it named may exist now); the errored row stays as it was', async () => {
    const stockFile = csv(['plant', 'storage_location', 'material_code', 'unrestricted_count'], [['FI01', '0001', 'MAT-LATE-1', '3']]);
    const name = nameFor('STOCK');
    const first = await ingest(db(), name, stockFile);
    expect(first.row).toMatchObject({ status: 'errored', errors: [{ line: 2, message: 'Unknown material code "MAT-LATE-1" (send it in a MATERIALS file first)' }] });
    expect((await ingest(db(), nameFor('MATERIALS'), csv(['material_code', 'description_english', 'unit'], [['MAT-LATE-1', 'Late part', 'PC']]))).row.status).toBe('processed');
    const again = await ingest(db(), name, stockFile);
    expect(again.duplicate).toBe(false);
    expect(again.row.id).not.toBe(first.row.id);
    expect(again.row.status).toBe('processed');
    const [old] = await db().select().from(fileProcessing).where(eq(fileProcessing.id, first.row.id));
    expect(old).toMatchObject({ status: 'errored', checksum: null });
    // A processed file's bytes for its slot are still a duplicate.
    expect((await registerFile(db(), { fileName: name, content: stockFile, source: 'inbox' })).duplicate).toBe(true);
  });

  it('puts a file back in the queue after a failure of the moment (a deadlock), not errored; the next turn applies it', async () => {
    const content = csv(['material_code', 'description_english', 'unit'], [['MAT-DEADLOCK-1', 'Retried part', 'PC']]);
    const { file } = await registerFile(db(), { fileName: nameFor('MATERIALS'), content, source: 'inbox' });
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    await expect(
      processPending(db(), { workerId: 'unlucky', leaseSeconds: 60, hooks: { beforeCommit: () => Promise.reject(deadlock) } }),
    ).rejects.toThrow('deadlock detected');
    const [waiting] = await db().select().from(fileProcessing).where(eq(fileProcessing.id, file.id));
    expect(waiting).toMatchObject({ status: 'not_processed', claimedBy: null, errors: [] });
    const done = await processPending(db(), { workerId: 'lucky', leaseSeconds: 60 });
    expect(done.map((row) => [row.id, row.status])).toEqual([[file.id, 'processed']]);
    // A failure that says something of the file (not of the moment) still errors it.
    const broken = await registerFile(db(), { fileName: nameFor('MATERIALS', 'MIDDAY'), content: csv(['material_code', 'description_english', 'unit'], [['MAT-BROKEN-1', 'x', 'PC']]), source: 'inbox' });
    await expect(processPending(db(), { workerId: 'w', leaseSeconds: 60, hooks: { beforeCommit: () => Promise.reject(new Error('no such thing')) } })).rejects.toThrow('no such thing');
    const [stuck] = await db().select().from(fileProcessing).where(eq(fileProcessing.id, broken.file.id));
    expect(stuck?.status).toBe('in_progress');
    // Until its lease runs out; then it is taken again (the queue waits for it: files go in order).
    const later = new Date(Date.now() + 61_000);
    expect((await processPending(db(), { workerId: 'w2', leaseSeconds: 60, clock: () => later })).map((row) => row.status)).toEqual(['processed']);
  });

  it('sweeps the schedule: a missing slot gets one row, and a late file takes it over', async () => {
    // 21:00 UTC on the seed's day: the midday and evening ORDERS/DELIVERIES files never came.
    const evening = new Date('2026-11-20T21:00:00Z');
    const slot = and(eq(fileProcessing.businessDate, '2026-11-20'), eq(fileProcessing.fileType, 'ORDERS'), eq(fileProcessing.filePartOfDay, 'evening'));
    expect(await db().select().from(fileProcessing).where(slot)).toEqual([]);
    expect(await sweepMissing(db(), DEFAULT_SCHEDULE, evening)).toBe(4);
    expect(await sweepMissing(db(), DEFAULT_SCHEDULE, evening)).toBe(0);
    expect((await db().select().from(fileProcessing).where(slot)).map((r) => [r.status, r.fileName])).toEqual([['missing', 'ERP_ORDERS_20261120_EVENING.csv']]);
    const late = csv(ORDER_FIELDS, [['4999000020', 10, 'FI01', 'MAT-LATE', 'Late part', 'PC', '', '1', '']]);
    await registerFile(db(), { fileName: 'ERP_ORDERS_20261120_EVENING.csv', content: late, source: 'inbox' });
    expect((await db().select().from(fileProcessing).where(slot)).map((r) => r.status)).toEqual(['not_processed']);
    // A sweep of another replica that ran while the file was being received (its row not yet
    // committed) wrote the slot "missing" beside it: applying the file takes that row away too.
    await db().execute(sql`insert into file_processing (id, file_type, file_name, business_date, file_part_of_day, status, errors, created_at)
      values (gen_random_uuid(), 'ORDERS', 'ERP_ORDERS_20261120_EVENING.csv', '2026-11-20', 'evening', 'missing', '[]'::jsonb, now())`);
    await processPending(db(), { workerId: 'test-worker', leaseSeconds: 60 });
    expect((await db().select().from(fileProcessing).where(slot)).map((r) => r.status)).toEqual(['processed']);
  });

  it('sweeps earlier days too, each missing slot at its deadline in the schedule\'s zone, and none of today\'s still ahead', async () => {
    // 09:00 in Helsinki (UTC+2) two days after the seed's day: the 21st's slots all passed, the
    // 22nd's morning ones only (an earlier day's deadlines are not computed on every poll).
    const helsinki = { ...DEFAULT_SCHEDULE, timezone: 'Europe/Helsinki' };
    const now = new Date('2026-11-22T07:00:00Z');
    const before = new Set((await db().select({ id: fileProcessing.id }).from(fileProcessing)).map((row) => row.id));
    const written = await sweepMissing(db(), helsinki, now);
    const added = (await db().select().from(fileProcessing)).filter((row) => !before.has(row.id));
    try {
      expect(added).toHaveLength(written);
      const of = (date: string) =>
        added
          .filter((row) => row.businessDate === date)
          .map((row) => `${row.fileType} ${row.filePartOfDay} ${row.status} ${row.createdAt?.toISOString()}`)
          .sort();
      expect(of('2026-11-21')).toEqual(
        [
          'DELIVERIES evening missing 2026-11-21T18:00:00.000Z',
          'DELIVERIES midday missing 2026-11-21T12:00:00.000Z',
          'DELIVERIES morning missing 2026-11-21T06:00:00.000Z',
          'MATERIALS morning missing 2026-11-21T06:00:00.000Z',
          'ORDERS evening missing 2026-11-21T18:00:00.000Z',
          'ORDERS midday missing 2026-11-21T12:00:00.000Z',
          'ORDERS morning missing 2026-11-21T06:00:00.000Z',
          'STOCK morning missing 2026-11-21T06:00:00.000Z',
        ].sort(),
      );
      expect(of('2026-11-22')).toEqual(
        [
          'DELIVERIES morning missing 2026-11-22T06:00:00.000Z',
          'MATERIALS morning missing 2026-11-22T06:00:00.000Z',
          'ORDERS morning missing 2026-11-22T06:00:00.000Z',
          'STOCK morning missing 2026-11-22T06:00:00.000Z',
        ].sort(),
      );
      expect(await sweepMissing(db(), helsinki, now)).toBe(0);
    } finally {
      if (added.length) await db().delete(fileProcessing).where(inArray(fileProcessing.id, added.map((row) => row.id)));
    }
  });

  describe('upload call', () => {
    const upload = async (who: string, fileName: string, payload: string, contentType = 'text/csv') =>
      product.app.inject({
        method: 'POST',
        url: `/user_api/v1/dashboard/files?fileName=${encodeURIComponent(fileName)}`,
        headers: { ...bearer(await product.token(`${who}@example.com`)), 'content-type': contentType },
        payload,
      });
    const file = csv(['material_code', 'description_english', 'unit'], [['MAT-UP-1', 'Car door operator belt', 'PC']]);

    it('queues a file for stock admins and super managers (202), once per content and slot (200 duplicate)', async () => {
      // Stock admins upload STOCK and ORDERS files of their own plants only (decision 0017, erp-upload-scope.test.ts).
      const [stock] = await db().select().from(stockItems).where(eq(stockItems.plant, 'FI01')).limit(1);
      const stockFile = csv(['plant', 'storage_location', 'material_code', 'unrestricted_count'], [[stock!.plant, stock!.storageLocation, stock!.materialCode, '3']]);
      const name = nameFor('STOCK');
      const first = await upload('stock.admin', name, stockFile);
      expect(first.statusCode).toBe(202);
      expect(first.json()).toMatchObject({ duplicate: false, file: { file_name: name, file_type: 'STOCK', status: 'not_processed', source: 'upload' } });
      const again = await upload('manager', name, stockFile);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ duplicate: true, file: { id: first.json().file.id } });
      const done = await processPending(db(), { workerId: 'test-worker', leaseSeconds: 60 });
      expect(done.filter((d) => d.id === first.json().file.id)).toHaveLength(1);
      const [row] = await db().select().from(fileProcessing).where(eq(fileProcessing.id, first.json().file.id));
      expect(row).toMatchObject({ status: 'processed', uploadedBy: 'stock.admin@example.com' });
    });

    it('takes a file too large to read on the event loop (streamed to disk, COPY, parse worker): applied whole, or a late bad line named', async () => {
      // ~1.6 MB, CRLF, with a quoted cell spanning two lines and holding the delimiter, a quote, a backslash and a tab (COPY escapes).
      const fields = ['service_order', 'line_number', 'plant', 'material_code', 'material_description', 'unit', 'delivery_address', 'reservation_quantity'];
      const tricky = '"Depot ""North""; gate\\2\r\nRatapihantie\t11"';
      const big = (first: number, badAt: number | null) => {
        const lines = [fields.join(';')];
        for (let i = 0; i < 12_000; i += 1) {
          const quantity = badAt === i ? 'many' : String(1 + (i % 5));
          lines.push([first + Math.floor(i / 4), ((i % 4) + 1) * 10, 'FI01', `MAT-BIG-${i % 300}`, `Large file part ${i} with a long description`, 'PC', i === 5 ? tricky : 'Depot Pasila, Ratapihantie 11, 00520 Helsinki', quantity].join(';'));
        }
        return `${lines.join('\r\n')}\r\n`;
      };
      const good = big(4_600_000_000, null);
      expect(Buffer.byteLength(good)).toBeGreaterThan(1024 * 1024);
      const accepted = await upload('manager', nameFor('ORDERS'), good);
      expect(accepted.statusCode).toBe(202);
      const done = (await processPending(db(), { workerId: 'test-worker', leaseSeconds: 60 })).find((f) => f.id === accepted.json().file.id);
      expect(done).toMatchObject({ status: 'processed', errors: [], lineCount: 12_002 });
      const written = await db().select({ n: sql<number>`count(*)::int` }).from(orderItems).where(sql`${orderItems.orderId} between '4600000000' and '4600002999'`);
      expect(written[0]!.n).toBe(12_000);
      const [item] = await db().select().from(orderItems).where(and(eq(orderItems.orderId, '4600000001'), eq(orderItems.lineNumber, 20)));
      expect(item!.deliveryAddress).toBe('Depot "North"; gate\\2\nRatapihantie\t11');
      expect(await db().select().from(sql`file_contents`)).toEqual([]);

      // Line 1 is the header and the quoted cell spans lines 7–8: item 11,000 starts on line 11,003.
      const bad = big(4_610_000_000, 11_000);
      const queued = await upload('manager', nameFor('ORDERS'), bad);
      expect(queued.statusCode).toBe(202);
      const refused = (await processPending(db(), { workerId: 'test-worker', leaseSeconds: 60 })).find((f) => f.id === queued.json().file.id);
      expect(refused).toMatchObject({ status: 'errored', errors: [{ line: 11_003, message: 'reservation_quantity "many" is not a number (digits with an optional . decimal part)' }] });
      expect(await db().select().from(orders).where(sql`${orders.id} between '4610000000' and '4610002999'`)).toEqual([]);
    });

    it('refuses other roles, bad names, other media types and non-UTF-8 bytes with a message', async () => {
      for (const who of ['mechanic', 'viewer', 'supervisor']) expect((await upload(who, nameFor('MATERIALS'), file)).statusCode, who).toBe(403);
      const badName = await upload('manager', 'stock.csv', file);
      expect(badName.statusCode).toBe(400);
      expect(badName.json().message).toContain('ERP_<ORDERS|DELIVERIES|STOCK|MATERIALS>_<YYYYMMDD>_<MORNING|MIDDAY|EVENING>.csv');
      const badDate = await upload('manager', 'ERP_STOCK_20250230_MORNING.csv', file);
      expect(badDate.statusCode).toBe(400);
      expect(badDate.json().message).toContain('not a calendar day');
      // The name is refused before the body is read: a bad name with bytes that are not UTF-8 is a 400 for its name.
      const badNameFirst = await product.app.inject({
        method: 'POST',
        url: '/user_api/v1/dashboard/files?fileName=stock.csv',
        headers: { ...bearer(await product.token('manager@example.com')), 'content-type': 'text/csv' },
        payload: Buffer.from([0x63, 0x6f, 0x64, 0x65, 0x0a, 0xe4, 0x0a]),
      });
      expect(badNameFirst.statusCode).toBe(400);
      expect(badNameFirst.json().message).toContain('does not follow');
      // A browser's second download of a file ("… (1).csv") is taken.
      expect((await upload('manager', nameFor('MATERIALS').replace('.csv', ' (1).csv'), csv(['material_code', 'description_english', 'unit'], [['MAT-COPY-1', 'Copy', 'PC']]))).statusCode).toBe(202);
      expect((await upload('manager', nameFor('MATERIALS'), file, 'application/json')).statusCode).toBe(415);
      const latin1 = await product.app.inject({
        method: 'POST',
        url: `/user_api/v1/dashboard/files?fileName=${nameFor('MATERIALS')}`,
        headers: { ...bearer(await product.token('manager@example.com')), 'content-type': 'text/csv' },
        payload: Buffer.from([0x63, 0x6f, 0x64, 0x65, 0x0a, 0xe4, 0x0a]),
      });
      expect(latin1.statusCode).toBe(422);
      expect(latin1.json().message).toContain('not UTF-8');
    });
  });
});

// ───────────── two processes on one PostgreSQL ─────────────

const describePostgres = process.env.DATABASE_URL ? describe : describe.skip;

describePostgres('ERP ingestion with several processes on one PostgreSQL (skipped without DATABASE_URL: needs a shared server)', () => {
  let url: string;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let first: Database;
  let second: Database;

  beforeAll(async () => {
    // A copy of the run's seeded template (tests/server/template.ts), or migrated and seeded here without one.
    const template = (await providedTemplates())?.postgres ?? undefined;
    scratch = await createScratchDatabase(process.env.DATABASE_URL!, 'pt_ingest', template);
    url = scratch.url;
    first = await openDatabase({ databaseUrl: url });
    if (!template) {
      await first.migrate();
      await seedTestData(first.db);
    }
    second = await openDatabase({ databaseUrl: url });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await scratch?.drop();
  });

  it('two workers (two pools) process every waiting file exactly once, one at a time, in the order the files came', async () => {
    await processPending(first.db, { workerId: 'drain', leaseSeconds: 600 });
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const content = csv(['material_code', 'description_english', 'unit'], [[`MAT-PAR-${i}`, `Parallel part ${i}`, 'PC']]);
      ids.push((await registerFile(first.db, { fileName: nameFor('MATERIALS'), content, source: 'inbox' })).file.id);
    }
    const applied: string[] = [];
    const by: Record<string, number> = { a: 0, b: 0 };
    let active = 0;
    let mostAtOnce = 0;
    const hooks = (worker: 'a' | 'b') => ({
      beforeCommit: async (file: { id: string }) => {
        active += 1;
        mostAtOnce = Math.max(mostAtOnce, active);
        applied.push(file.id);
        by[worker]! += 1;
        // Hold the file a moment: the other worker asks meanwhile, and must get nothing.
        await new Promise((resolve) => setTimeout(resolve, 30));
        active -= 1;
      },
    });
    // Each worker keeps asking until every file is done (a claim answers nothing while the other holds one).
    const drain = async (database: Database, worker: 'a' | 'b') => {
      while (applied.length < ids.length) {
        await processPending(database.db, { workerId: worker, leaseSeconds: 600, hooks: hooks(worker) });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await Promise.all([drain(first, 'a'), drain(second, 'b')]);
    expect(applied).toEqual(ids);
    expect(mostAtOnce).toBe(1);
    expect(by.a! + by.b!).toBe(ids.length);
    const rows = await first.db.select().from(fileProcessing).where(sql`${fileProcessing.id} in ${ids}`);
    expect(rows.every((r) => r.status === 'processed')).toBe(true);
    expect(rows.map((r) => r.claimedBy).every((w) => w === 'a' || w === 'b')).toBe(true);
  });

  it('the same file received by both processes at once is queued once', async () => {
    const content = csv(['material_code', 'description_english', 'unit'], [['MAT-RACE', 'Race part', 'PC']]);
    const name = nameFor('MATERIALS');
    const [a, b] = await Promise.all([
      registerFile(first.db, { fileName: name, content, source: 'inbox' }),
      registerFile(second.db, { fileName: name, content, source: 'upload' }),
    ]);
    expect([a.duplicate, b.duplicate].sort()).toEqual([false, true]);
    expect(a.file.id).toBe(b.file.id);
  });

  it('a process killed (SIGKILL) mid-file applies nothing; another process retries it after the lease', async () => {
    await processPending(first.db, { workerId: 'drain', leaseSeconds: 600 });
    const content = csv(ORDER_FIELDS, [['4999000099', 10, 'FI01', 'MAT-KILL', 'Killed mid-file', 'PC', '', '1', '']]);
    const { file } = await registerFile(first.db, { fileName: nameFor('ORDERS'), content, source: 'inbox' });
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./ingestion-child.ts', import.meta.url)), url, 'doomed-worker'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const appliedId = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /APPLIED (\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`child exited ${code}: ${stderr}`)));
    });
    expect(appliedId).toBe(file.id);
    // The order is written inside the child's open transaction, invisible to everyone else.
    expect(await first.db.select().from(orders).where(eq(orders.id, '4999000099'))).toEqual([]);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const [stuck] = await first.db.select().from(fileProcessing).where(eq(fileProcessing.id, file.id));
    expect(stuck).toMatchObject({ status: 'in_progress', claimedBy: 'doomed-worker' });
    expect(await first.db.select().from(orders).where(eq(orders.id, '4999000099'))).toEqual([]);
    // Within the lease the file waits; after it, the other process takes it and applies it once.
    expect(await claimNext(second.db, { workerId: 'survivor', leaseSeconds: 60 })).toBeNull();
    const later = new Date(Date.now() + 61_000);
    const done = await processPending(second.db, { workerId: 'survivor', leaseSeconds: 60, clock: () => later });
    expect(done.map((d) => [d.id, d.status])).toEqual([[file.id, 'processed']]);
    expect(await first.db.select().from(orderItems).where(eq(orderItems.orderId, '4999000099'))).toHaveLength(1);
  }, 180_000); // the child starts the server's TypeScript through tsx: minutes on a loaded machine
});
