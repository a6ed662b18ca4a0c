/**
 * The tracking list on the scaled seed (≥ 100,000 order items), answered by PostgreSQL on every call
 * (docs/decisions/0021: no page cache, no search index): p50 / p99 of page 1, a deep page (also one
 * far past the count cap, to show paging stays flat with depth), free text and field filters
 * through the route; then load at 100 connections (autocannon, a separate process):
 *   - one page (the manager's page 1, again and again) against a bare Fastify route in the same run;
 *   - a mix of different pages (4 callers, every tab, page numbers across each tab's real depth,
 *     searches), picked at random per request: req/s, p50 / p99 latency, errors.
 * Goals: p99 ≤ 50 ms for one client; under the mix 0 errors and p99 ≤ 500 ms.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus } from 'node:os';
import { and, sql } from 'drizzle-orm';
import { orders } from '../../server/db/schema';
import { rowsOf } from '../../server/db/client';
import { trackingScope } from '../../server/repositories/tracking';
import { resolveUser } from '../../server/repositories/users';
import { BROWSER, SERVER_NODE_FLAGS, percentile, type Scaled } from './scaled';

const LIST = '/parts/v1/users/me/tracking-status';
/** BENCH_RUNS: calls per figure (default 100). */
const RUNS = Number(process.env.BENCH_RUNS ?? 100);

interface AutocannonRequest {
  path: string;
  headers: Record<string, string>;
  /** A write (PUT with this JSON body); reads have none. */
  body?: string;
}

/** The requests as [path, index of its headers, body] with each header set once (the environment is small). */
function compactRequests(requests: AutocannonRequest[]): string {
  const headers: string[] = [];
  const rows = requests.map(({ path, headers: own, body }) => {
    const text = JSON.stringify(own);
    if (!headers.includes(text)) headers.push(text);
    return body === undefined ? [path, headers.indexOf(text)] : [path, headers.indexOf(text), body];
  });
  return JSON.stringify({ headers: headers.map((text) => JSON.parse(text) as unknown), requests: rows });
}

/**
 * Where a load's CPU went, per request (decision 0045): this process (the product's server, with
 * the database in it on PGlite), the machine's PostgreSQL processes (when the product's database
 * is one on this machine) and the rest of the machine (the load generator, the kernel, anything
 * else running), from Linux's /proc (clock ticks of 10 ms). Null where /proc cannot tell.
 */
export interface CpuSplit {
  serverMs: number;
  postgresMs: number | null;
  restMs: number | null;
  busy: number | null;
}

function cpuNow(): { server: number; postgres: number | null; machine: number | null } {
  const usage = process.cpuUsage();
  const server = (usage.user + usage.system) / 1000;
  try {
    const machine = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    // user nice system idle iowait irq softirq steal: busy is this machine's own work (not idle,
    // iowait or the time another guest took, steal).
    const busyTicks = machine.reduce((sum, value, i) => (i === 3 || i === 4 || i === 7 ? sum : sum + value), 0);
    let postgres = 0;
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
        const fields = stat.slice(close + 2).split(' ');
        // utime and stime, and cutime and cstime: the CPU of the backends that exited meanwhile
        // (the postmaster collects them).
        postgres += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      } catch {
        // The process ended meanwhile.
      }
    }
    return { server, postgres: postgres * 10, machine: busyTicks * 10 };
  } catch {
    return { server, postgres: null, machine: null };
  }
}

/**
 * Runs a load and answers its figures with where its CPU went (CpuSplit). `localPostgres`: the
 * product's database is a PostgreSQL server on this machine (else its processes are not counted).
 */
async function withCpuSplit(load: () => Promise<LoadFigures>, localPostgres: boolean): Promise<LoadFigures & { cpu: CpuSplit }> {
  const before = cpuNow();
  const started = performance.now();
  const figures = await load();
  const elapsed = performance.now() - started;
  const after = cpuNow();
  const requests = Math.max(1, figures.total);
  const serverMs = (after.server - before.server) / requests;
  const postgresMs = localPostgres && after.postgres !== null && before.postgres !== null ? (after.postgres - before.postgres) / requests : null;
  const machineMs = after.machine !== null && before.machine !== null ? (after.machine - before.machine) / requests : null;
  const cpu: CpuSplit = {
    serverMs,
    postgresMs,
    restMs: machineMs !== null && postgresMs !== null ? Math.max(0, machineMs - serverMs - postgresMs) : null,
    busy: after.machine !== null && before.machine !== null ? (after.machine - before.machine) / (elapsed * cpus().length) : null,
  };
  return { ...figures, cpu };
}

export interface LoadFigures {
  perSecond: number;
  /** Requests answered in all. */
  total: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/**
 * Runs autocannon in its own process: `url` alone (the CLI), or `requests` picked at random per
 * request (its API, through a small inline script). Answers requests per second and latencies.
 */
function autocannon(url: string, headers: Record<string, string>, seconds: number, requests?: AutocannonRequest[], connections = 100): Promise<LoadFigures> {
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
             url: process.env.BENCH_URL, connections: Number(process.env.BENCH_CONNECTIONS), duration: Number(process.env.BENCH_SECONDS),
             requests: [{ setupRequest: (request) => {
               const [path, who, body] = pick();
               if (body === undefined) return { ...request, method: 'GET', path, headers: headers[who], body: undefined };
               return { ...request, method: 'PUT', path, headers: { ...headers[who], 'content-type': 'application/json' }, body };
             } }],
           });
           process.stdout.write(JSON.stringify(result));`,
        ],
        { env: { ...process.env, BENCH_REQUESTS: compactRequests(requests), BENCH_URL: url, BENCH_SECONDS: String(seconds), BENCH_CONNECTIONS: String(connections) }, stdio: ['ignore', 'pipe', 'ignore'] },
      )
    : spawn(
        process.execPath,
        ['node_modules/autocannon/autocannon.js', '-c', String(connections), '-d', String(seconds), '-j', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', () => {
      try {
        const report = JSON.parse(out) as { requests: { average: number; total: number }; latency: { p50: number; p99: number }; errors: number; timeouts: number; non2xx: number };
        if (report.non2xx > 0) console.warn(`${url}: ${report.non2xx} answers were not 2xx`);
        resolve({ perSecond: report.requests.average, total: report.requests.total, p50: report.latency.p50, p99: report.latency.p99, errors: report.errors + report.timeouts, non2xx: report.non2xx });
      } catch (error) {
        reject(error);
      }
    });
  });
}

const SUMMARY = { all: sql`item_count > 0`, arrived: sql`arrived_items > 0`, incoming: sql`item_count > arrived_items` } as const;

/**
 * Different pages of several callers: every tab, page numbers spread across each tab's real depth
 * (counted here from the tables: the answer's own count stops at the cap), a few searches.
 * BENCH_MIX_PAGING=cursor asks a page past the first by the page before's next_cursor (`after`), as
 * the app does once it pages by cursor; `number` (the default) by its number alone (an offset).
 */
async function pageMix(scaled: Scaled): Promise<AutocannonRequest[]> {
  const requests: AutocannonRequest[] = [];
  const db = scaled.product.database.db;
  const byCursor = process.env.BENCH_MIX_PAGING === 'cursor';
  for (const email of ['manager@example.com', 'stock.admin@example.com', 'cs.admin@example.com', 'mechanic@example.com']) {
    const headers = { ...BROWSER, authorization: `Bearer ${await scaled.token(email)}` };
    const user = await resolveUser(db, { issuer: 'bench', subject: email, email, emailVerified: true, name: null }, 'support@example.com');
    for (const status of ['all', 'arrived', 'incoming'] as const) {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(and(trackingScope(user), SUMMARY[status]));
      const pages = Math.max(1, Math.ceil(Number(row?.n ?? 0) / 20));
      const picks = new Set(Array.from({ length: 25 }, (_, i) => 1 + Math.floor((i * Math.max(0, pages - 1)) / 24)));
      for (const page of picks) {
        let after: string | null | undefined;
        if (byCursor && page > 1) after = (JSON.parse((await scaled.get(`${LIST}?${params({ status, page: page - 1 })}`, email)).body) as { next_cursor?: string | null }).next_cursor;
        requests.push({ path: `${LIST}?${params({ status, page, ...(after ? { after } : {}) })}`, headers });
      }
    }
    for (const query of ['rope', 'door', 'plant=FI01']) requests.push({ path: `${LIST}?${params({ query })}`, headers });
  }
  return requests;
}

/**
 * Devices syncing counted quantities during the load (issue #16's "with writes"): PUT
 * my_material_count of one line of an open count, each line's own quantity written back (a real
 * write: one transaction, the line's version moves). Lines a caller may edit are found by trying.
 * BENCH_MIX_WRITES (default 0.1) is the share of the mix's requests that are such writes.
 */
async function writeMix(scaled: Scaled, reads: number): Promise<AutocannonRequest[]> {
  const share = Number(process.env.BENCH_MIX_WRITES ?? 0.1);
  if (!(share > 0)) return [];
  const db = scaled.product.database.db;
  const lines = rowsOf<{ id: number; quantity: string | null }>(
    await db.execute(sql`select mc.id, mc.quantity from material_counts mc join stock_counts sc on sc.id = mc.stock_count_id
      where sc.status = 'in_progress' order by mc.id limit 400`),
  );
  const writes: AutocannonRequest[] = [];
  for (const email of ['manager@example.com', 'stock.admin@example.com', 'cs.admin@example.com', 'mechanic@example.com']) {
    const headers = { ...BROWSER, authorization: `Bearer ${await scaled.token(email)}` };
    for (const line of lines) {
      const body = JSON.stringify({ modifiedMaterials: [{ id: Number(line.id), quantity: line.quantity === null ? 1 : Number(line.quantity) }] });
      const res = await scaled.product.app.inject({ method: 'PUT', url: '/api/v2/my_material_count', headers: { ...headers, 'content-type': 'application/json' }, payload: body });
      if (res.statusCode === 200) writes.push({ path: '/api/v2/my_material_count', headers, body });
      if (writes.length >= 50) break;
    }
  }
  if (writes.length === 0) throw new Error('no material count line any bench caller may write');
  // As many writes as make `share` of the mix (repeating lines: the same device syncs again).
  const wanted = Math.round((reads * share) / (1 - share));
  return Array.from({ length: wanted }, (_, i) => writes[i % writes.length]!);
}

/** Every list parameter, as the app sends them. */
const params = (given: Record<string, string | number>) =>
  new URLSearchParams({ query: '', page: '1', status: 'all', myOrders: 'false', maxResults: '20', ...Object.fromEntries(Object.entries(given).map(([k, v]) => [k, String(v)])) }).toString();

/** p50 / p99 of the whole request path (nothing is cached between calls). */
async function times(scaled: Scaled, url: string, who = 'manager', runs = RUNS) {
  const call = async () => {
    const res = await scaled.get(url, `${who}@example.com`, BROWSER);
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  };
  for (let i = 0; i < 5; i += 1) await call();
  const measured: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await call();
    measured.push(performance.now() - t0);
  }
  return { p50: percentile(measured, 50), p99: percentile(measured, 99), max: Math.max(...measured) };
}

/** A sample value of an item column (the n-th non-null one), so each search kind finds real rows at any scale. */
async function sample(scaled: Scaled, column: string, n = 5000): Promise<string | null> {
  const result = await scaled.product.database.db.execute(
    sql`select ${sql.identifier(column)} as v from order_items where ${sql.identifier(column)} is not null order by id limit 1 offset ${n}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{ v: unknown }>;
  return rows[0]?.v == null ? null : String(rows[0].v);
}

/** Pages of a search at a depth: page 1 and the page at 90% of what the (capped) count reaches. */
const deepOf = (pages: number) => Math.max(2, Math.floor(pages * 0.9));

/**
 * Every list call measured (one client): the tabs page 1 and deep, each search kind (free text
 * broad and rare, field operators, dates, substring fields, one and two letters) page 1 and deep.
 */
async function trackingCases(scaled: Scaled): Promise<Array<[string, string, string]>> {
  const po = (await sample(scaled, 'purchase_order_doc_number')) ?? '4500100000';
  const material = (await sample(scaled, 'material_code', 7000)) ?? 'MAT-0001';
  const tracking = (await sample(scaled, 'tracking_number', 3000)) ?? '1Z0000';
  const description = ((await sample(scaled, 'material_description', 9000)) ?? 'door').split(/\s+/).find((word) => word.length >= 4) ?? 'door';
  const plants = rowsOf<{ plant: string }>(await scaled.product.database.db.execute(sql`select plant from orders group by plant order by count(*) desc limit 1`));
  const plant = plants[0]?.plant ?? 'FI01';
  // Decision 0045: a rare storage location and work center, and a range of dates that names few items.
  const [rare] = rowsOf<{ sloc: string | null; wc: string | null; date: string | null }>(
    await scaled.product.database.db.execute(sql`select
      (select storage_location from order_items where storage_location is not null group by 1 having count(*) >= 20 order by count(*), 1 limit 1) as sloc,
      (select work_center from orders where work_center is not null group by 1 having count(*) >= 20 order by count(*), 1 limit 1) as wc,
      (select delivery_date::text from order_items where delivery_date is not null order by delivery_date desc limit 1 offset (select count(*) / 30 from order_items)) as date`),
  );
  // Decision 0047: the largest storage location and work centre, nearly all another plant's than
  // the customer service admin's (DE02) at scale 500.
  const [largest] = rowsOf<{ sloc: string | null; wc: string | null }>(
    await scaled.product.database.db.execute(sql`select
      (select storage_location from order_items where storage_location is not null group by 1 order by count(*) desc, 1 limit 1) as sloc,
      (select work_center from orders where work_center is not null group by 1 order by count(*) desc, 1 limit 1) as wc`),
  );
  const searches: Array<[string, string, string]> = [
    ['free text "door" (broad)', 'door', 'manager'],
    // Decision 0041: a word in most orders (walked, named common by the statistics) and one in ~16 % (the trigram index).
    ['free text "elevator" (most orders)', 'elevator', 'manager'],
    ['free text "roller" (mid-common)', 'roller', 'manager'],
    [`free text, one purchase order "${po}" (rare)`, po, 'manager'],
    [`field "po>=${po} plant=${plant}"`, `po>=${po} plant=${plant}`, 'manager'],
    [`field "mat=${material}"`, `mat=${material}`, 'manager'],
    [`field "tn=${tracking}"`, `tn=${tracking}`, 'manager'],
    ['field "dl=delivered"', 'dl=delivered', 'manager'],
    ['field "dl=on_the_way"', 'dl=on_the_way', 'manager'],
    ['field "dl=failed" (rare status)', 'dl=failed', 'manager'],
    ['date "dd>2026-11-01"', 'dd>2026-11-01', 'manager'],
    ['date "dd=2026-12-01"', 'dd=2026-12-01', 'manager'],
    [`substring "material description=${description}"`, `"material description"=${description}`, 'manager'],
    ['substring "equipment description=pump"', '"equipment description"=pump', 'manager'],
    [`field "sloc=${rare?.sloc ?? 'V001'}" (rare)`, `sloc=${rare?.sloc ?? 'V001'}`, 'manager'],
    [`field "wc=${rare?.wc ?? 'FI01M001'}" (rare)`, `wc=${rare?.wc ?? 'FI01M001'}`, 'manager'],
    [`date range "dd>=${rare?.date ?? '2026-12-01'}" (the latest 3 % of the items)`, `dd>=${rare?.date ?? '2026-12-01'}`, 'manager'],
    ['one letter "e" (every order)', 'e', 'manager'],
    ['one letter "q"', 'q', 'manager'],
    ['two letters "xz" (rare)', 'xz', 'manager'],
    ['two letters "qj" (rare)', 'qj', 'manager'],
    // Digits alone have no grams (decision 0049): walked, as every digit pair is in most orders.
    ['one digit "7"', '7', 'manager'],
    ['two digits "84"', '84', 'manager'],
    ['letter and digit "m4"', 'm4', 'manager'],
    ['mechanic, free text "door"', 'door', 'mechanic'],
    [`customer service admin (DE02), field "sloc=${largest?.sloc ?? 'V001'}" (the largest location)`, `sloc=${largest?.sloc ?? 'V001'}`, 'cs.admin'],
    [`customer service admin (DE02), field "wc=${largest?.wc ?? 'FI01M001'}" (the largest work centre)`, `wc=${largest?.wc ?? 'FI01M001'}`, 'cs.admin'],
    ['mechanic (FI01), "plant!=FI01" (none of their plants)', 'plant!=FI01', 'mechanic'],
  ];
  const cases: Array<[string, string, string]> = [];
  for (const status of ['all', 'arrived', 'incoming'] as const) {
    const [row] = await scaled.product.database.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(SUMMARY[status]);
    const deep = Math.max(2, Math.floor((Number(row?.n ?? 0) / 20) * 0.9));
    cases.push([`tab ${status}, page 1`, `${LIST}?${params({ status })}`, 'manager']);
    cases.push([`tab ${status}, deep page ${deep} (90% of the tab's ${row?.n} orders)`, `${LIST}?${params({ status, page: deep })}`, 'manager']);
    // The same page by keyset (docs/decisions/0035): the page before's next_cursor as `after`.
    const before = JSON.parse((await scaled.get(`${LIST}?${params({ status, page: deep - 1 })}`)).body) as { next_cursor?: string | null };
    if (before.next_cursor) cases.push([`tab ${status}, deep page ${deep} by cursor (after=)`, `${LIST}?${params({ status, page: deep, after: before.next_cursor })}`, 'manager']);
  }
  for (const [name, query, who] of searches) {
    cases.push([`${name}, page 1`, `${LIST}?${params({ query })}`, who]);
    const first = JSON.parse((await scaled.get(`${LIST}?${params({ query })}`, `${who}@example.com`)).body) as { pages: number };
    if (first.pages > 1) {
      const page = deepOf(first.pages);
      cases.push([`${name}, page ${page} of ${first.pages}`, `${LIST}?${params({ query, page })}`, who]);
      const before = JSON.parse((await scaled.get(`${LIST}?${params({ query, page: page - 1 })}`, `${who}@example.com`)).body) as { next_cursor?: string | null };
      if (before.next_cursor) cases.push([`${name}, page ${page} by cursor`, `${LIST}?${params({ query, page, after: before.next_cursor })}`, who]);
    }
  }
  // Tabs of a status that hold few orders or none (decision 0040): arrived by a goods receipt
  // alone, an incoming "Delivered" item.
  cases.push(['field "dl=on_the_way", tab arrived (by receipt only), page 1', `${LIST}?${params({ query: 'dl=on_the_way', status: 'arrived' })}`, 'manager']);
  cases.push(['field "dl=delivered", tab incoming (none), page 1', `${LIST}?${params({ query: 'dl=delivered', status: 'incoming' })}`, 'manager']);
  return cases;
}

export async function trackingBench(scaled: Scaled, loadSeconds = Number(process.env.BENCH_LOAD_SECONDS ?? 20), port = Number(process.env.BENCH_PORT ?? 8177)) {
  const first = JSON.parse((await scaled.get(`${LIST}?${params({})}`)).body) as { pages: number; count_total: number; counts_capped?: string[] };
  const [all] = await scaled.product.database.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(SUMMARY.all);
  const orderCount = Number(all?.n ?? 0);
  // BENCH_RUNS=0: the load alone, no call timed one by one.
  const cases = RUNS > 0 ? await trackingCases(scaled) : [];
  const latencies = [];
  for (const [name, url, who] of cases) latencies.push({ name, orders: orderCount, ...(await times(scaled, url, who)) });

  if (loadSeconds <= 0) return { latencies, capped: first.counts_capped ?? [], load: null };
  const reads = await pageMix(scaled);
  const writes = await writeMix(scaled, reads.length);
  const mix = [...reads, ...writes];
  await scaled.product.app.listen({ port, host: '127.0.0.1' });
  // The baseline runs in its own process: the product's backlog must not slow it down.
  const bare = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/bare-server.ts'], { env: { ...process.env, PORT: String(port + 1) }, stdio: 'ignore' });
  try {
    for (let i = 0; i < 100; i += 1) {
      if (await fetch(`http://127.0.0.1:${port + 1}/bare`).then((r) => r.ok, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const token = await scaled.token('manager@example.com');
    const list = await autocannon(`http://127.0.0.1:${port}${LIST}?${params({})}`, { ...BROWSER, authorization: `Bearer ${token}` }, loadSeconds);
    // Let the product finish the requests still queued before the next figure is measured.
    await fetch(`http://127.0.0.1:${port}/healthz`);
    const baseline = await autocannon(`http://127.0.0.1:${port + 1}/bare`, BROWSER, loadSeconds);
    const localPostgres = /@(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(scaled.databaseUrl);
    const mixed = await withProfile(() => withCpuSplit(() => autocannon(`http://127.0.0.1:${port}`, {}, loadSeconds, mix), localPostgres));
    await fetch(`http://127.0.0.1:${port}/healthz`);
    const replicas = scaled.databaseUrl ? await twoReplicas(scaled, port, port + 2, loadSeconds, mix) : null;
    return { latencies, capped: first.counts_capped ?? [], load: { list, bare: baseline, ratio: list.perSecond / baseline.perSecond, mix: { pages: reads.length, writes: writes.length, ...mixed }, replicas } };
  } finally {
    bare.kill('SIGTERM');
  }
}

/**
 * With BENCH_PROFILE=<file.cpuprofile>: a CPU profile of this process (the server; on PGlite its
 * database too) while `load` runs, written to the file (open it in Chrome's DevTools), and the
 * functions and packages that spent the most of it printed.
 */
async function withProfile<T>(load: () => Promise<T>): Promise<T> {
  const file = process.env.BENCH_PROFILE;
  if (!file) return load();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await load();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    writeFileSync(file, JSON.stringify(profile));
    const spent = new Map<number, number>();
    profile.samples?.forEach((id, i) => spent.set(id, (spent.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
    const byFunction = new Map<string, number>();
    const byPackage = new Map<string, number>();
    let total = 0;
    for (const node of profile.nodes) {
      const us = spent.get(node.id) ?? 0;
      total += us;
      const { functionName, url, lineNumber } = node.callFrame;
      const name = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + us);
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.startsWith('node:') ? 'node' : url.includes('/server/') || url.includes('/src/') ? 'ours' : functionName.startsWith('(') ? functionName : 'native');
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    }
    const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, us]) => `  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`).join('\n');
    console.log(`CPU profile of the mix written to ${file}\nby package:\n${top(byPackage, 15)}\nby function (self time):\n${top(byFunction, 25)}`);
  }
}

/**
 * The same mix through two replicas on one PostgreSQL (issue #16): a second server process on
 * the same database and DATA_DIR (so the same local issuer), 50 of the 100 connections on each.
 * Answers the sum of requests per second, the worse p50 and p99 of the two, and all errors.
 */
async function twoReplicas(scaled: Scaled, first: number, port: number, seconds: number, mix: AutocannonRequest[]): Promise<LoadFigures> {
  const second = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: scaled.databaseUrl, DATA_DIR: scaled.dataDir, SEED_ON_START: 'false', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', NODE_ENV: 'test', AUTH_LOCAL_ENABLED: 'true' },
    stdio: 'ignore',
  });
  try {
    for (let i = 0; !(await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)); i += 1) {
      if (second.exitCode !== null) throw new Error('the second replica exited during its start');
      if (i >= 1200) throw new Error('the second replica did not answer /healthz within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [a, b] = await Promise.all([autocannon(`http://127.0.0.1:${first}`, {}, seconds, mix, 50), autocannon(`http://127.0.0.1:${port}`, {}, seconds, mix, 50)]);
    return { perSecond: a.perSecond + b.perSecond, total: a.total + b.total, p50: Math.max(a.p50, b.p50), p99: Math.max(a.p99, b.p99), errors: a.errors + b.errors, non2xx: a.non2xx + b.non2xx };
  } finally {
    // Gone before the caller closes the product and removes DATA_DIR (its connections with it).
    if (second.exitCode === null) {
      const exited = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      const timer = setTimeout(() => second.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  }
}
