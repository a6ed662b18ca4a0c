/**
 * The tracking list on the scaled seed (≥ 100,000 order items): p50 / p99 of page 1, a deep page,
 * free text and field filters; then 20 s of load at 100 connections (autocannon, a separate
 * process) on the list call and, in the same run, on a bare Fastify route: requests/s of both
 * and their ratio. Goals: p99 ≤ 50 ms; the list at ≥ 25% of the bare route's throughput.
 */
import { spawn } from 'node:child_process';
import type { Scaled } from './scaled';

const LIST = '/parts/v1/users/me/tracking-status';

function autocannon(url: string, headers: Record<string, string>, seconds: number): Promise<number> {
  const args = ['-c', '100', '-d', String(seconds), '-j', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/autocannon/autocannon.js', ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
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

export async function trackingBench(scaled: Scaled, loadSeconds = 20) {
  const first = JSON.parse((await scaled.get(`${LIST}?status=all`)).body) as { pages: number; count_total: number };
  const deep = Math.max(1, Math.floor(first.pages * 0.9));
  const cases = [
    ['page 1', `${LIST}?status=all&page=1`],
    [`deep page (${deep})`, `${LIST}?status=all&page=${deep}`],
    ['free text "rope"', `${LIST}?status=all&query=rope`],
    ['field filters "po>=4500100000 plant=FI01"', `${LIST}?status=all&query=${encodeURIComponent('po>=4500100000 plant=FI01')}`],
  ] as const;
  const latencies = [];
  for (const [name, url] of cases) latencies.push({ name, orders: first.count_total, ...(await scaled.time(url)) });

  const port = 8177;
  await scaled.product.app.listen({ port, host: '127.0.0.1' });
  // The baseline runs in its own process: the product's backlog must not slow it down.
  const bare = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/bare-server.ts'], { env: { ...process.env, PORT: String(port + 1) }, stdio: 'ignore' });
  try {
    for (let i = 0; i < 100; i += 1) {
      if (await fetch(`http://127.0.0.1:${port + 1}/bare`).then((r) => r.ok, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const token = await scaled.token('manager@example.com');
    const list = await autocannon(`http://127.0.0.1:${port}${LIST}?status=all&page=1`, { authorization: `Bearer ${token}` }, loadSeconds);
    // Let the product finish the requests still queued before the baseline is measured.
    await fetch(`http://127.0.0.1:${port}/healthz`);
    const baseline = await autocannon(`http://127.0.0.1:${port + 1}/bare`, {}, loadSeconds);
    return { latencies, load: { list, bare: baseline, ratio: list / baseline } };
  } finally {
    bare.kill('SIGTERM');
  }
}
