/**
 * `npm run bench`: figures, never assertions.
 *  1. The gzip size of the JavaScript the first screen loads (landing page, signed out) and of
 *     what the status monitor adds after sign-in. Budget: ≤ 100 KB gzip for the first screen (#22).
 *  2. The server's cold start: a fresh DATA_DIR (migrate + seed) and a restart on existing data.
 *  3. Offline core in Chromium (./offline.ts): mirror write, page read, enqueue, outbox drain;
 *     and the offline chaos runs of #15 (./chaos.ts): lost / doubled / divergent / self-conflicts.
 *  4. On the seed at BENCH_SCALE (default 50; ./lists.ts; PGlite, or PostgreSQL when
 *     BENCH_DATABASE_URL names an empty database) or on an already seeded BENCH_DATABASE_URL
 *     (used as it is): my_plant_stock (./stock.ts) and the tracking list with a load test
 *     against a bare route (./tracking.ts).
 *  5. ERP file ingestion (./ingestion.ts): lines per second of a 100,000-line ORDERS file on
 *     PGlite, and on PostgreSQL when BENCH_DATABASE_URL or DATABASE_URL is set.
 *  6. Lighthouse mobile (./lighthouse.ts): the landing page and the signed-in status monitor,
 *     3 runs each, median and range, with the CPU benchmark index of each run.
 * PUBLIC_DIR (default dist) and BENCH_PORT (default 8199) choose the build and the port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execSync } from 'node:child_process';
import { chromium } from '@playwright/test';
import { offlineBench } from './offline';
import { chaosBench } from './chaos';
import { describeOfflineStart, offlineStartFigures } from './offline-start';
import { printListFigures } from './lists';
import { SERVER_NODE_FLAGS } from './scaled';
import { ingestionBench, printIngestionFigures } from './ingestion';
import { lighthouseFigures, printLighthouseFigures } from './lighthouse';
import { decodeFigures, printScanFigures, scannerChunks } from './scan';

const PORT = Number(process.env.BENCH_PORT ?? 8199);
const DIST = process.env.PUBLIC_DIR ?? 'dist';
const base = `http://localhost:${PORT}`;

function startServer(dataDir: string): { child: ChildProcess; ready: Promise<number> } {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(PORT), PUBLIC_DIR: DIST, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: 'ignore',
  });
  const ready = (async () => {
    for (;;) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) return performance.now() - startedAt;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error('server exited during start');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return { child, ready };
}

async function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

if (!existsSync(join(DIST, 'index.html'))) execSync(`npx vite build --outDir ${DIST}`, { stdio: 'inherit' });

const dataDir = mkdtempSync(join(tmpdir(), 'partstrack-bench-'));
const cold = startServer(dataDir);
const coldMs = await cold.ready;

const browser = await chromium.launch({
  executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ serviceWorkers: 'block' });
const page = await context.newPage();
const scripts = new Set<string>();
page.on('response', (response) => {
  if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
});
const gzipOf = (paths: Iterable<string>) =>
  [...paths].reduce((sum, path) => sum + gzipSync(readFileSync(join(DIST, path)), { level: 9 }).length, 0);

await page.goto(`${base}/`);
await page.getByRole('button', { name: /mechanic@example\.com/ }).waitFor();
await page.waitForLoadState('networkidle');
const firstScreen = new Set(scripts);
await page.getByRole('button', { name: /mechanic@example\.com/ }).click();
await page.waitForURL(/status-monitor/);
// The shell is on screen once the guard has loaded the profile: everything it needed has arrived.
await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
const afterSignIn = [...scripts].filter((path) => !firstScreen.has(path));
await browser.close();
const lighthouse = await lighthouseFigures(base);
await stop(cold.child);

const warm = startServer(dataDir);
const warmMs = await warm.ready;
const offlineStart = await offlineStartFigures(base);
await stop(warm.child);
rmSync(dataDir, { recursive: true, force: true });

console.log('PartsTrack benchmarks');
console.log(`first screen (landing) JavaScript: ${kb(gzipOf(firstScreen))} gzip in ${firstScreen.size} files (budget 100 KB)`);
console.log(`status monitor adds after sign-in: ${kb(gzipOf(afterSignIn))} gzip in ${afterSignIn.length} files`);
printLighthouseFigures(lighthouse);
console.log(`server cold start, empty DATA_DIR (migrate + seed): ${Math.round(coldMs)} ms`);
console.log(`server start on existing data: ${Math.round(warmMs)} ms`);
console.log(describeOfflineStart(offlineStart));

const offline = await offlineBench();
const ms = (value: number | undefined) => `${(value ?? Number.NaN).toFixed(1)} ms`;
console.log(`mirror write of 10,000 material-count rows: ${ms(offline.mirrorWrite10k)} (target ≤ 300 ms)`);
console.log(`page read from the mirror (20 rows): ${ms(offline.pageRead20)} (target ≤ 10 ms); whole 10,000-row count: ${ms(offline.sheetRead10k)}`);
console.log(`one outbox enqueue (quantity edit in a 10,000-line count): ${ms(offline.enqueueOn10kSheet)} (target ≤ 5 ms)`);
console.log(
  `one outbox enqueue at 4× CPU slowdown, count of 100 / 1,000 / 10,000 lines: ${ms(offline.enqueue4xOn100)} / ${ms(offline.enqueue4xOn1000)} / ${ms(offline.enqueue4xOn10000)} (goal: flat, ≤ 5 ms); ` +
    `this browser's floor, one bare strict-durability IndexedDB put at 4×: ${ms(offline.strictPut4x)}`,
);
console.log(`drain of ${offline.queued} queued edits against the local server: ${((offline.drainMs ?? 0) / 1000).toFixed(2)} s, ${offline.sent} sent, ${offline.left} left (target ≤ 15 s)`);
console.log('offline chaos runs (1,000 random operations each, faulty network; goal 0 lost / 0 doubled / 0 divergent / 0 self-conflicts):');
console.table(await chaosBench());

await printListFigures();

// Scan to count (#17): the scanner's chunks and the ZXing wasm decode time per camera frame.
printScanFigures({ chunks: scannerChunks(DIST), decode: await decodeFigures() });

// 5. ERP file ingestion (./ingestion.ts): lines per second of a 100,000-line ORDERS file.
printIngestionFigures(await ingestionBench());
