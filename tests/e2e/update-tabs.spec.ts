/**
 * A new version reaching an app open in two tabs (src/app/update-prompt.tsx): both tabs offer it;
 * the tab whose user takes it reloads on the new version, and the other one says so and waits,
 * keeping what its user typed, until its user updates it too (asked first while a form holds
 * unsaved text). The new version is the build served by a server of our own from a copy of
 * `dist/` whose service worker is changed during the test, as a deployment changes it.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { productServer, type ProductServer } from './product-server';

let server: ProductServer;
/** A number the demo mechanic does not have: typing it changes the form (their own would change nothing). */
const TYPED = '+358 50 765 4321';
let publicDir: string;

test.beforeAll(async () => {
  // A fresh database is migrated and seeded first: slow on a loaded machine.
  test.setTimeout(300_000);
  publicDir = mkdtempSync(join(tmpdir(), 'partstrack-update-'));
  cpSync('dist', publicDir, { recursive: true });
  // Compressed copies of the worker would be served unchanged (preCompressed): the plain file only.
  for (const copy of ['sw.js.br', 'sw.js.gz']) rmSync(join(publicDir, copy), { force: true });
  server = await productServer(8185, { PUBLIC_DIR: publicDir });
});
test.afterAll(async () => {
  await server?.stop();
  for (const dir of [publicDir, server?.dataDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** No newer worker waits: the page runs under the newest one. */
const nothingWaiting = (page: Page) => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting === null);

/** The page is served by the service worker (every start after the first is). */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 60_000 });
}

/** A mark in the page's memory: gone once the page reloads. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { updateMark?: string }).updateMark = 'before'));
const marked = (page: Page) => page.evaluate(() => (window as unknown as { updateMark?: string }).updateMark ?? null);

test('an update taken in one tab reloads that tab; the other says so, keeps what was typed and asks before it reloads', async ({ context }) => {
  test.setTimeout(240_000);
  const first = await context.newPage();
  await first.goto(`${server.origin}/`);
  await first.getByRole('button', { name: /mechanic@example\.com/ }).click();
  await first.waitForURL(/status-monitor/, { timeout: 60_000 });
  await first.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The first visit installs the worker; a reload starts under it, as every later start does.
  await first.reload();
  await controlled(first);

  const second = await context.newPage();
  await second.goto(`${server.origin}/notification-settings`);
  await controlled(second);
  const phone = second.locator('input[type="tel"]').first();
  await expect(phone).toBeVisible({ timeout: 30_000 });
  await expect(phone).not.toHaveValue(TYPED);
  await phone.fill(TYPED);
  await mark(first);
  await mark(second);

  // A deployment: the worker's script changes. The app looks for it (hourly, on return, online).
  appendFileSync(join(publicDir, 'sw.js'), '\n// the next version\n');
  await first.evaluate(async () => {
    await (await navigator.serviceWorker.getRegistration())?.update();
  });
  const offered = 'A new version of PartsTrack is ready.';
  await expect(first.getByRole('status').filter({ hasText: offered })).toBeVisible({ timeout: 60_000 });
  await expect(second.getByRole('status').filter({ hasText: offered })).toBeVisible({ timeout: 60_000 });

  // The first tab takes it and reloads on the new worker.
  await first.getByRole('button', { name: 'Update now' }).click();
  await expect.poll(() => marked(first).catch(() => 'reloading'), { timeout: 60_000 }).toBeNull();
  await controlled(first);
  expect(await nothingWaiting(first)).toBe(true);
  await expect(first.getByRole('status').filter({ hasText: offered })).toHaveCount(0);

  // The second tab did not reload: it says the update happened elsewhere, and the typed number stays.
  await expect(second.getByText('PartsTrack was updated in another tab.', { exact: false })).toBeVisible({ timeout: 30_000 });
  expect(await marked(second)).toBe('before');
  await expect(phone).toHaveValue(TYPED);

  // Its Update asks first, the form holding unsaved text: keeping the text changes nothing.
  await second.getByRole('button', { name: 'Update now' }).click();
  await expect(second.getByRole('alert').filter({ hasText: 'holds text that is not saved yet' })).toBeVisible();
  await second.getByRole('button', { name: 'Keep my text' }).click();
  expect(await marked(second)).toBe('before');
  await expect(phone).toHaveValue(TYPED);
  // Updating anyway reloads it on the new version.
  await second.getByRole('button', { name: 'Update now' }).click();
  await second.getByRole('button', { name: 'Update anyway' }).click();
  await expect.poll(() => marked(second).catch(() => 'reloading'), { timeout: 60_000 }).toBeNull();
  await controlled(second);
  await expect(second.getByText('PartsTrack was updated in another tab.', { exact: false })).toHaveCount(0);
});
