import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { createLocalErpAdapter } from '../../server/erp/adapter';
import { rowsOf } from '../../server/db/client';
import { stockCounts, stockItems } from '../../server/db/schema';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

/** Seed facts (deterministic): the demo mechanic's counts in FI01, van V001. */
const COUNT = { initiatedWallToWall: 27, inProgress: 2, completed: 4, error: 6, recount: 7, draft: 8, otherMechanics: 32 };

describe.each(ENGINES)('material counts on %s', (engine) => {
  let product: TestProduct;
  let failing: TestProduct;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    [product, failing] = await Promise.all([
      createTestProduct(engine),
      createTestProduct(engine, {}, createLocalErpAdapter({ failure: 'always' })),
    ]);
    for (const who of ['mechanic', 'supervisor', 'viewer', 'manager']) tokens[who] = await product.token(`${who}@example.com`);
  });
  afterAll(async () => {
    await product?.close();
    await failing?.close();
  });

  const api = (
    who: string,
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
    key?: string,
    target = product,
  ) =>
    target.app.inject({
      method,
      url: `/api/v2${url}`,
      headers: { ...bearer(tokens[who] ?? who), ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });

  const lines = async (id: number, who = 'mechanic', extra = '') => (await api(who, 'GET', `/my_material_count?stockCountId=${id}&maxResults=500${extra}&page=1`)).json();
  const count = async (id: number, who = 'mechanic') => (await api(who, 'GET', `/my_stock_count?stockCountId=${id}&page=1&maxResults=20`)).json().stock_counts[0];

  it('lists a count’s lines in pages of 20, quantity ascending with the uncounted first', async () => {
    const res = await api('mechanic', 'GET', `/my_material_count?stockCountId=${COUNT.inProgress}&page=1&maxResults=20`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, has_prev: false, has_next: true, total: 40, pages: 2 });
    expect(body.material_counts).toHaveLength(20);
    const quantities = body.material_counts.map((l: { quantity: number | null }) => l.quantity);
    expect(quantities.slice(0, 20).every((q: number | null) => q === null)).toBe(true);
    const all = (await lines(COUNT.inProgress)).material_counts.map((l: { quantity: number | null }) => l.quantity).filter((q: number | null) => q !== null);
    expect(all).toEqual([...all].sort((a, b) => a - b));
  });

  it('searches lines by material code or description', async () => {
    const first = (await lines(COUNT.inProgress)).material_counts[0];
    const found = await lines(COUNT.inProgress, 'mechanic', `&query=${encodeURIComponent(first.material_code)}`);
    expect(found.material_counts.map((l: { id: number }) => l.id)).toContain(first.id);
    expect(found.total).toBeLessThan(40);
  });

  it('hides another mechanic’s count and refuses bad parameters with a message', async () => {
    expect((await api('mechanic', 'GET', `/my_material_count?stockCountId=${COUNT.otherMechanics}&page=1&maxResults=20`)).statusCode).toBe(404);
    expect((await api('supervisor', 'GET', `/my_material_count?stockCountId=${COUNT.otherMechanics}&page=1&maxResults=20`)).statusCode).toBe(200);
    // A draft is not yet sent to the mechanic it names.
    expect((await api('mechanic', 'GET', `/my_material_count?stockCountId=${COUNT.draft}&page=1&maxResults=20`)).statusCode).toBe(404);
    expect((await api('supervisor', 'GET', `/my_material_count?stockCountId=${COUNT.draft}&page=1&maxResults=20`)).statusCode).toBe(200);
    const listed = (await api('mechanic', 'GET', '/my_stock_count?maxResults=500&page=1')).json().stock_counts.map((c: { id: number }) => c.id);
    expect(listed).toContain(COUNT.inProgress);
    expect(listed).not.toContain(COUNT.draft);
    expect(listed).not.toContain(COUNT.otherMechanics);
    const bad = await api('mechanic', 'GET', '/my_material_count?stockCountId=abc&page=1&maxResults=20');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('stockCountId');
    const sort = await api('mechanic', 'GET', `/my_material_count?stockCountId=2&orderByColumn=password&page=1&maxResults=20`);
    expect(sort.statusCode).toBe(400);
    expect(sort.json().message).toContain('orderByColumn must be one of');
  });

  it('accepts a book quantity only as it is now: another value is a conflict showing the current one, nothing written', async () => {
    const [line] = (await lines(COUNT.inProgress)).material_counts;
    const res = await api('mechanic', 'PUT', '/my_material_count', {
      modifiedMaterials: [{ id: line.id, quantity: 2, version: line.version, acceptBookQuantity: (line.book_quantity_now ?? 0) + 1000 }],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(`The book quantity is no longer the one accepted for ${line.material_code}: choose again.`);
    expect(res.json().conflicts).toEqual([expect.objectContaining({ id: line.id, book_quantity_now: line.book_quantity_now, version: line.version })]);
    expect((await lines(COUNT.inProgress)).material_counts.find((l: { id: number }) => l.id === line.id)).toMatchObject({
      quantity: line.quantity,
      book_quantity: line.book_quantity,
      version: line.version,
    });
  });

  it('moves an initiated count to in progress on the first quantity edit and bumps the line version', async () => {
    const [line] = (await lines(COUNT.initiatedWallToWall)).material_counts;
    expect((await count(COUNT.initiatedWallToWall)).status).toBe('initiated');
    const res = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line.id, quantity: 4, version: line.version }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().material_counts[0]).toMatchObject({ id: line.id, quantity: 4, version: line.version + 1, updated_by: 'mechanic@example.com' });
    expect(res.json().stock_counts).toEqual([{ id: COUNT.initiatedWallToWall, status: 'in_progress' }]);
    expect((await count(COUNT.initiatedWallToWall)).status).toBe('in_progress');
  });

  it('keeps a quantity in thousandths: a floating-point sum such as 1.001 + 1 is written as 2.001', async () => {
    const line = (await lines(COUNT.inProgress)).material_counts.find((l: { quantity: number | null }) => l.quantity !== null);
    const res = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line.id, quantity: 1.001 + 1, version: line.version }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().material_counts[0].quantity).toBe(2.001);
    const stored = rowsOf<{ quantity: string }>(await product.database.db.execute(sql`select quantity::text as quantity from material_counts where id = ${line.id}`));
    expect(stored[0]!.quantity).toBe('2.001');
  });

  it('writes every line of one request in request order, each with its own book choice, versions bumped once', async () => {
    const [a, b, c] = (await lines(COUNT.inProgress)).material_counts;
    const res = await api('mechanic', 'PUT', '/my_material_count', {
      modifiedMaterials: [
        { id: c.id, quantity: 9, version: c.version, acceptBookQuantity: c.book_quantity_now },
        { id: a.id, quantity: 1.5, version: a.version },
        { id: b.id, quantity: 0, version: b.version, acceptBookQuantity: b.book_quantity_now },
      ],
    });
    expect(res.statusCode).toBe(200);
    const written = res.json().material_counts;
    expect(written.map((l: { id: number }) => l.id)).toEqual([c.id, a.id, b.id]);
    expect(written[0]).toMatchObject({ quantity: 9, book_quantity: c.book_quantity_now, version: c.version + 1, updated_by: 'mechanic@example.com' });
    expect(written[1]).toMatchObject({ quantity: 1.5, book_quantity: a.book_quantity, book_quantity_at: a.book_quantity_at, version: a.version + 1 });
    expect(written[2]).toMatchObject({ quantity: 0, book_quantity: b.book_quantity_now, version: b.version + 1 });
    // A book quantity accepted is taken now; no choice leaves the line's time.
    for (const taken of [written[0], written[2]]) expect(new Date(taken.book_quantity_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const after = (await lines(COUNT.inProgress)).material_counts;
    for (const line of written) expect(after.find((l: { id: number }) => l.id === line.id)).toMatchObject({ quantity: line.quantity, version: line.version, book_quantity: line.book_quantity });
  });

  // Several counters on one count (#16, #18): an edit in flight holds a share of its count and its
  // own lines (what the route takes, server/routes/stock/material-count.ts), held open here in a
  // session of its own. PostgreSQL only: PGlite has one session.
  it.skipIf(engine !== 'postgres')('lets edits of other lines of a count go on beside an edit in flight; an edit of the same line waits for it', async () => {
    const [held, other] = (await lines(COUNT.inProgress)).material_counts;
    const inFlight = new pg.Client({ connectionString: product.database.databaseUrl });
    await inFlight.connect();
    try {
      await inFlight.query('begin');
      await inFlight.query('select id from stock_counts where id = $1 for share', [COUNT.inProgress]);
      await inFlight.query('select id from material_counts where id = $1 for update', [held.id]);
      const settled = (call: Promise<{ statusCode: number }>) =>
        Promise.race([call.then((res) => res.statusCode), new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 30 s'), 30_000).unref())]);
      // Under a FOR UPDATE of the count row, this edit waited for the one in flight.
      expect(await settled(api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: other.id, quantity: 3, version: other.version }] }))).toBe(200);
      const same = api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: held.id, quantity: 5, version: held.version }] });
      // It waits on the line's lock (a session of this database waiting for a lock), and goes on
      // once the other commits.
      let waiting = 0;
      for (let i = 0; i < 200 && waiting === 0; i += 1) {
        const { rows } = await inFlight.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        waiting = rows[0]!.n;
        if (waiting === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(waiting).toBe(1);
      await inFlight.query('commit');
      expect((await same).statusCode).toBe(200);
      const after = (await lines(COUNT.inProgress)).material_counts;
      expect(after.find((l: { id: number }) => l.id === other.id)).toMatchObject({ quantity: 3, version: other.version + 1 });
      expect(after.find((l: { id: number }) => l.id === held.id)).toMatchObject({ quantity: 5, version: held.version + 1 });
    } finally {
      await inFlight.query('rollback').catch(() => undefined);
      await inFlight.end();
    }
  });

  // An initiated count is locked for update by each edit (the first one moves it to in progress):
  // edits that arrive at once take turns instead of each holding a share and then writing the row
  // (a deadlock). On PGlite the calls run one after another anyway.
  it('takes edits that arrive at once on an initiated count one after another: every one applied, the count in progress', async () => {
    const created = await api('supervisor', 'POST', '/my_stock_count', { plant: 'FI01', storageLocation: 'V001', type: 'wall_to_wall', conductedBy: 'mechanic@example.com' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const some = (await lines(id)).material_counts.slice(0, 4) as Array<{ id: number; version: number }>;
    expect(some).toHaveLength(4);
    const answers = await Promise.all(some.map((line, i) => api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line.id, quantity: i + 1, version: line.version }] })));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    expect((await count(id)).status).toBe('in_progress');
    const after = (await lines(id)).material_counts as Array<{ id: number; quantity: number | null }>;
    some.forEach((line, i) => expect(after.find((l) => l.id === line.id)?.quantity).toBe(i + 1));
  });

  it('replays the first response byte for byte for a repeated Idempotency-Key, and applies it once', async () => {
    const line = (await lines(COUNT.initiatedWallToWall)).material_counts[5];
    const body = { modifiedMaterials: [{ id: line.id, quantity: 7, version: line.version }] };
    const first = await api('mechanic', 'PUT', '/my_material_count', body, 'edit-key-0001');
    const second = await api('mechanic', 'PUT', '/my_material_count', body, 'edit-key-0001');
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    const after = (await lines(COUNT.initiatedWallToWall)).material_counts.find((l: { id: number }) => l.id === line.id);
    expect(after.version).toBe(line.version + 1);
  });

  it('a body sent to a call that takes none is ignored, also one nested thousands deep (it was a 500)', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const call = (payload?: string) =>
      product.app.inject({
        method: 'DELETE',
        url: '/api/v2/my_material_count?materialCountId=99999999',
        headers: { ...bearer(tokens.mechanic!), ...(payload ? { 'content-type': 'application/json' } : {}) },
        payload,
      });
    const plain = await call();
    expect(plain.statusCode).toBeGreaterThanOrEqual(400);
    expect(plain.statusCode).toBeLessThan(500);
    const nested = await call(deep);
    expect(nested.statusCode, nested.body).toBe(plain.statusCode);
    expect(nested.json().message).toBe(plain.json().message);
  });

  it('answers 422 when a key is reused for a different request, and keeps keys per user', async () => {
    const line = (await lines(COUNT.initiatedWallToWall)).material_counts[6];
    await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line.id, quantity: 1 }] }, 'edit-key-0002');
    const reuse = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line.id, quantity: 2 }] }, 'edit-key-0002');
    expect(reuse.statusCode).toBe(422);
    expect(reuse.json().message).toContain('Idempotency-Key');
    const otherUser = await api('supervisor', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line.id, quantity: 3 }] }, 'edit-key-0002');
    expect(otherUser.statusCode).toBe(200);
    const bad = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line.id, quantity: 3 }] }, 'x');
    expect(bad.statusCode).toBe(400);
  });

  it('refuses a stale edit whose value differs with 409 naming the lines and their server values, applying nothing', async () => {
    const [a, b] = (await lines(COUNT.inProgress)).material_counts;
    await api('supervisor', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: a.id, quantity: 11, version: a.version }] });
    const res = await api('mechanic', 'PUT', '/my_material_count', {
      modifiedMaterials: [
        { id: a.id, quantity: 12, version: a.version },
        { id: b.id, quantity: 5, version: b.version },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain(a.material_code);
    expect(res.json().conflicts).toEqual([expect.objectContaining({ id: a.id, quantity: 11, version: a.version + 1, updated_by: 'supervisor@example.com' })]);
    const untouched = (await lines(COUNT.inProgress)).material_counts.find((l: { id: number }) => l.id === b.id);
    expect(untouched.quantity).toBe(b.quantity);
    // The same stale version with the server's value is no conflict.
    const same = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: a.id, quantity: 11, version: a.version }] });
    expect(same.statusCode).toBe(200);
  });

  it('refuses edits on closed counts with 409, and bad quantities with the §5 message', async () => {
    const [closed] = (await lines(COUNT.completed)).material_counts;
    const res = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: closed.id, quantity: 1 }] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: `Stock count ${COUNT.completed} is completed and can no longer be changed`, code: 'stockCountIsCompleted', params: { id: COUNT.completed } });
    const [open] = (await lines(COUNT.inProgress)).material_counts;
    // Each refusal names the rule the quantity broke (0.0001 was told "greater than or equal to 0").
    for (const [quantity, message] of [
      [-1, 'Quantity should be greater than or equal to 0'],
      ['ten', 'Quantity should be greater than or equal to 0'],
      [1.0005, 'Quantity may have at most 3 decimals'],
      [0.0001, 'Quantity may have at most 3 decimals'],
      [1e15, 'Quantity must be less than 1,000,000,000'],
    ] as const) {
      const bad = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: open.id, quantity }] });
      expect(bad.statusCode, String(quantity)).toBe(400);
      expect(bad.json().message, String(quantity)).toContain(message);
    }
    const twice = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: open.id, quantity: 1 }, { id: open.id, quantity: 2 }] });
    expect(twice.statusCode).toBe(400);
    expect((await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: 999999, quantity: 1 }] })).statusCode).toBe(404);
  });

  it('lets the mechanic add a material once and take back only that uncounted line; supervisors delete lines', async () => {
    const catalogue = (await api('mechanic', 'GET', '/my_material?materialCode=&maxResults=50')).json();
    const present = new Set((await lines(COUNT.recount)).material_counts.map((l: { material_code: string }) => l.material_code));
    const material = catalogue.my_material_items.find((m: { material_code: string }) => !present.has(m.material_code));
    const add = await api('mechanic', 'POST', '/my_material_count', { stockCountId: COUNT.recount, materialCode: material.material_code });
    expect(add.statusCode).toBe(201);
    expect(add.json()).toMatchObject({ material_code: material.material_code, quantity: null, version: 0 });
    // Added again (a colleague's add, or this one resent after its answer was lost): answered with
    // the line that is there, so quantities waiting on a device land on it.
    const again = await api('mechanic', 'POST', '/my_material_count', { stockCountId: COUNT.recount, materialCode: material.material_code });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(add.json());
    expect((await lines(COUNT.recount)).total).toBe(present.size + 1);
    const unknown = await api('mechanic', 'POST', '/my_material_count', { stockCountId: COUNT.recount, materialCode: 'NOPE' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'materialNotFound', params: { code: 'NOPE' } });

    expect(add.json().updated_by).toBe('mechanic@example.com');
    // A line of the plan, and a line the mechanic added but counted, stay: only planners delete them.
    const planned = (await lines(COUNT.recount)).material_counts.find((l: { id: number }) => l.id !== add.json().id);
    const refusal = await api('mechanic', 'DELETE', `/my_material_count?materialCountId=${planned.id}`);
    expect(refusal.statusCode).toBe(403);
    expect(refusal.json().message).toBe('Permission denied: your roles do not allow materialCount.delete');
    const counted = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: add.json().id, quantity: 2 }] });
    expect(counted.statusCode).toBe(200);
    // Counted meanwhile: the answer carries its quantity and version, so a device's waiting edit made
    // from the new line (version 0) is a conflict it shows, not an overwrite.
    const counting = await api('mechanic', 'POST', '/my_material_count', { stockCountId: COUNT.recount, materialCode: material.material_code });
    expect(counting.statusCode).toBe(200);
    expect(counting.json()).toMatchObject({ id: add.json().id, quantity: 2, version: 1 });
    expect((await api('mechanic', 'DELETE', `/my_material_count?materialCountId=${add.json().id}`)).statusCode).toBe(403);
    const del = await api('supervisor', 'DELETE', `/my_material_count?materialCountId=${add.json().id}`);
    expect(del.statusCode).toBe(200);
    expect((await lines(COUNT.recount)).total).toBe(present.size);
    // An addition taken back before anyone counted it (an offline add, undone).
    const again2 = await api('mechanic', 'POST', '/my_material_count', { stockCountId: COUNT.recount, materialCode: material.material_code });
    expect(again2.statusCode).toBe(201);
    expect((await api('viewer', 'DELETE', `/my_material_count?materialCountId=${again2.json().id}`)).statusCode).toBe(403);
    const undo = await api('mechanic', 'DELETE', `/my_material_count?materialCountId=${again2.json().id}`);
    expect(undo.statusCode).toBe(200);
    expect((await lines(COUNT.recount)).total).toBe(present.size);
  });

  // PostgreSQL only (a second session): a take-back that waits for an edit in flight reads the line
  // again once it holds the count, and refuses when the edit counted it.
  it.skipIf(engine !== 'postgres')('does not let a counter take back a line that an edit in flight counts', async () => {
    const catalogue = (await api('mechanic', 'GET', '/my_material?materialCode=&maxResults=50')).json();
    const present = new Set((await lines(COUNT.inProgress)).material_counts.map((l: { material_code: string }) => l.material_code));
    const material = catalogue.my_material_items.find((m: { material_code: string }) => !present.has(m.material_code));
    const add = await api('mechanic', 'POST', '/my_material_count', { stockCountId: COUNT.inProgress, materialCode: material.material_code });
    expect(add.statusCode).toBe(201);
    const inFlight = new pg.Client({ connectionString: product.database.databaseUrl });
    await inFlight.connect();
    try {
      // Another counter's edit of the line, not yet committed: it shares the count and counted the line.
      await inFlight.query('begin');
      await inFlight.query('select id from stock_counts where id = $1 for share', [COUNT.inProgress]);
      await inFlight.query("update material_counts set quantity = 3, version = version + 1, updated_by = 'mikko.virtanen@lift.example' where id = $1", [add.json().id]);
      const takeBack = api('mechanic', 'DELETE', `/my_material_count?materialCountId=${add.json().id}`);
      let waiting = 0;
      for (let i = 0; i < 200 && waiting === 0; i += 1) {
        const { rows } = await inFlight.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
        waiting = rows[0]!.n;
        if (waiting === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(waiting).toBe(1);
      await inFlight.query('commit');
      // It read version 0 by the mechanic before the edit committed; under the count's lock it sees the count.
      expect((await takeBack).statusCode).toBe(403);
    } finally {
      await inFlight.query('rollback').catch(() => undefined);
      await inFlight.end();
    }
    expect((await lines(COUNT.inProgress)).material_counts.find((l: { id: number }) => l.id === add.json().id)).toMatchObject({ quantity: 3 });
    expect((await api('supervisor', 'DELETE', `/my_material_count?materialCountId=${add.json().id}`)).statusCode).toBe(200);
  });

  it('gives the read-only manager no write', async () => {
    const [line] = (await lines(COUNT.inProgress, 'manager')).material_counts;
    expect((await api('viewer', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: line.id, quantity: 1 }] })).statusCode).toBe(403);
    expect((await api('viewer', 'GET', `/my_stock_count/submit?stockCountId=${COUNT.inProgress}`)).statusCode).toBe(403);
  });

  it('submits only a fully counted count, then books it: completed with its document number', async () => {
    const refused = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${COUNT.recount}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/not counted yet/);
    expect(refused.json()).toMatchObject({ code: 'submitNotCounted', params: { count: expect.any(Number) } });
    const all = (await lines(COUNT.recount)).material_counts;
    const put = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: all.map((l: { id: number }, i: number) => ({ id: l.id, quantity: i })) });
    expect(put.statusCode).toBe(200);
    const submit = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${COUNT.recount}`, undefined, 'submit-key-0001');
    expect(submit.statusCode).toBe(200);
    expect(submit.json()).toMatchObject({ id: COUNT.recount, status: 'completed', latest_sap_error: null });
    expect(submit.json().physical_inventory_document_number).toMatch(/^\d{12}$/);
    const replay = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${COUNT.recount}`, undefined, 'submit-key-0001');
    expect(replay.body).toBe(submit.body);
    // Booked: submitting it again (no key) is answered with the count as booked, not a 409
    // (decision 0053: nothing is left to do, and the ERP is not asked again).
    const again = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${COUNT.recount}`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'completed', physical_inventory_document_number: submit.json().physical_inventory_document_number });
  });

  it('flags counted lines whose book quantity moved, refuses submit until the counter chooses, and applies the choice', async () => {
    // Count every line of the error count (status error is still editable), then move the book of two of them.
    const all = (await lines(COUNT.error)).material_counts;
    const put = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: all.map((l: { id: number }) => ({ id: l.id, quantity: 3 })) });
    expect(put.statusCode).toBe(200);
    expect(put.json().material_counts.every((l: { book_quantity: number | null; book_quantity_now: number | null }) => l.book_quantity_now === l.book_quantity)).toBe(true);
    const [header] = await product.database.db.select().from(stockCounts).where(eq(stockCounts.id, COUNT.error));
    const withBook = all.filter((l: { book_quantity: number | null }) => l.book_quantity !== null).slice(0, 2);
    expect(withBook).toHaveLength(2);
    for (const line of withBook) {
      await product.database.db
        .update(stockItems)
        .set({ unrestrictedCount: sql`${stockItems.unrestrictedCount} + 2` })
        .where(and(eq(stockItems.plant, header!.plant), eq(stockItems.storageLocation, header!.storageLocation), eq(stockItems.materialCode, line.material_code)));
    }
    const flagged = (await lines(COUNT.error)).material_counts.filter(
      (l: { book_quantity: number; book_quantity_now: number }) => l.book_quantity_now !== l.book_quantity,
    );
    expect(flagged.map((l: { id: number }) => l.id).sort()).toEqual(withBook.map((l: { id: number }) => l.id).sort());
    expect(flagged[0].book_quantity_now).toBe(flagged[0].book_quantity + 2);

    const refused = await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${COUNT.error}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('book quantity changed');
    expect(refused.json()).toMatchObject({ code: 'submitBookMoved', params: { count: 2 } });
    for (const line of withBook) expect(refused.json().message).toContain(line.material_code);

    // Keep counted on the first, keep the difference (3 + 2) on the second.
    const [first, second] = flagged;
    const choose = await api('mechanic', 'PUT', '/my_material_count', {
      modifiedMaterials: [
        { id: first.id, quantity: 3, version: first.version, acceptBookQuantity: first.book_quantity_now },
        { id: second.id, quantity: 5, version: second.version, acceptBookQuantity: second.book_quantity_now },
      ],
    });
    expect(choose.statusCode).toBe(200);
    const after = (await lines(COUNT.error)).material_counts;
    const byId = (id: number) => after.find((l: { id: number }) => l.id === id);
    expect(byId(first.id)).toMatchObject({ quantity: 3, book_quantity: first.book_quantity_now, book_quantity_now: first.book_quantity_now });
    expect(byId(second.id)).toMatchObject({ quantity: 5, book_quantity: second.book_quantity_now });
    expect(new Date(byId(first.id).book_quantity_at).getTime()).toBeGreaterThan(new Date(first.book_quantity_at).getTime());
    const bad = await api('mechanic', 'PUT', '/my_material_count', { modifiedMaterials: [{ id: first.id, quantity: 3, acceptBookQuantity: 'many' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('acceptBookQuantity must be a number');
    expect((await api('mechanic', 'GET', `/my_stock_count/submit?stockCountId=${COUNT.error}`)).statusCode).toBe(200);
  });

  it('records the ERP’s refusal as status error with latest_sap_error', async () => {
    const token = await failing.token('mechanic@example.com');
    const res = await failing.app.inject({ method: 'GET', url: `/api/v2/my_stock_count/submit?stockCountId=${COUNT.error}`, headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('error');
    expect(JSON.parse(res.json().latest_sap_error)).toMatchObject({ type: 'E', code: expect.any(String), message: expect.any(String) });
  });
});
