/**
 * Screenshots of every route at phone (390×844) and desktop (1280×800) sizes, in the light and the
 * dark theme, for looking at what we build (#21). Usage: start the server (npm start), then
 * `npx tsx scripts/screenshots.ts [baseUrl] [outDir]`. Narrow it with SHOTS (a regular expression
 * on the shot name), SIZES (phone,desktop) and THEMES (light,dark). Files: <shot>-<size>-<theme>.png.
 */
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from '@playwright/test';

const baseUrl = process.argv[2] ?? 'http://localhost:8080';
const outDir = process.argv[3] ?? 'screenshots';
mkdirSync(outDir, { recursive: true });
const only = process.env.SHOTS ? new RegExp(process.env.SHOTS) : null;
const sizeNames = (process.env.SIZES ?? 'phone,desktop').split(',');
const themeNames = (process.env.THEMES ?? 'light,dark').split(',') as Array<'light' | 'dark'>;

const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  // Lazy screens and their first queries: wait until no spinner is left.
  for (let i = 0; i < 2; i += 1) {
    await page.waitForFunction(() => !document.querySelector('.spinner, [aria-busy="true"]'), null, { timeout: 15_000 }).catch(() => {});
    await page.waitForTimeout(300);
  }
}

async function signIn(page: Page, email: string) {
  await page.goto(`${baseUrl}/`);
  await page.getByRole('button', { name: new RegExp(email.replace(/[.]/g, '\\.')) }).click();
  await page.waitForURL((url) => url.pathname !== '/');
  await settle(page);
}

function visit(email: string, path: string) {
  return async (page: Page) => {
    await signIn(page, email);
    await page.goto(`${baseUrl}${path}`);
    await settle(page);
  };
}

/** A route with a parameter: open the list, then follow its first link of that kind. */
function follow(email: string, path: string, link: string) {
  return async (page: Page) => {
    await visit(email, path)(page);
    await page.locator(link).first().click();
    await settle(page);
  };
}

type Shot = [name: string, action: (page: Page) => Promise<void>, after?: (page: Page) => Promise<void>];

/**
 * #18: a count of four materials shared by the mechanic and Mikko (one material counted by both),
 * partly counted, with one difference: made through the API once per run, for the split screens.
 */
async function splitCount(): Promise<number> {
  const token = async (email: string) => ((await (await fetch(`${baseUrl}/auth/local/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })).json()) as { idToken: string }).idToken;
  const call = async (email: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api/v2/${path}`, { method, headers: { authorization: `Bearer ${await token(email)}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const lines = (await call('supervisor@example.com', 'GET', 'my_material_count?stockCountId=27&page=1&maxResults=4&orderByColumn=id&sortDirection=asc')).material_counts as Array<{ material_code: string }>;
  const codes = lines.map((line) => line.material_code);
  // Split as it is created: a count sent at once names who counts it (its parts' counters here).
  const { id } = (await call('supervisor@example.com', 'POST', 'my_stock_count', {
    plant: 'FI01',
    storageLocation: 'V001',
    type: 'single',
    materialCodes: codes,
    parts: [
      { counter: 'mechanic@example.com', label: 'Shelf A', materialCodes: codes.slice(0, 2) },
      { counter: 'mikko.virtanen@lift.example', materialCodes: [codes[0]], rest: true },
    ],
    controlMaterialCodes: [codes[0]],
  })) as { id: number };
  const ids = (await call('supervisor@example.com', 'GET', `my_material_count?stockCountId=${id}&page=1&maxResults=10`)).material_counts as Array<{ id: number; material_code: string }>;
  const idOf = (code: string) => ids.find((line) => line.material_code === code)!.id;
  await call('mechanic@example.com', 'PUT', 'my_stock_count/part/quantities', { stockCountId: id, quantities: [{ materialCountId: idOf(codes[0]!), quantity: 5 }] });
  await call('mikko.virtanen@lift.example', 'PUT', 'my_stock_count/part/quantities', {
    stockCountId: id,
    quantities: [{ materialCountId: idOf(codes[0]!), quantity: 6 }, { materialCountId: idOf(codes[2]!), quantity: 1 }],
  });
  return id;
}
let split: Promise<number> | null = null;
const splitId = () => (split ??= splitCount());

const shots: Shot[] = [
  ['landing', async (page) => { await page.goto(`${baseUrl}/`); await settle(page); }],
  ['welcome-pending', (page) => signIn(page, 'pending@example.com')],
  ['user-expired', (page) => signIn(page, 'expired@example.com')],
  ['status-monitor-mechanic', (page) => signIn(page, 'mechanic@example.com')],
  ['status-monitor-manager', (page) => signIn(page, 'manager@example.com'), async (page) => {
    const more = page.getByRole('button', { name: 'More', exact: true });
    if (await more.isVisible()) {
      await more.click();
      await page.screenshot({ path: 'MORE' });
    }
  }],
  ['search', visit('mechanic@example.com', '/search')],
  ['order-details', follow('mechanic@example.com', '/status-monitor', 'a[href^="/order-details/"]')],
  ['notifications', visit('mechanic@example.com', '/notifications')],
  ['stock-count-mechanic', visit('mechanic@example.com', '/stock-count')],
  ['stock-count-supervisor', visit('supervisor@example.com', '/stock-count')],
  ['mechanic-view', visit('mechanic@example.com', '/mechanic-view/27')],
  ['material-count-search', visit('mechanic@example.com', '/material-count-search/27')],
  ['print-count', visit('supervisor@example.com', '/print-count/27')],
  ['mechanic-view-part', async (page) => visit('mechanic@example.com', `/mechanic-view/${await splitId()}`)(page)],
  ['count-merge', async (page) => visit('supervisor@example.com', `/count-merge/${await splitId()}`)(page)],
  ['count-split-dialog', async (page) => {
    await visit('supervisor@example.com', `/count-merge/${await splitId()}`)(page);
    await page.getByRole('button', { name: 'Change counters' }).click();
    await settle(page);
  }],
  ['priority-manager', visit('pm.writer@example.com', '/priority-manager')],
  ['stock-management', visit('mechanic@example.com', '/stock-management')],
  ['stock-transfers-mechanic', visit('mechanic@example.com', '/stock-management?transfers=1')],
  ['stock-transfers-admin', visit('stock.admin@example.com', '/stock-management?transfers=1')],
  ['stock-management-search', visit('manager@example.com', '/stock-management-search')],
  ['users-management', visit('manager@example.com', '/users-management')],
  ['approval-request', async (page) => {
    await visit('manager@example.com', '/users-management')(page);
    const pending = page.getByRole('tab', { name: /Pending/ });
    if (await pending.count()) await pending.first().click();
    await settle(page);
    await page.locator('a[href^="/approval-request/"]').first().click();
    await settle(page);
  }],
  ['user-profile', visit('mechanic@example.com', '/user-profile')],
  ['notification-settings', visit('mechanic@example.com', '/notification-settings')],
  ['info', visit('mechanic@example.com', '/info')],
  ['feedback', visit('mechanic@example.com', '/feedback')],
  ['change-log', visit('mechanic@example.com', '/change-log')],
  ['broadcast-messages', visit('manager@example.com', '/broadcast-messages')],
  ['dashboard', visit('manager@example.com', '/dashboard')],
  ['dashboard-day', follow('manager@example.com', '/dashboard', 'a[href^="/dashboard/"]')],
  ['file-dashboard', visit('stock.admin@example.com', '/file-dashboard')],
  ['frontliner-dashboard', visit('manager@example.com', '/frontliner-dashboard')],
  ['not-found', visit('mechanic@example.com', '/no-such-page')],
];

async function run(browser: Browser) {
  for (const sizeName of sizeNames) {
    const viewport = sizes[sizeName as keyof typeof sizes];
    for (const theme of themeNames) {
      for (const [shot, action, after] of shots) {
        if (only && !only.test(shot)) continue;
        const phone = sizeName === 'phone';
        const context = await browser.newContext({ viewport, deviceScaleFactor: 1, isMobile: phone, hasTouch: phone, colorScheme: theme });
        const page = await context.newPage();
        const file = `${outDir}/${shot}-${sizeName}-${theme}.png`;
        try {
          await action(page);
          await page.screenshot({ path: file });
          if (after) {
            const original = page.screenshot.bind(page);
            page.screenshot = (options) => original({ ...options, path: `${outDir}/${shot}-more-${sizeName}-${theme}.png` });
            await after(page);
          }
          console.log(file);
        } catch (error) {
          console.error(`${file}: ${(error as Error).message.split('\n')[0]}`);
        }
        await context.close();
      }
    }
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
await run(browser);
await browser.close();
console.log(`Screenshots written to ${outDir}/`);
