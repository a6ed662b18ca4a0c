/**
 * Scan to count (#17), end to end in Chromium against the real server. A keyboard-wedge scanner
 * (keys a few milliseconds apart, then Enter) is recognised anywhere on the count without a
 * focused field: offline, a scan jumps to its line and focuses its quantity; counting by scanning
 * adds 1 per scan (a zero-padded code and a filtered-out line too), the last scan can be undone,
 * an unknown code offers to add the material; after reconnecting the server holds the total once.
 *
 * The scanner's keys are dispatched inside the page in one go: a scanner's timing, without the
 * test depending on how fast this machine drives the browser.
 *
 * The camera: Chromium's fake capture device plays a Y4M video of the line's Code 128 rendered in
 * the test (./fake-camera.ts); offline, the ZXing wasm comes from the service worker's precache,
 * and no request leaves our origin.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { writeBarcodeVideo } from './fake-camera';
import { localToken, productServer, serverCountLines, type ProductServer } from './product-server';
import { wedgeScan } from './wedge-scan';

const BROWSER_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];

const COUNT_ID = 27; // the demo mechanic's initiated wall-to-wall count (seed)
let server: ProductServer;

test.beforeAll(async () => {
  test.setTimeout(300_000); // a fresh database is migrated and seeded first
  server = await productServer(Number(process.env.SCAN_E2E_PORT ?? 8207));
});
test.afterAll(async () => server?.stop());

const tokenFor = (request: APIRequestContext, email: string) => localToken(request, server.origin, email);
const serverLines = (request: APIRequestContext, token: string) => serverCountLines(request, server.origin, token, COUNT_ID);

const lineInput = (page: Page, code: string) => page.locator(`[data-line="${code}"] input[data-quantity]`);

test('keyboard-wedge scans count offline, and the server gets the total once', async ({ page, context, request }) => {
  test.setTimeout(300_000); // the server restarts mid-test: its start may take minutes on a loaded machine
  const origin = server.origin;
  const token = await tokenFor(request, 'mechanic@example.com');
  const before = await serverLines(request, token);
  expect(before.every((line) => line.quantity === null)).toBe(true);
  const numeric = before.find((line) => /^\d+$/.test(line.material_code));
  const jumped = before[before.length - 1]!;
  const counted = numeric ?? before[1]!;
  expect(counted.material_code).not.toBe(jumped.material_code);

  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: /mechanic@example\.com/ }).click();
  await page.waitForURL(/status-monitor/);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.goto(`${origin}/mechanic-view/${COUNT_ID}`);
  await expect(page.getByRole('heading', { name: `Stock count ${COUNT_ID}` })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('checkbox', { name: /Count by scanning/ })).toBeVisible({ timeout: 30_000 });

  // Into the basement.
  await server.stop();
  await context.setOffline(true);
  await expect(page.getByTestId('sync-status')).toContainText('Offline');

  // Nothing focused: a scan of the last line of a long list jumps to it and focuses its quantity.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await wedgeScan(page, jumped.material_code);
  await expect(lineInput(page, jumped.material_code)).toBeFocused();
  await expect(page.getByText(`${jumped.material_code}: not counted yet (${jumped.unit}). Type the quantity.`).first()).toBeVisible();
  await expect(lineInput(page, jumped.material_code)).toHaveValue('');

  // Counting by scanning: +1 per scan, also with the quantity field focused (the scan does not land in it).
  await page.getByRole('checkbox', { name: /Count by scanning/ }).check();
  await wedgeScan(page, counted.material_code);
  await expect(lineInput(page, counted.material_code)).toHaveValue('1');
  // Two scans in one burst (a scanner reading a label twice): both count, none is lost.
  await wedgeScan(page, `${counted.material_code}\n${counted.material_code}`);
  await expect(lineInput(page, counted.material_code)).toHaveValue('3');
  await expect(lineInput(page, counted.material_code)).toBeFocused();
  await wedgeScan(page, numeric ? `0000000000${numeric.material_code}` : counted.material_code.toLowerCase());
  await expect(lineInput(page, counted.material_code)).toHaveValue('4');
  await expect(page.getByText(`+1 ${counted.material_code}: now 4 ${counted.unit}`).first()).toBeVisible();
  // Leaving the line (a tap elsewhere) keeps the scans: the field held no typing of its own.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await expect(lineInput(page, counted.material_code)).toHaveValue('4');
  // Undo the last scan.
  await page.getByRole('button', { name: 'Undo last scan' }).first().click();
  await expect(lineInput(page, counted.material_code)).toHaveValue('3');
  // Only the counted line holds a quantity: the jump counted nothing.
  await expect(page.getByText(`1 of ${before.length} counted`)).toBeVisible();

  // A filter that hides the line is cleared by the scan.
  await page.getByLabel('Search materials in this count').fill(jumped.material_code);
  await expect(page.locator(`[data-line="${counted.material_code}"]`)).toHaveCount(0);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await wedgeScan(page, counted.material_code);
  await expect(lineInput(page, counted.material_code)).toHaveValue('4');
  await expect(page.getByLabel('Search materials in this count')).toHaveValue('');

  // A material that is not on the count: said so, with the offer to add it.
  await wedgeScan(page, 'KM000000ZZ');
  await expect(page.getByText('KM000000ZZ is not on this count.').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add KM000000ZZ to the count' }).first()).toBeVisible();

  // Counting by scanning off again: a scan jumps to the line (the list is virtual: the last line
  // is rendered only once scrolled to), and human typing there is a quantity (slow keys, short).
  await page.getByRole('checkbox', { name: /Count by scanning/ }).uncheck();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await wedgeScan(page, jumped.material_code);
  await expect(lineInput(page, jumped.material_code)).toBeFocused();
  await page.keyboard.type('2', { delay: 120 });
  await page.keyboard.press('Enter');
  await expect(lineInput(page, jumped.material_code)).toHaveValue('2');

  // Reopen the app, still offline: the scans are on the device.
  await page.reload();
  await expect(page.getByRole('heading', { name: `Stock count ${COUNT_ID}` })).toBeVisible({ timeout: 60_000 });
  await expect(lineInput(page, counted.material_code)).toHaveValue('4');

  // Upstairs: the server gets each line once, with the last value.
  await server.start();
  await context.setOffline(false);
  await expect(page.getByTestId('sync-status')).toHaveAttribute('aria-label', /All changes saved on the server/, { timeout: 60_000 });
  const after = await serverLines(request, token);
  expect(after.find((line) => line.material_code === counted.material_code)).toEqual(expect.objectContaining({ quantity: 4, version: 1 }));
  expect(after.find((line) => line.material_code === jumped.material_code)).toEqual(expect.objectContaining({ quantity: 2, version: 1 }));
  expect(after.filter((line) => line.material_code !== counted.material_code && line.material_code !== jumped.material_code).every((line) => line.quantity === null)).toBe(true);
  expect(after.some((line) => line.material_code === 'KM000000ZZ')).toBe(false);

  // Online, a scan counts straight away too.
  await page.getByRole('checkbox', { name: /Count by scanning/ }).check();
  await wedgeScan(page, counted.material_code);
  await expect(lineInput(page, counted.material_code)).toHaveValue('5');
  // The status said "All changes saved" before this scan too: the server is asked until it has it.
  await expect
    .poll(async () => (await serverLines(request, token)).find((line) => line.material_code === counted.material_code), { timeout: 60_000 })
    .toEqual(expect.objectContaining({ quantity: 5, version: 2 }));
  await expect(page.getByTestId('sync-status')).toHaveAttribute('aria-label', /All changes saved on the server/, { timeout: 60_000 });

  // A material of the catalogue that is not on the count, scanned in count mode and added: the scan
  // was one piece, so the new line is counted 1, and the server gets that once.
  const catalogue = await request.get(`${origin}/api/v2/my_material?page=1&maxResults=100`, { headers: { authorization: `Bearer ${token}` } });
  expect(catalogue.status()).toBe(200);
  const onCount = new Set(before.map((line) => line.material_code));
  const extra = ((await catalogue.json()).my_material_items as Array<{ material_code: string }>).find((item) => !onCount.has(item.material_code))!;
  expect(extra).toBeDefined();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await wedgeScan(page, extra.material_code);
  await page.getByRole('button', { name: `Add ${extra.material_code} to the count` }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: new RegExp(extra.material_code) }).first().click();
  await page.getByRole('button', { name: 'Close' }).click();
  await page.getByLabel('Search materials in this count').fill(extra.material_code);
  await expect(lineInput(page, extra.material_code)).toHaveValue('1');
  await expect
    .poll(async () => (await serverLines(request, token)).find((line) => line.material_code === extra.material_code), { timeout: 60_000 })
    .toEqual(expect.objectContaining({ quantity: 1 }));

  // A total typed and a scan before leaving the field: the scan adds its 1 to what was typed.
  await page.getByLabel('Search materials in this count').fill(counted.material_code);
  await lineInput(page, counted.material_code).fill('7');
  await wedgeScan(page, counted.material_code);
  await expect(lineInput(page, counted.material_code)).toHaveValue('8');
  await expect
    .poll(async () => (await serverLines(request, token)).find((line) => line.material_code === counted.material_code), { timeout: 60_000 })
    .toEqual(expect.objectContaining({ quantity: 8 }));
});

test('the camera counts offline through the ZXing wasm served by us, and the server gets the total once', async ({ request }) => {
  test.setTimeout(360_000); // the server restarts mid-test: its start may take minutes on a loaded machine
  const origin = server.origin;
  const token = await tokenFor(request, 'mechanic@example.com');
  const line = (await serverLines(request, token))[3]!;
  expect(line.quantity).toBeNull();

  // The camera: the line's Code 128 for 1.5 s, then 2.5 s of nothing, looped — a code shown again and again.
  const video = join(mkdtempSync(join(tmpdir(), 'partstrack-camera-')), 'camera.y4m');
  const launch = (extra: string[] = []) =>
    chromium.launch({ executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined, args: [...BROWSER_ARGS, ...extra] });
  const maker = await launch();
  await writeBarcodeVideo(maker, video, { text: line.material_code, on: 15, off: 25 });
  await maker.close();
  const browser = await launch(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${video}`]);
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (sent) => {
      if (new URL(sent.url()).origin !== origin && !sent.url().startsWith('data:')) foreign.push(sent.url());
    });
    await page.goto(`${origin}/`);
    await page.getByRole('button', { name: /mechanic@example\.com/ }).click();
    await page.waitForURL(/status-monitor/);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto(`${origin}/mechanic-view/${COUNT_ID}`);
    await expect(page.getByRole('heading', { name: `Stock count ${COUNT_ID}` })).toBeVisible({ timeout: 60_000 });
    await page.getByRole('checkbox', { name: /Count by scanning/ }).check();

    await server.stop();
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    const sheet = page.getByRole('dialog', { name: `Scan into count ${COUNT_ID}` });
    // Linux Chromium has no Barcode Detection API: the ponyfill reads, from the precache.
    await expect(sheet).toHaveAttribute('data-engine', 'zxing-wasm', { timeout: 60_000 });
    await expect.poll(async () => Number(await lineInput(page, line.material_code).inputValue()), { timeout: 90_000 }).toBeGreaterThanOrEqual(2);
    // The phone locked or another app in front: the camera is let go (its light off), and taken
    // again when the page shows.
    const cameraLive = () =>
      page.evaluate(() => {
        const stream = document.querySelector<HTMLVideoElement>('.scanner-video')?.srcObject as MediaStream | null | undefined;
        return stream ? stream.getVideoTracks().some((track) => track.readyState === 'live') : false;
      });
    const showPage = (state: 'hidden' | 'visible') =>
      page.evaluate((wanted) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => wanted });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => wanted === 'hidden' });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    expect(await cameraLive()).toBe(true);
    await showPage('hidden');
    await expect.poll(cameraLive).toBe(false);
    await showPage('visible');
    await expect.poll(cameraLive, { timeout: 30_000 }).toBe(true);
    await sheet.getByRole('button', { name: 'Close the scanner' }).click();
    await expect(sheet).toBeHidden();
    const counted = Number(await lineInput(page, line.material_code).inputValue());
    await expect(page.getByText(`+1 ${line.material_code}: now ${counted} ${line.unit}`).first()).toBeVisible();
    expect(foreign).toEqual([]);

    await server.start();
    await context.setOffline(false);
    await expect(page.getByTestId('sync-status')).toHaveAttribute('aria-label', /All changes saved on the server/, { timeout: 60_000 });
    expect((await serverLines(request, token)).find((row) => row.material_code === line.material_code)).toEqual(
      expect.objectContaining({ quantity: counted, version: 1 }),
    );
  } finally {
    await browser.close();
  }
});
