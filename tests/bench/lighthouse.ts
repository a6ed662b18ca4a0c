/**
 * Lighthouse mobile figures (#22): the landing page signed out and /status-monitor signed in,
 * with Lighthouse's default mobile settings (simulated slow 4G, 4× CPU slowdown, Moto G
 * Power viewport), `runs` runs each on a cold cache, median and range. Debian's Chromium is
 * launched by chrome-launcher (no browser download). Beside each run: the machine's CPU
 * benchmark index as Lighthouse measured it (the machine is shared: a low index means a busy
 * machine, and the scores with it).
 *
 * Figures, never assertions. `npx tsx tests/bench/lighthouse.ts http://localhost:8080 [runs]`
 * runs it alone against a server.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Result } from 'lighthouse';
import { chromium } from '@playwright/test';

export interface LighthouseRun {
  score: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  /** Scripts the page loaded: count and bytes over the wire (gzip). */
  scripts: number;
  scriptBytes: number;
  lcpElement: string;
  benchmarkIndex: number;
}

export interface LighthouseFigures {
  page: string;
  runs: LighthouseRun[];
  /** Runs that failed and were tried again. */
  failures: string[];
}

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

function lcpElementOf(lhr: Result): string {
  const details = lhr.audits['largest-contentful-paint-element']?.details as
    | { items?: Array<{ items?: Array<{ node?: { selector?: string; nodeLabel?: string } }> }> }
    | undefined;
  const node = details?.items?.[0]?.items?.[0]?.node;
  return node ? `${node.selector ?? ''} "${(node.nodeLabel ?? '').slice(0, 40)}"` : '—';
}

function runOf(lhr: Result): LighthouseRun {
  const requests = ((lhr.audits['network-requests']?.details as { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined)?.items ?? [])
    .filter((item) => item.resourceType === 'Script');
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: numeric('largest-contentful-paint'),
    fcpMs: numeric('first-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    scripts: requests.length,
    scriptBytes: requests.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    lcpElement: lcpElementOf(lhr),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

/** A cold start for the next run: no HTTP cache, no service worker, no Cache Storage, no mirror; localStorage (the session) stays. */
async function coldStart(debugPort: number, base: string, session: object | null): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debugPort}`);
  try {
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Storage.clearDataForOrigin', {
      origin: new URL(base).origin,
      storageTypes: 'service_workers,cache_storage,indexeddb,local_storage',
    });
    if (session) {
      // A same-origin page that is not the app, to write the session into localStorage.
      await page.goto(`${base}/healthz`);
      await page.evaluate((value) => localStorage.setItem('session', value), JSON.stringify(session));
      await cdp.send('Storage.clearDataForOrigin', { origin: new URL(base).origin, storageTypes: 'service_workers,cache_storage' });
      await cdp.send('Network.clearBrowserCache');
    }
    await page.close();
  } finally {
    // Disconnects Playwright only; the launched Chromium keeps running for Lighthouse.
    await browser.close();
  }
}

async function localSession(base: string, email: string) {
  const response = await fetch(`${base}/auth/local/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (!response.ok) throw new Error(`local sign-in failed: ${response.status}`);
  const { idToken, expiresIn } = (await response.json()) as { idToken: string; expiresIn: number };
  return { provider: 'local', email, idToken, expiresAt: Date.now() + expiresIn * 1000 };
}

export async function lighthouseFigures(base: string, runs = 3): Promise<LighthouseFigures[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined),
    chromeFlags: CHROME_FLAGS,
  });
  try {
    const pages: Array<{ page: string; url: string; email: string | null }> = [
      { page: 'landing (signed out)', url: `${base}/`, email: null },
      { page: '/status-monitor (signed in, mechanic)', url: `${base}/status-monitor`, email: 'mechanic@example.com' },
    ];
    const figures: LighthouseFigures[] = [];
    // LIGHTHOUSE_PAGES=monitor (or landing) measures one of the two, for paired before/after runs.
    const only = process.env.LIGHTHOUSE_PAGES;
    for (const { page, url, email } of pages.filter((entry) => !only || (only === 'monitor') === Boolean(entry.email))) {
      const results: LighthouseRun[] = [];
      const failures: string[] = [];
      // On a busy machine a run can fail (a protocol timeout): it is tried again, up to twice as many tries as runs.
      for (let tries = 0; results.length < runs && tries < runs * 2; tries += 1) {
        try {
          await coldStart(chrome.port, base, email ? await localSession(base, email) : null);
          const result = await lighthouse(url, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
            // Storage is reset by coldStart above, keeping the session in localStorage.
            disableStorageReset: true,
          });
          if (!result) throw new Error('Lighthouse returned no result');
          if (result.lhr.runtimeError) throw new Error(`Lighthouse: ${result.lhr.runtimeError.message}`);
          results.push(runOf(result.lhr));
          // LIGHTHOUSE_JSON_DIR=dir keeps each run's whole report (treemap, chains, main-thread tasks) for a closer look.
          const dir = process.env.LIGHTHOUSE_JSON_DIR;
          if (dir) {
            mkdirSync(dir, { recursive: true });
            writeFileSync(`${dir}/${email ? 'status-monitor' : 'landing'}-${results.length}.json`, JSON.stringify(result.lhr));
          }
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
      figures.push({ page, runs: results, failures });
    }
    return figures;
  } finally {
    chrome.kill();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const range = (values: number[], format: (value: number) => string) =>
  `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;

export function printLighthouseFigures(figures: LighthouseFigures[]): void {
  console.log('Lighthouse mobile (simulated slow 4G, 4× CPU), median (range) of the runs; goal: score ≥ 90, LCP ≤ 2.5 s, CLS ≤ 0.02');
  for (const { page, runs, failures } of figures) {
    if (failures.length > 0) console.log(`  ${page}: ${failures.length} failed run(s): ${failures.join('; ')}`);
    if (runs.length === 0) continue;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `  ${page}: score ${range(runs.map((r) => r.score), String)}, LCP ${range(runs.map((r) => r.lcpMs), seconds)}, ` +
        `CLS ${range(runs.map((r) => r.cls), (v) => v.toFixed(3))}, TBT ${range(runs.map((r) => r.tbtMs), (v) => `${Math.round(v)} ms`)}, ` +
        `JS ${range(runs.map((r) => r.scriptBytes), (v) => `${(v / 1024).toFixed(1)} KB`)} in ${median(runs.map((r) => r.scripts))} scripts`,
    );
    runs.forEach((run, index) =>
      console.log(
        `    run ${index + 1}: score ${run.score}, FCP ${seconds(run.fcpMs)}, LCP ${seconds(run.lcpMs)} on ${run.lcpElement}, CLS ${run.cls.toFixed(3)}, ` +
          `JS ${(run.scriptBytes / 1024).toFixed(1)} KB / ${run.scripts}, CPU benchmark index ${Math.round(run.benchmarkIndex)}`,
      ),
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printLighthouseFigures(await lighthouseFigures(process.argv[2] ?? 'http://localhost:8080', Number(process.argv[3] ?? 3)));
}
