/**
 * #20 point 1 (docs/decisions/0017): an uploaded ERP file writes with its uploader's rights.
 * Stock admins upload STOCK and ORDERS files of their own plants only (object level: a line of
 * another plant, an order of another plant, a mechanic outside the plant refuse the whole file
 * with a 403 naming the lines, nothing queued); MATERIALS and DELIVERIES are for super managers;
 * the check runs again when the file is applied; inbox files stay trusted.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileProcessing, orders, shipToParties, stockItems, userAttachments, userGrants, users } from '../../server/db/schema';
import { processPending, registerFile } from '../../server/ingestion/queue';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

const csv = (fields: string[], rows: Array<Array<string | number>>) => `${Papa.unparse({ fields, data: rows }, { newline: '\n' })}\n`;
let fileCounter = 0;
/** A fresh slot-free file name per call: dates far from the seed's 30 days (and from ingestion.test.ts). */
const nameFor = (type: string) => `ERP_${type}_2031${String(1 + (fileCounter % 12)).padStart(2, '0')}${String(1 + (Math.floor(fileCounter++ / 12) % 28)).padStart(2, '0')}_MORNING.csv`;

const STOCK_FIELDS = ['plant', 'storage_location', 'material_code', 'unrestricted_count'];
const ORDER_FIELDS = ['service_order', 'line_number', 'plant', 'material_code', 'material_description', 'unit', 'user_email'];

describe.each(ENGINES)('ERP upload scope on %s', (engine) => {
  let product: TestProduct;
  const db = () => product.database.db;
  /** One stock row per plant of the seed, to restate with a new quantity. */
  const stockOf: Record<string, typeof stockItems.$inferSelect> = {};
  let lyonOrder: typeof orders.$inferSelect;

  const upload = async (who: string, fileName: string, payload: string) =>
    product.app.inject({
      method: 'POST',
      url: `/user_api/v1/dashboard/files?fileName=${encodeURIComponent(fileName)}`,
      headers: { ...bearer(await product.token(who)), 'content-type': 'text/csv' },
      payload,
    });
  const filesNamed = async (fileName: string) => db().select().from(fileProcessing).where(eq(fileProcessing.fileName, fileName));
  const quantityOf = async (id: number) => (await db().select().from(stockItems).where(eq(stockItems.id, id)))[0]!.unrestrictedCount;
  const process = () => processPending(db(), { workerId: 'scope-test', leaseSeconds: 60 });
  const stockLine = (plant: string, quantity: string) => [plant, stockOf[plant]!.storageLocation, stockOf[plant]!.materialCode, quantity];

  beforeAll(async () => {
    product = await createTestProduct(engine);
    for (const plant of ['FI01', 'DE02', 'FR03']) {
      const [row] = await db().select().from(stockItems).where(eq(stockItems.plant, plant)).limit(1);
      stockOf[plant] = row!;
    }
    const [order] = await db().select().from(orders).where(eq(orders.plant, 'FR03')).limit(1);
    lyonOrder = order!;
  });
  afterAll(async () => product?.close());

  it('refuses a stock admin of FI01/DE02 a STOCK file with an FR03 line: 403 naming the line, nothing queued or changed', async () => {
    const before = await quantityOf(stockOf.FR03!.id);
    const name = nameFor('STOCK');
    const res = await upload('stock.admin@example.com', name, csv(STOCK_FIELDS, [stockLine('FI01', '11'), stockLine('FR03', '4242'), stockLine('DE02', '12')]));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('line 3: Plant FR03 is not one of the plants of stock.admin@example.com (DE02, FI01)');
    expect(res.json()).toMatchObject({ code: 'erpOutsideScope', params: { count: 1 } });
    expect(res.json().errors).toEqual([
      {
        line: 3,
        message: 'Plant FR03 is not one of the plants of stock.admin@example.com (DE02, FI01)',
        code: 'erpPlantNotYours',
        params: { plant: 'FR03', email: 'stock.admin@example.com', plants: 'DE02, FI01' },
      },
    ]);
    expect(await filesNamed(name)).toEqual([]);
    await process();
    expect(await quantityOf(stockOf.FR03!.id)).toBe(before);
    expect(await quantityOf(stockOf.FI01!.id)).not.toBe('11');
  });

  it('applies a stock admin’s STOCK file of their own plants', async () => {
    const name = nameFor('STOCK');
    const res = await upload('stock.admin@example.com', name, csv(STOCK_FIELDS, [stockLine('FI01', '21'), stockLine('DE02', '22')]));
    expect(res.statusCode, res.body).toBe(202);
    await process();
    expect((await filesNamed(name))[0]).toMatchObject({ status: 'processed', uploadedBy: 'stock.admin@example.com' });
    expect(await quantityOf(stockOf.FI01!.id)).toBe('21');
    expect(await quantityOf(stockOf.DE02!.id)).toBe('22');
  });

  it('lets the uploader follow their file to processed or errored; another uploader\'s file is unknown to them', async () => {
    const fileOf = async (who: string, id: string) =>
      product.app.inject({ method: 'GET', url: `/user_api/v1/dashboard/files/${id}`, headers: bearer(await product.token(who)) });
    const good = (await upload('stock.admin@example.com', nameFor('STOCK'), csv(STOCK_FIELDS, [stockLine('FI01', '71')]))).json().file.id as string;
    const bad = (await upload('stock.admin@example.com', nameFor('STOCK'), csv(STOCK_FIELDS, [stockLine('FI01', '72'), ['FI01', 'V001', '', 'x']]))).json().file.id as string;
    expect((await fileOf('stock.admin@example.com', good)).json()).toMatchObject({ id: good, status: 'not_processed' });
    await process();
    expect((await fileOf('stock.admin@example.com', good)).json()).toMatchObject({ id: good, status: 'processed' });
    const errored = (await fileOf('stock.admin@example.com', bad)).json();
    expect(errored.status).toBe('errored');
    expect(errored.errors[0]).toMatchObject({ line: 3 });
    // A super manager reads any file, the read-only one too (a file dashboard reader who uploads
    // nothing); another uploader none of the stock admin's; a mechanic no upload at all.
    expect((await fileOf('manager@example.com', good)).statusCode).toBe(200);
    expect((await fileOf('viewer@example.com', good)).json()).toMatchObject({ id: good, status: 'processed' });
    const other = 'second.admin@example.com';
    const [second] = await db().insert(users).values({ email: other, displayName: 'Second Admin', approvalStatus: 'Approved', firstLogin: false }).returning();
    await db().insert(userGrants).values({ userId: second!.id, grantId: 'stock_admin' });
    expect((await fileOf(other, good)).statusCode).toBe(404);
    expect((await fileOf('mechanic@example.com', good)).statusCode).toBe(403);
    expect((await fileOf('stock.admin@example.com', 'not-a-uuid')).statusCode).toBe(400);
    expect((await fileOf('stock.admin@example.com', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('keeps MATERIALS and DELIVERIES for super managers', async () => {
    const materials = csv(['material_code', 'description_english', 'unit'], [['MAT-SCOPE-1', 'Guide shoe insert', 'PC']]);
    const refused = await upload('stock.admin@example.com', nameFor('MATERIALS'), materials);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('only a super manager');
    const deliveries = csv(
      ['service_order', 'line_number', 'tracking_number', 'carrier', 'event_status', 'event_description', 'occurred_at', 'delivery_status'],
      [[lyonOrder.id, 10, 'JJD000SCOPE', 'DHL', 'delivered', 'Delivered', '2031-01-01T10:00:00Z', 'Delivered']],
    );
    expect((await upload('stock.admin@example.com', nameFor('DELIVERIES'), deliveries)).statusCode).toBe(403);
    expect((await upload('manager@example.com', nameFor('MATERIALS'), materials)).statusCode).toBe(202);
  });

  it('refuses ORDERS lines of another plant, a takeover of another plant’s order, and a mechanic outside the plant', async () => {
    const name = nameFor('ORDERS');
    const res = await upload(
      'stock.admin@example.com',
      name,
      csv(ORDER_FIELDS, [
        ['4999100001', 10, 'FI01', 'MAT-S-1', 'Door roller', 'PC', 'mechanic@example.com'],
        ['4999100002', 10, 'FR03', 'MAT-S-2', 'Door roller', 'PC', ''],
        [lyonOrder.id, 990, 'FI01', 'MAT-S-3', 'Moved order', 'PC', ''],
        ['4999100003', 10, 'FI01', 'MAT-S-4', 'Door roller', 'PC', 'julien.martin@parts.example'],
        ['4999100004', 10, 'DE02', 'MAT-S-5', 'Door roller', 'PC', 'nobody@example.com'],
        ['4999100005', 10, 'DE02', 'MAT-S-6', 'Door roller', 'PC', 'pending@example.com'],
        // A mechanic of the plant whose access expired would be sent the order's delivery messages.
        ['4999100006', 10, 'FI01', 'MAT-S-7', 'Door roller', 'PC', 'expired@example.com'],
      ]),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().errors.map(({ line, message }: { line: number; message: string }) => ({ line, message }))).toEqual([
      { line: 3, message: 'Plant FR03 is not one of the plants of stock.admin@example.com (DE02, FI01)' },
      // The order's own plant is not named: another plant's order is not the uploader's to read about.
      { line: 4, message: `Service order ${lyonOrder.id} cannot be written in the plants of stock.admin@example.com (DE02, FI01)` },
      { line: 5, message: "user_email julien.martin@parts.example is not an approved user of plant FI01; name a user of the order's plant, or leave it empty" },
      { line: 6, message: "user_email nobody@example.com is not an approved user of plant DE02; name a user of the order's plant, or leave it empty" },
      { line: 7, message: "user_email pending@example.com is not an approved user of plant DE02; name a user of the order's plant, or leave it empty" },
      { line: 8, message: "user_email expired@example.com is not an approved user of plant FI01; name a user of the order's plant, or leave it empty" },
    ]);
    expect(res.json().message).toMatch(/^Nothing was queued: 6 lines are outside what you may change\. line 3: Plant FR03 .*; line 7: user_email pending@example\.com .*; and 1 more\.$/);
    expect(await filesNamed(name)).toEqual([]);
    const [lyon] = await db().select().from(orders).where(eq(orders.id, lyonOrder.id));
    expect(lyon!.plant).toBe('FR03');
  });

  it('applies a stock admin’s ORDERS file of their plants naming a mechanic of the plant (or keeping the order’s own)', async () => {
    const [fiOrder] = await db()
      .select()
      .from(orders)
      .where(and(eq(orders.plant, 'FI01'), sql`${orders.userEmail} is not null`, ne(orders.userEmail, 'mechanic@example.com')))
      .limit(1);
    const name = nameFor('ORDERS');
    const res = await upload(
      'stock.admin@example.com',
      name,
      csv(ORDER_FIELDS, [
        ['4999100011', 10, 'FI01', 'MAT-S-11', 'Door roller', 'PC', 'Mechanic@Example.com'],
        ['4999100012', 10, 'DE02', 'MAT-S-12', 'Door roller', 'PC', ''],
        [fiOrder!.id, 991, 'FI01', 'MAT-S-13', 'Extra item', 'PC', fiOrder!.userEmail!],
      ]),
    );
    expect(res.statusCode, res.body).toBe(202);
    await process();
    expect((await filesNamed(name))[0]).toMatchObject({ status: 'processed', errors: [] });
    const [created] = await db().select().from(orders).where(eq(orders.id, '4999100011'));
    // Kept in lower case, as signed-in users' addresses are: the mechanic sees it as addressed to them.
    expect(created).toMatchObject({ plant: 'FI01', userEmail: 'mechanic@example.com' });
  });

  it('lets a super manager upload any plant and any user_email, as before', async () => {
    const name = nameFor('ORDERS');
    const res = await upload('manager@example.com', name, csv(ORDER_FIELDS, [['4999100021', 10, 'FR03', 'MAT-S-21', 'Door roller', 'PC', 'someone.new@example.com']]));
    expect(res.statusCode, res.body).toBe(202);
    await process();
    expect((await filesNamed(name))[0]).toMatchObject({ status: 'processed' });
  });

  it('checks again when the file is applied: a plant withdrawn after the upload errors the file, nothing applied', async () => {
    const name = nameFor('STOCK');
    const before = await quantityOf(stockOf.DE02!.id);
    expect((await upload('stock.admin@example.com', name, csv(STOCK_FIELDS, [stockLine('FI01', '31'), stockLine('DE02', '32')]))).statusCode).toBe(202);
    const [admin] = await db().select().from(users).where(eq(users.email, 'stock.admin@example.com'));
    const withdrawn = and(eq(userAttachments.userId, admin!.id), eq(userAttachments.kind, 'plant'), eq(userAttachments.code, 'DE02'));
    const [attachment] = await db().select().from(userAttachments).where(withdrawn);
    await db().delete(userAttachments).where(withdrawn);
    try {
      await process();
      const [row] = await filesNamed(name);
      expect(row).toMatchObject({ status: 'errored', errors: [{ line: 3, message: 'Plant DE02 is not one of the plants of stock.admin@example.com (FI01)' }] });
      expect(await quantityOf(stockOf.DE02!.id)).toBe(before);
      expect(await quantityOf(stockOf.FI01!.id)).not.toBe('31');
    } finally {
      await db().insert(userAttachments).values(attachment!);
      product.invalidateCaches();
    }
  });

  it('errors a queued upload whose uploader lost the right to upload', async () => {
    const name = nameFor('STOCK');
    expect((await upload('stock.admin@example.com', name, csv(STOCK_FIELDS, [stockLine('FI01', '41')]))).statusCode).toBe(202);
    const [admin] = await db().select().from(users).where(eq(users.email, 'stock.admin@example.com'));
    const grant = and(eq(userGrants.userId, admin!.id), eq(userGrants.grantId, 'stock_admin'));
    await db().delete(userGrants).where(grant);
    try {
      await process();
      expect((await filesNamed(name))[0]).toMatchObject({ status: 'errored', errors: [{ line: null, message: 'The roles of stock.admin@example.com do not allow uploading ERP files.' }] });
      expect(await quantityOf(stockOf.FI01!.id)).not.toBe('41');
    } finally {
      await db().insert(userGrants).values({ userId: admin!.id, grantId: 'stock_admin' });
      product.invalidateCaches();
    }
  });

  it('errors a queued upload whose uploader expired meanwhile, coded for the reader’s language', async () => {
    const name = nameFor('STOCK');
    expect((await upload('stock.admin@example.com', name, csv(STOCK_FIELDS, [stockLine('FI01', '43')]))).statusCode).toBe(202);
    const [admin] = await db().select().from(users).where(eq(users.email, 'stock.admin@example.com'));
    await db().update(users).set({ expirationDate: '2020-01-01' }).where(eq(users.id, admin!.id));
    try {
      await process();
      expect((await filesNamed(name))[0]).toMatchObject({
        status: 'errored',
        errors: [
          {
            line: null,
            message: 'The uploader stock.admin@example.com may no longer upload files (removed, expired or not approved).',
            code: 'erpUploaderGone',
            params: { email: 'stock.admin@example.com' },
          },
        ],
      });
      expect(await quantityOf(stockOf.FI01!.id)).not.toBe('43');
    } finally {
      await db().update(users).set({ expirationDate: admin!.expirationDate }).where(eq(users.id, admin!.id));
      product.invalidateCaches();
    }
  });

  it('trusts inbox files from the ERP itself, whatever the plant', async () => {
    const { file } = await registerFile(db(), { fileName: nameFor('STOCK'), content: csv(STOCK_FIELDS, [stockLine('FR03', '51')]), source: 'inbox' });
    await process();
    expect((await db().select().from(fileProcessing).where(eq(fileProcessing.id, file.id)))[0]!.status).toBe('processed');
    expect(await quantityOf(stockOf.FR03!.id)).toBe('51');
  });
});

/**
 * Review of #20: holders of a ship-to-party number see its orders in any plant (§6), so an ORDERS
 * line naming another plant's number showed the order, and whatever destination and delivery
 * address it carried, to that plant's people. A stock admin's line may name only a number of
 * their own plants, the order's own number, or none.
 */
describe.each(ENGINES)('ERP upload scope: ship_to_party on %s', (engine) => {
  let product: TestProduct;
  const db = () => product.database.db;
  const FIELDS = [...ORDER_FIELDS, 'ship_to_party', 'destination', 'delivery_address'];
  const ADMIN = 'stock.admin@example.com';
  const OUTSIDE = (code: string) =>
    `ship_to_party ${code} is not a ship-to-party number of the plants of ${ADMIN} (DE02, FI01); name one of those plants' numbers, or leave it empty`;
  /** An order line of the seed's shape with a ship-to-party number, a destination and an address. */
  const line = (order: string, lineNumber: number, plant: string, shipTo: string) => [order, lineNumber, plant, 'MAT-STP-1', 'Door roller', 'PC', '', shipTo, 'Lobby', 'Somewhere 1'];
  const upload = async (who: string, fileName: string, payload: string) =>
    product.app.inject({
      method: 'POST',
      url: `/user_api/v1/dashboard/files?fileName=${encodeURIComponent(fileName)}`,
      headers: { ...bearer(await product.token(who)), 'content-type': 'text/csv' },
      payload,
    });
  const filesNamed = async (fileName: string) => db().select().from(fileProcessing).where(eq(fileProcessing.fileName, fileName));
  const orderOf = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0];
  const process = () => processPending(db(), { workerId: 'scope-stp-test', leaseSeconds: 60 });
  let fiOrder: typeof orders.$inferSelect;

  beforeAll(async () => {
    product = await createTestProduct(engine);
    const [order] = await db().select().from(orders).where(and(eq(orders.plant, 'FI01'), sql`${orders.shipToParty} like '005001%'`)).limit(1);
    fiOrder = order!;
  });
  afterAll(async () => product?.close());

  it('refuses a stock admin’s ORDERS lines naming another plant’s or an unknown number: 403 naming the lines, nothing queued or changed', async () => {
    const name = nameFor('ORDERS');
    const res = await upload(
      ADMIN,
      name,
      csv(FIELDS, [
        line('4999200001', 10, 'FI01', '0050030001'),
        line(fiOrder.id, 992, 'FI01', '0050030002'),
        line('4999200002', 10, 'DE02', '0099999999'),
        line('4999200003', 10, 'FI01', '0050010001'),
      ]),
    );
    expect(res.statusCode).toBe(403);
    // Another plant's number and an unknown one read alike: nothing is told about other plants.
    expect(res.json().errors.map(({ line, message }: { line: number; message: string }) => ({ line, message }))).toEqual([
      { line: 2, message: OUTSIDE('0050030001') },
      { line: 3, message: OUTSIDE('0050030002') },
      { line: 4, message: OUTSIDE('0099999999') },
    ]);
    expect(res.json().message).toContain(`line 2: ${OUTSIDE('0050030001')}`);
    expect(await filesNamed(name)).toEqual([]);
    await process();
    expect(await orderOf('4999200001')).toBeUndefined();
    expect((await orderOf(fiOrder.id))!.shipToParty).toBe(fiOrder.shipToParty);
  });

  it('applies lines with no number, a number of any of the admin’s plants, or the order’s own number', async () => {
    // The ERP may have given an order another plant's number; restating it changes nothing.
    const [moved] = await db().select().from(orders).where(and(eq(orders.plant, 'FI01'), sql`${orders.id} <> ${fiOrder.id}`)).limit(1);
    await db().update(orders).set({ shipToParty: '0050030003' }).where(eq(orders.id, moved!.id));
    const name = nameFor('ORDERS');
    const res = await upload(
      ADMIN,
      name,
      csv(FIELDS, [line('4999200011', 10, 'FI01', ''), line('4999200012', 10, 'FI01', '0050020002'), line(moved!.id, 993, 'FI01', '0050030003')]),
    );
    expect(res.statusCode, res.body).toBe(202);
    await process();
    expect((await filesNamed(name))[0]).toMatchObject({ status: 'processed', errors: [] });
    expect(await orderOf('4999200012')).toMatchObject({ plant: 'FI01', shipToParty: '0050020002' });
    expect((await orderOf(moved!.id))!.shipToParty).toBe('0050030003');
  });

  it('checks again when the file is applied: a number moved to another plant after the upload errors the file, nothing applied', async () => {
    const name = nameFor('ORDERS');
    expect((await upload(ADMIN, name, csv(FIELDS, [line('4999200021', 10, 'FI01', '0050010004')]))).statusCode).toBe(202);
    await db().update(shipToParties).set({ plant: 'FR03' }).where(eq(shipToParties.code, '0050010004'));
    try {
      await process();
      expect((await filesNamed(name))[0]).toMatchObject({ status: 'errored', errors: [{ line: 2, message: OUTSIDE('0050010004') }] });
      expect(await orderOf('4999200021')).toBeUndefined();
    } finally {
      await db().update(shipToParties).set({ plant: 'FI01' }).where(eq(shipToParties.code, '0050010004'));
    }
  });

  it('lets a super manager name any number, and trusts inbox files from the ERP itself', async () => {
    const name = nameFor('ORDERS');
    expect((await upload('manager@example.com', name, csv(FIELDS, [line('4999200031', 10, 'FI01', '0050030004')]))).statusCode).toBe(202);
    const { file } = await registerFile(db(), { fileName: nameFor('ORDERS'), content: csv(FIELDS, [line('4999200032', 10, 'FI01', '0050030004')]), source: 'inbox' });
    await process();
    expect((await filesNamed(name))[0]).toMatchObject({ status: 'processed' });
    expect((await db().select().from(fileProcessing).where(eq(fileProcessing.id, file.id)))[0]!.status).toBe('processed');
    expect(await orderOf('4999200031')).toMatchObject({ shipToParty: '0050030004' });
    expect(await orderOf('4999200032')).toMatchObject({ shipToParty: '0050030004' });
  });
});
