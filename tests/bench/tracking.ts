/**
 * The tracking list on the scaled seed (≥ 100,000 order items): p50 / p99 of page 1, a deep page,
 * free text and field filters through the route with empty response caches (searches answered by
 * the tracking search index, docs/decisions/0016, once built), and the same searches by the
 * database alone for comparison; then load at 100 connections (autocannon, a separate process):
 *   - one page (the manager's page 1, again and again: after the first call it is served from the
 *     response cache, docs/decisions/0014) against a bare Fastify route in the same run;
 *   - a mix of different pages (several callers, tabs, page numbers and searches, picked at random
 *     per request): each page is built once and then served from the cache while it holds, so this
 *     figure includes the misses. The cache counters of the run say how many of each.
 * Goals: p99 ≤ 50 ms; the list at ≥ 25% of the bare route's throughput.
 */
import { spawn } from 'node:child_process';
import { listTrackingStatus } from '../../server/repositories/tracking';
import { resolveUser } from '../../server/repositories/users';
import { parseSearch } from '../../src/domain/search-language';
import { BROWSER, percentile, type Scaled } from './scaled';

const LIST = '/parts/v1/users/me/tracking-status';

interface AutocannonRequest {
  path: string;
  headers: Record<string, string>;
}

/** The requests as [path, index of its headers] with each header set once (the environment is small). */
function compactRequests(requests: AutocannonRequest[]): string {
  const headers: string[] = [];
  const rows = requests.map(({ path, headers: own }) => {
    const text = JSON.stringify(own);
    if (!headers.includes(text)) headers.push(text);
    return [path, headers.indexOf(text)];
  });
  return JSON.stringify({ headers: headers.map((text) => JSON.parse(text) as unknown), requests: rows });
}

/**
 * Runs autocannon in its own process: `url` alone (the CLI), or `requests` picked at random per
 * request (its API, through a small inline script). Answers the average requests per second.
 */
function autocannon(url: string, headers: Record<string, string>, seconds: number, requests?: AutocannonRequest[]): Promise<number> {
  const child = requests
    ? spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import autocannon from 'autocannon';
           const { headers, requests } = JSON.parse(process.env.BENCH_REQUESTS);
           const pick = () => requests[Math.floor(Math.random() * requests.length)];
           const result = await autocannon({
             url: process.env.BENCH_URL, connections: 100, duration: Number(process.env.BENCH_SECONDS),
             requests: [{ setupRequest: (request) => { const [path, who] = pick(); return { ...request, path, headers: headers[who] }; } }],
           });
           process.stdout.write(JSON.stringify(result));`,
        ],
        { env: { ...process.env, BENCH_REQUESTS: compactRequests(requests), BENCH_URL: url, BENCH_SECONDS: String(seconds) }, stdio: ['ignore', 'pipe', 'ignore'] },
      )
    : spawn(
        process.execPath,
        ['node_modules/autocannon/autocannon.js', '-c', '100', '-d', String(seconds), '-j', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', () => {
      try {
        const report = JSON.parse(out) as { requests: { average: number }; non2xx: number };
        if (report.non2xx > 0) console.warn(`${url}: ${report.non2xx} answers were not 2xx`);
        resolve(report.requests.average);
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Different pages of several callers: every tab, page numbers across each tab, a few searches. */
async function pageMix(scaled: Scaled): Promise<AutocannonRequest[]> {
  const requests: AutocannonRequest[] = [];
  for (const email of ['manager@example.com', 'stock.admin@example.com', 'cs.admin@example.com', 'mechanic@example.com']) {
    const headers = { ...BROWSER, authorization: `Bearer ${await scaled.token(email)}` };
    for (const status of ['all', 'arrived', 'incoming']) {
      const { pages } = JSON.parse((await scaled.get(`${LIST}?status=${status}`, email)).body) as { pages: number };
      const picks = new Set(Array.from({ length: 25 }, (_, i) => 1 + Math.floor((i * Math.max(0, pages - 1)) / 24)));
      for (const page of picks) requests.push({ path: `${LIST}?status=${status}&page=${page}`, headers });
    }
    for (const query of ['rope', 'door', 'plant=FI01']) requests.push({ path: `${LIST}?status=all&query=${encodeURIComponent(query)}`, headers });
  }
  return requests;
}

/** p50 / p99 of the whole request path with empty caches (the caches are emptied before each call). */
async function uncachedTimes(scaled: Scaled, url: string, who = 'manager', runs = 100) {
  const call = async () => {
    scaled.product.invalidateCaches();
    const res = await scaled.get(url, `${who}@example.com`, BROWSER);
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  };
  for (let i = 0; i < 5; i += 1) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** The searches measured: broad free text, field filters, a range over most items, a single letter, another caller. */
const SEARCHES = [
  ['free text "rope"', 'rope', 'manager'],
  ['free text "door"', 'door', 'manager'],
  ['field filters "po>=4500100000 plant=FI01"', 'po>=4500100000 plant=FI01', 'manager'],
  ['date range "dd>2026-11-01"', 'dd>2026-11-01', 'manager'],
  ['one letter "e" (every order)', 'e', 'manager'],
  ['mechanic, free text "rope"', 'rope', 'mechanic'],
] as const;

/**
 * p50 / p99 of the searches answered by the database alone (the same repository call without the
 * search index, TRACKING_SEARCH_INDEX=off), for comparison.
 */
async function databaseTimes(scaled: Scaled, query: string, who: string, runs = 30) {
  const db = scaled.product.database.db;
  const email = `${who}@example.com`;
  const user = await resolveUser(db, { issuer: 'bench', subject: email, email, emailVerified: true, name: null }, 'support@example.com');
  const options = { terms: parseSearch(query).terms, status: 'all' as const, myOrders: false, page: 1, maxResults: 20 };
  for (let i = 0; i < 3; i += 1) await listTrackingStatus(db, user, options);
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await listTrackingStatus(db, user, options);
    times.push(performance.now() - t0);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

export async function trackingBench(scaled: Scaled, loadSeconds = 20, port = 8177) {
  // The search index is built in the background at start: measured once it is there.
  await scaled.product.trackingIndex.whenBuilt();
  const index = scaled.product.trackingIndex.stats();
  const first = JSON.parse((await scaled.get(`${LIST}?status=all`)).body) as { pages: number; count_total: number };
  const deep = Math.max(1, Math.floor(first.pages * 0.9));
  const cases: [string, string, string][] = [
    ['page 1', `${LIST}?status=all&page=1`, 'manager'],
    [`deep page (${deep})`, `${LIST}?status=all&page=${deep}`, 'manager'],
    ...SEARCHES.map(([name, query, who]): [string, string, string] => [name, `${LIST}?status=all&query=${encodeURIComponent(query)}`, who]),
  ];
  const latencies = [];
  for (const [name, url, who] of cases) latencies.push({ name, orders: first.count_total, ...(await uncachedTimes(scaled, url, who)) });
  const withoutIndex = [];
  for (const [name, query, who] of SEARCHES) withoutIndex.push({ name, ...(await databaseTimes(scaled, query, who)) });

  const mix = await pageMix(scaled);
  await scaled.product.app.listen({ port, host: '127.0.0.1' });
  // The baseline runs in its own process: the product's backlog must not slow it down.
  const bare = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/bare-server.ts'], { env: { ...process.env, PORT: String(port + 1) }, stdio: 'ignore' });
  try {
    for (let i = 0; i < 100; i += 1) {
      if (await fetch(`http://127.0.0.1:${port + 1}/bare`).then((r) => r.ok, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const token = await scaled.token('manager@example.com');
    const list = await autocannon(`http://127.0.0.1:${port}${LIST}?status=all&page=1`, { ...BROWSER, authorization: `Bearer ${token}` }, loadSeconds);
    // Let the product finish the requests still queued before the next figure is measured.
    await fetch(`http://127.0.0.1:${port}/healthz`);
    const baseline = await autocannon(`http://127.0.0.1:${port + 1}/bare`, BROWSER, loadSeconds);

    // The mix starts from empty caches, so every one of its pages is built once during the run.
    scaled.product.invalidateCaches();
    const before = scaled.product.caches.stats().trackingPages;
    const mixed = await autocannon(`http://127.0.0.1:${port}`, {}, loadSeconds, mix);
    await fetch(`http://127.0.0.1:${port}/healthz`);
    const after = scaled.product.caches.stats().trackingPages;
    const count = (key: 'hits' | 'joined' | 'computed' | 'bypassed') => after[key] - before[key];
    return {
      latencies,
      withoutIndex,
      index,
      load: {
        list,
        bare: baseline,
        ratio: list / baseline,
        mix: {
          pages: mix.length,
          perSecond: mixed,
          ratio: mixed / baseline,
          built: count('computed') + count('bypassed'),
          fromCache: count('hits') + count('joined'),
        },
      },
    };
  } finally {
    bare.kill('SIGTERM');
  }
}
