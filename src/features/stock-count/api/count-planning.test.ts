/**
 * A planner's changes of a count keep their order: one made online while an earlier one of the same
 * count still waits in the outbox goes behind it (a Send after an offline Edit naming who counts),
 * and the list's cards know what waits per count.
 */
import 'fake-indexeddb/auto';
import { HTTPError } from 'ky';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { updateStockCountBody, type StockCountRow } from '../../../contract/stock';
import { offlineDb, type OutboxEntry } from '../../../offline/db';
import { KIND, PLANNING_SCOPE } from '../offline/count-sheet';
import { planChange, shownCount, updateStockCount, waitingPlans } from './count-planning';

const server = vi.hoisted(() => ({ calls: [] as Array<{ path: string; json: unknown; key?: string }>, row: {} as Record<string, unknown>, status: 200 }));
vi.mock('../../../lib/api-client', () => ({
  stockApi: (path: string, options: { json?: unknown; headers?: Record<string, string> }) => {
    server.calls.push({ path, json: options.json, key: options.headers?.['Idempotency-Key'] });
    return {
      json: async () => {
        if (server.status !== 200) throw new HTTPError(new Response(null, { status: server.status }), new Request('http://localhost/api/v2/my_stock_count'), {} as never);
        return server.row;
      },
    };
  },
  toSearchParams: () => new URLSearchParams(),
}));

const USER = 'planner@example.com';

const row = (id: number): StockCountRow => ({
  id,
  created: '2026-12-01T08:00:00Z',
  created_by: USER,
  plant: 'FI01',
  type: 'single',
  should_be_done_at: null,
  status: 'initiated',
  is_draft: false,
  storage_location: 'V001',
  conducted_by: 'mechanic@example.com',
  work_center: null,
  latest_sap_error: null,
  physical_inventory_document_number: null,
  total_lines: 1,
  counted_lines: 0,
});

const entry = (target: string, action: string, json: unknown, status: OutboxEntry['status'] = 'pending'): OutboxEntry => ({
  id: crypto.randomUUID(),
  userEmail: USER,
  kind: KIND.plan,
  scope: PLANNING_SCOPE,
  target,
  request: { service: 'stock', method: 'PUT', path: 'my_stock_count', json },
  status,
  createdAt: 0,
  attempts: 0,
  summary: { action },
});

beforeEach(async () => {
  await offlineDb.outbox.clear();
  server.calls.length = 0;
  server.row = row(5);
  server.status = 200;
});

describe('what waits per count', () => {
  it('lets Send go behind waiting edits, with the counter the last one names', () => {
    const plans = waitingPlans([
      entry('count:5', 'edit', { stockCountId: 5, conductedBy: 'Mechanic@example.com' }),
      entry('count:5', 'edit', { stockCountId: 5, workCenter: 'FI01M001' }),
      entry('new-count:abc', 'create', { plant: 'FI01' }),
    ]);
    expect([...plans.keys()]).toEqual([5]);
    expect(plans.get(5)).toEqual({ editsOnly: true, counter: 'mechanic@example.com', refused: false });
  });

  it('holds Send behind a cancel, a recount or a refused edit, whose counter does not count', () => {
    const plans = waitingPlans([
      entry('count:6', 'cancel', { stockCountId: 6, status: 'cancelled' }),
      entry('count:7', 'edit', { stockCountId: 7, conductedBy: 'mechanic@example.com' }, 'failed'),
      entry('count:8', 'recount', { stockCountId: 8 }),
    ]);
    expect(plans.get(6)).toEqual({ editsOnly: false, counter: null, refused: false });
    // Refused: it waits for the planner, and the card says so.
    expect(plans.get(7)).toEqual({ editsOnly: false, counter: null, refused: true });
    expect(plans.get(8)).toEqual({ editsOnly: false, counter: null, refused: false });
  });
});

describe('a planning change made online', () => {
  it('is sent at once when nothing of its count waits', async () => {
    const result = await updateStockCount(USER, 'send', { stockCountId: 5, draft: false });
    expect(result).toMatchObject({ queued: false, row: { id: 5 } });
    expect(server.calls).toEqual([{ path: 'my_stock_count', json: { stockCountId: 5, draft: false }, key: expect.any(String) }]);
    expect(await offlineDb.outbox.count()).toBe(0);
  });

  it('goes behind a change of the same count still waiting, and says so', async () => {
    await offlineDb.outbox.add(entry('count:5', 'edit', { stockCountId: 5, conductedBy: 'mechanic@example.com' }));
    const result = await planChange(USER, { action: 'send', stockCountId: 5 }, { stockCountId: 5, draft: false });
    expect(result).toEqual({ queued: true, behind: true });
    expect(server.calls).toHaveLength(0);
    const waiting = await offlineDb.outbox.orderBy('seq').toArray();
    expect(waiting.map((e) => [e.target, (e.summary as { action: string }).action])).toEqual([
      ['count:5', 'edit'],
      ['count:5', 'send'],
    ]);
  });

  it('is not held by the refused change it is made again for (Edit on a refused edit), but by any other', async () => {
    const refused = await offlineDb.outbox.add(entry('count:5', 'edit', { stockCountId: 5, conductedBy: 'mechanic@example.com' }, 'failed'));
    server.row = row(5);
    expect(await updateStockCount(USER, 'edit', { stockCountId: 5, conductedBy: 'mechanic@example.com' }, refused)).toMatchObject({ queued: false });
    expect(server.calls).toHaveLength(1);
    // Not made again for it: a change behind the refused one waits (as before).
    expect(await updateStockCount(USER, 'edit', { stockCountId: 5, conductedBy: 'mechanic@example.com' })).toEqual({ queued: true, behind: true });
    expect(server.calls).toHaveLength(1);
  });

  it('waits behind the change it was made again for once that one was retried meanwhile (it goes first, as queued)', async () => {
    const retried = await offlineDb.outbox.add(entry('count:5', 'edit', { stockCountId: 5, conductedBy: 'mechanic@example.com' }, 'pending'));
    expect(await updateStockCount(USER, 'edit', { stockCountId: 5, conductedBy: 'mechanic@example.com' }, retried)).toEqual({ queued: true, behind: true });
    expect(server.calls).toHaveLength(0);
  });

  it('is not held by another count’s, nor by another user’s, waiting change', async () => {
    await offlineDb.outbox.add(entry('count:6', 'edit', { stockCountId: 6 }));
    await offlineDb.outbox.add({ ...entry('count:5', 'edit', { stockCountId: 5 }), userEmail: 'other@example.com' });
    expect(await updateStockCount(USER, 'send', { stockCountId: 5, draft: false })).toMatchObject({ queued: false });
    expect(server.calls).toHaveLength(1);
  });
});

describe('a planning change answered by a gateway', () => {
  it('waits in the outbox under the key it was sent with (the server may have created it), and a refusal is not queued', async () => {
    server.status = 504;
    const body = { plant: 'FI01', storageLocation: 'V001', type: 'single' as const, materialCodes: ['KM1'], conductedBy: 'mechanic@example.com' };
    // Online: what the planner hears is that the server did not answer, not that there is no connection.
    expect(await planChange(USER, { action: 'create' }, body)).toEqual({ queued: true, unanswered: true });
    const [waiting] = await offlineDb.outbox.toArray();
    expect(waiting?.id).toBe(server.calls[0]!.key);
    expect(waiting?.request).toMatchObject({ method: 'POST', path: 'my_stock_count', json: body });
    // A refusal of the server's own is the planner's to read, not queued.
    server.status = 400;
    await expect(planChange(USER, { action: 'create' }, body)).rejects.toBeInstanceOf(HTTPError);
    expect(await offlineDb.outbox.count()).toBe(1);
  });
});

describe('an edit or a cancel names the count as it was shown (decision 0068)', () => {
  it('sends who counts, the work center, the deadline and the status shown, in a body the server accepts', () => {
    const shown: StockCountRow = { ...row(5), work_center: 'FI01M001', should_be_done_at: '2026-12-24', status: 'in_progress' };
    expect(shownCount(shown)).toEqual({ conductedBy: 'mechanic@example.com', workCenter: 'FI01M001', shouldBeDoneAt: '2026-12-24', status: 'in_progress' });
    expect(updateStockCountBody.safeParse({ stockCountId: 5, workCenter: 'FI01M002', expected: shownCount(shown) }).success).toBe(true);
    // A count without a work center or a deadline names them as none.
    expect(shownCount(row(5))).toMatchObject({ workCenter: null, shouldBeDoneAt: null });
    expect(updateStockCountBody.safeParse({ stockCountId: 5, conductedBy: 'aino@example.com', expected: shownCount(row(5)) }).success).toBe(true);
    expect(updateStockCountBody.safeParse({ stockCountId: 5, status: 'cancelled', expected: { status: 'initiated' } }).success).toBe(true);
  });

  it('keeps what was shown when the change waits: a queued edit is sent naming the count as it was then', async () => {
    const shown: StockCountRow = { ...row(5), work_center: 'FI01M001' };
    await offlineDb.outbox.add(entry('count:5', 'edit', { stockCountId: 5, conductedBy: 'mechanic@example.com' }));
    expect(await updateStockCount(USER, 'edit', { stockCountId: 5, workCenter: 'FI01M002', expected: shownCount(shown) })).toMatchObject({ queued: true });
    const waiting = await offlineDb.outbox.orderBy('seq').toArray();
    expect(waiting[1]!.request.json).toEqual({
      stockCountId: 5,
      workCenter: 'FI01M002',
      expected: { conductedBy: 'mechanic@example.com', workCenter: 'FI01M001', shouldBeDoneAt: null, status: 'initiated' },
    });
  });
});
