/**
 * The list figures on the seed at BENCH_SCALE (default 50; PGlite, or PostgreSQL with
 * BENCH_DATABASE_URL naming an empty database), or on an already seeded PostgreSQL database named
 * by BENCH_DATABASE_URL (used as it is, e.g. `npm run seed -- --scale 500`; see ./scaled.ts).
 * BENCH_RUNS (default 100) calls per tracking figure (0 with BENCH_ONLY=tracking: only the tracking load); BENCH_ONLY=stock|tracking; BENCH_LOAD_SECONDS (default 20; 0 skips the load);
 * BENCH_PORT (default 8177, and the next one for the bare route); BENCH_MIX_PAGING=cursor|number; BENCH_MIX_WRITES (share, default 0.1).
 * my_plant_stock (./stock.ts) and the tracking list with its load tests (./tracking.ts),
 * everything answered by the database on every call (docs/decisions/0021). Part of `npm run bench`; also runnable alone:
 * `node --max-semi-space-size=64 --import tsx tests/bench/lists.ts` (the server's flags, `npm run serve`).
 */
import { pathToFileURL } from 'node:url';
import { stockBench } from './stock';
import { trackingBench } from './tracking';
import { warnWithoutServerFlags, withScaledProduct } from './scaled';

export async function printListFigures(): Promise<void> {
  warnWithoutServerFlags();
  await withScaledProduct(async (scaled) => {
    const only = process.env.BENCH_ONLY; // 'stock' or 'tracking': one list's figures
    for (const row of only === 'tracking' ? [] : await stockBench(scaled)) {
      console.log(`${row.list} ${row.name} on ${scaled.engine} (${row.total} stock rows): p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, max ${row.max.toFixed(1)} ms (goal p99 ≤ 50 ms)`);
    }
    if (only === 'stock') return;
    const tracking = await trackingBench(scaled);
    for (const row of tracking.latencies) {
      console.log(`tracking-status ${row.name} on ${scaled.engine} (${row.orders} orders): p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, max ${row.max.toFixed(1)} ms (goal p99 ≤ 50 ms)`);
    }
    if (!tracking.load) return;
    const { list, bare, ratio, mix } = tracking.load;
    console.log(`load, 100 connections × ${process.env.BENCH_LOAD_SECONDS ?? 20} s: tracking-status page 1 of one caller ${list.perSecond.toFixed(0)} req/s (p50 ${list.p50} ms, p99 ${list.p99} ms), bare Fastify route ${bare.perSecond.toFixed(0)} req/s, ratio ${(ratio * 100).toFixed(1)}%`);
    const seconds = process.env.BENCH_LOAD_SECONDS ?? 20;
    const paging = process.env.BENCH_MIX_PAGING === 'cursor' ? 'deep pages by cursor' : 'deep pages by number';
    console.log(`load, 100 connections × ${seconds} s: tracking-status mix of ${mix.pages} different pages of 4 callers (${paging}, nothing cached) and ${mix.writes} of ${mix.pages + mix.writes} requests PUT my_material_count: ${mix.perSecond.toFixed(0)} req/s, p50 ${mix.p50} ms, p99 ${mix.p99} ms, ${mix.errors} errors, ${mix.non2xx} non-2xx (goal 0 errors, p99 ≤ 500 ms)`);
    const { cpu } = mix;
    const ms = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(1)} ms`);
    console.log(`load, the mix's CPU a request: server ${ms(cpu.serverMs)}, PostgreSQL ${ms(cpu.postgresMs)} (on this machine; n/a elsewhere, and on PGlite it is in the server's), the rest of the machine (the load generator, the kernel, anything else) ${ms(cpu.restMs)}; machine ${cpu.busy === null ? 'n/a' : `${(cpu.busy * 100).toFixed(0)} %`} busy`);
    const two = tracking.load.replicas;
    if (two) console.log(`load, the same mix through 2 replicas on one PostgreSQL (50 connections each): ${two.perSecond.toFixed(0)} req/s, p50 ${two.p50} ms, p99 ${two.p99} ms (the worse replica's), ${two.errors} errors, ${two.non2xx} non-2xx (goal 0 errors)`);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await printListFigures();
}
