/**
 * The page mirror stays bounded: after a save, the user's saved pages of that scope beyond the
 * most recent KEPT_PAGES_PER_SCOPE are deleted, never a scope with changes waiting in the outbox,
 * never a page with slices (a count sheet), and never a save for it.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openAfterFirstScreen } from '../lib/after-first-screen';
import { offlineDb, type MirrorPage, type OutboxEntry } from './db';
import { KEPT_PAGES_PER_SCOPE, mirrorKey, networkFirst } from './mirror';

const USER = 'mechanic@example.com';
const OTHER = 'planner@example.com';

/** `count` saved list pages of `user` in `scope`, saved at 1, 2, 3… (oldest first). */
const listPages = (user: string, scope: string, count: number, from = 1): MirrorPage[] =>
  Array.from({ length: count }, (_, i) => ({
    key: mirrorKey(user, [scope, 'list', { search: `term ${from + i}`, page: 1 }]),
    scope,
    savedAt: from + i,
    data: { rows: [from + i] },
  }));

const keysOf = async (user: string, scope: string) =>
  (await offlineDb.pages.where('scope').equals(scope).primaryKeys()).filter((key) => key.startsWith(`${user}|`));

/** A fresh list page of USER in `scope` comes from the server (and is saved behind the answer). */
const readFresh = (scope: string) =>
  networkFirst({ key: mirrorKey(USER, [scope, 'list', { search: 'new', page: 1 }]), scope, fetcher: async () => ({ rows: ['new'] }) });

const outboxEntry = (scope: string, userEmail = USER): OutboxEntry => ({
  id: crypto.randomUUID(),
  userEmail,
  kind: 'test',
  scope,
  target: 'row:1',
  request: { service: 'user', method: 'PUT', path: 'x' },
  status: 'failed',
  createdAt: 1,
  attempts: 1,
});

beforeAll(() => openAfterFirstScreen());

afterEach(async () => {
  await Promise.all([offlineDb.pages.clear(), offlineDb.outbox.clear(), offlineDb.chunks.clear(), offlineDb.slots.clear()]);
});

describe('pruning the page mirror after a save', () => {
  it('keeps the most recent pages of the user and scope, and deletes the oldest', async () => {
    const mine = listPages(USER, 'tracking', KEPT_PAGES_PER_SCOPE + 5);
    await offlineDb.pages.bulkPut([...mine, ...listPages(OTHER, 'tracking', 3), ...listPages(USER, 'stock', 3)]);

    await readFresh('tracking');

    await vi.waitFor(async () => expect(await keysOf(USER, 'tracking')).toHaveLength(KEPT_PAGES_PER_SCOPE));
    const kept = new Set(await keysOf(USER, 'tracking'));
    // 206 pages, 200 kept: the six oldest go, the new one stays.
    expect(mine.slice(0, 6).filter((page) => kept.has(page.key))).toEqual([]);
    expect(mine.slice(6).every((page) => kept.has(page.key))).toBe(true);
    expect(kept.has(mirrorKey(USER, ['tracking', 'list', { search: 'new', page: 1 }]))).toBe(true);
    // Another user's pages and another scope are not this save's to prune.
    expect(await keysOf(OTHER, 'tracking')).toHaveLength(3);
    expect(await keysOf(USER, 'stock')).toHaveLength(3);
  });

  it('leaves a scope alone while the user has changes of it in the outbox', async () => {
    await offlineDb.pages.bulkPut(listPages(USER, 'notifications', KEPT_PAGES_PER_SCOPE + 5));
    await offlineDb.outbox.add(outboxEntry('notifications'));
    // A second save, in a scope without waiting changes, shows when the first one's prune has had its turn.
    await offlineDb.pages.bulkPut(listPages(USER, 'stock', KEPT_PAGES_PER_SCOPE + 1));

    await readFresh('notifications');
    await readFresh('stock');

    await vi.waitFor(async () => expect(await keysOf(USER, 'stock')).toHaveLength(KEPT_PAGES_PER_SCOPE));
    expect(await keysOf(USER, 'notifications')).toHaveLength(KEPT_PAGES_PER_SCOPE + 6);
  });

  it('never deletes a page with slices (a count sheet) nor its slices and slots', async () => {
    const pages = listPages(USER, 'stock', KEPT_PAGES_PER_SCOPE + 4);
    const [withChunks, withSlots, stamped] = pages;
    pages[2] = { ...stamped!, slices: 'stamp' };
    await offlineDb.pages.bulkPut(pages);
    await offlineDb.chunks.put({ page: withChunks!.key, chunk: 0, rows: [{ id: 1 }] });
    await offlineDb.slots.put({ page: withSlots!.key, id: 1, chunk: 0 });

    await readFresh('stock');

    // 205 pages: the five oldest are over; the three with slices stay, the two others go.
    await vi.waitFor(async () => expect(await keysOf(USER, 'stock')).toHaveLength(KEPT_PAGES_PER_SCOPE + 3));
    const kept = new Set(await keysOf(USER, 'stock'));
    expect([withChunks!.key, withSlots!.key, stamped!.key].every((key) => kept.has(key))).toBe(true);
    expect(kept.has(pages[3]!.key) || kept.has(pages[4]!.key)).toBe(false);
    expect(await offlineDb.chunks.count()).toBe(1);
    expect(await offlineDb.slots.count()).toBe(1);
  });

  it('a count sheet in its own scope is not touched by the saves of lists', async () => {
    const sheet: MirrorPage = { key: mirrorKey(USER, ['count-sheet', 27]), scope: 'stock-count:27', savedAt: 0, data: {}, slices: 'stamp' };
    await offlineDb.pages.bulkPut([sheet, ...listPages(USER, 'stock-counts', KEPT_PAGES_PER_SCOPE + 2)]);
    await offlineDb.chunks.put({ page: sheet.key, chunk: 0, rows: [{ id: 1 }] });

    await readFresh('stock-counts');

    await vi.waitFor(async () => expect(await keysOf(USER, 'stock-counts')).toHaveLength(KEPT_PAGES_PER_SCOPE));
    expect(await offlineDb.pages.get(sheet.key)).toBeDefined();
    expect(await offlineDb.chunks.count()).toBe(1);
  });

  it('a prune that fails costs nothing: the answer and its copy are saved', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const transaction = vi.spyOn(offlineDb, 'transaction').mockImplementation(() => {
      throw new Error('the database is closing');
    });
    try {
      await offlineDb.pages.bulkPut(listPages(USER, 'tracking', KEPT_PAGES_PER_SCOPE + 1));
      await expect(readFresh('tracking')).resolves.toMatchObject({ data: { rows: ['new'] }, source: 'network' });
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('not pruned'), expect.any(Error)));
      expect(await offlineDb.pages.get(mirrorKey(USER, ['tracking', 'list', { search: 'new', page: 1 }]))).toBeDefined();
    } finally {
      transaction.mockRestore();
      warn.mockRestore();
    }
  });
});
