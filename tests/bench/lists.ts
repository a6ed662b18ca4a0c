/**
 * The list figures on the scale-50 seed (PGlite, or PostgreSQL with BENCH_DATABASE_URL naming an
 * empty database): my_plant_stock (./stock.ts) and the tracking list with its load test against a
 * bare route (./tracking.ts). Part of `npm run bench`; also runnable alone:
 * `npx tsx tests/bench/lists.ts`.
 */
import { pathToFileURL } from 'node:url';
import { stockBench } from './stock';
import { trackingBench } from './tracking';
import { withScaledProduct } from './scaled';

export async function printListFigures(): Promise<void> {
  await withScaledProduct(async (scaled) => {
    for (const row of await stockBench(scaled)) {
      console.log(`my_plant_stock ${row.name} on ${scaled.engine} (${row.total} stock rows): p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms (goal p99 ≤ 50 ms)`);
    }
    const tracking = await trackingBench(scaled);
    const { index } = tracking;
    console.log(`tracking search index: ${index.orders} orders, ${index.items} items, about ${(index.bytes / 1024 / 1024).toFixed(0)} MB, built in ${(index.buildMs / 1000).toFixed(1)} s`);
    for (const row of tracking.latencies) {
      console.log(`tracking-status ${row.name} on ${scaled.engine} (${row.orders} orders): p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms (goal p99 ≤ 50 ms)`);
    }
    for (const row of tracking.withoutIndex) {
      console.log(`  the same search by the database alone (TRACKING_SEARCH_INDEX=off), ${row.name}: p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms`);
    }
    const { list, bare, ratio, mix } = tracking.load;
    console.log(`load, 100 connections × 20 s: tracking-status page 1 of one caller (served from the response cache after the first call) ${list.toFixed(0)} req/s, bare Fastify route ${bare.toFixed(0)} req/s, ratio ${(ratio * 100).toFixed(1)}% (goal ≥ 25%)`);
    console.log(`load, 100 connections × 20 s: tracking-status mix of ${mix.pages} different pages of 4 callers, caches empty at the start (${mix.built} built, ${mix.fromCache} from the cache) ${mix.perSecond.toFixed(0)} req/s, ratio ${(mix.ratio * 100).toFixed(1)}% of the bare route`);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await printListFigures();
}
