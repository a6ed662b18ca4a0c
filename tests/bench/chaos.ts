/**
 * `npm run bench` (and `npx tsx tests/bench/chaos.ts` alone): the offline chaos run of issue #15
 * as figures — 1,000 random operations on one count against the real server (PGlite) behind a
 * network that drops, loses answers, 503s, duplicates and replays late; lost / doubled /
 * divergent / self-conflicts (goal 0 / 0 / 0 / 0) and the time to drain after reconnecting.
 */
import 'fake-indexeddb/auto';
import { createTestProduct } from '../server/harness';
import { chaosRunner, generate } from '../server/offline-chaos';

export async function chaosBench(runs = Number(process.env.CHAOS_RUNS ?? 3), ops = 1000) {
  const product = await createTestProduct('pglite', { RATE_LIMIT_PER_MINUTE: '10000000' });
  try {
    const chaos = await chaosRunner(product);
    const rows = [];
    for (let i = 0; i < runs; i += 1) {
      const seed = 1000 + i;
      const started = performance.now();
      const outcome = await chaos.run(seed, generate(seed, ops));
      rows.push({
        seed,
        operations: ops,
        lost: outcome.lost.length,
        doubled: outcome.doubled.length,
        divergent: outcome.divergent.length,
        selfConflicts: outcome.selfConflicts,
        leftInOutbox: outcome.failed.length,
        drainAfterReconnectMs: Math.round(outcome.drainMs),
        runSeconds: Number(((performance.now() - started) / 1000).toFixed(1)),
      });
    }
    return rows;
  } finally {
    await product.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await chaosBench());
}
