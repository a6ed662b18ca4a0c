/**
 * The scale seed never holds its largest tables whole (#16, decision 0036): stock is drawn again
 * from noted positions of its random stream, orders are drawn chunk by chunk. Both must give
 * exactly the rows of one uninterrupted pass, or the seed would stop being deterministic.
 */
import { describe, expect, it } from 'vitest';
import { orderChunks } from '../../server/db/seed/orders';
import { StockBook } from '../../server/db/seed/stock';
import { buildWorld } from '../../server/db/seed/world';

const NOW = new Date('2025-06-11T09:30:00Z');

describe('seed drawn in pieces', () => {
  const world = buildWorld(NOW, 2);

  it('a storage location drawn again has the rows it had in the pass over all stock', () => {
    const all = [...world.stock.perLocation()];
    expect(all.length).toBe(world.storageLocations.length);
    expect(all.flat().length).toBe(world.stock.rowCount);
    // Later locations first: each one is drawn from its own noted position, not from where the last draw stopped.
    const keys = world.storageLocations.map((l) => StockBook.keyOf(l)).reverse();
    for (const key of keys) {
      const index = world.storageLocations.findIndex((l) => StockBook.keyOf(l) === key);
      expect(world.stock.get(key)).toEqual(all[index]);
    }
    expect(world.stock.get('XX99/0001')).toBeUndefined();
    expect(world.stock.firstRows(500)).toEqual(all.flat().slice(0, 500));
    expect([...world.stock.rows()]).toEqual(all.flat());
  });

  it('orders cut into chunks are the orders of one pass', () => {
    const [whole] = [...orderChunks(world, Number.POSITIVE_INFINITY)];
    const chunks = [...orderChunks(world, 97)];
    expect(chunks.length).toBe(Math.ceil(whole!.orders.length / 97));
    expect(chunks.every((c, i) => c.orders.length === (i < chunks.length - 1 ? 97 : whole!.orders.length - 97 * (chunks.length - 1)))).toBe(true);
    expect(chunks.flatMap((c) => c.orders)).toEqual(whole!.orders);
    expect(chunks.flatMap((c) => c.items)).toEqual(whole!.items);
    expect(chunks.flatMap((c) => c.events)).toEqual(whole!.events);
    // Every item and scan is in the chunk of its order.
    for (const chunk of chunks) {
      const ids = new Set(chunk.orders.map((o) => o.id));
      expect(chunk.items.every((it) => ids.has(it.orderId))).toBe(true);
      const itemIds = new Set(chunk.items.map((it) => Number(it.id)));
      expect(chunk.events.every((e) => itemIds.has(Number(e.orderItemId)))).toBe(true);
    }
  });
});
