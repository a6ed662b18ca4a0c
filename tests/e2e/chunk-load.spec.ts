/**
 * §8, §9 (#19 item 4, #22): a screen whose chunk cannot be loaded says so — missing, with the
 * file — inside the shell, and offers a reload that brings the screen once the file is there.
 * And the first screen: the landing page renders its card before /auth/config answers.
 */
import { expect, login, test } from './fixtures';

// Chunks must come from the network, not the service worker's precache, to be refused here.
test.use({ serviceWorkers: 'block' });

test('a screen whose chunk is missing says so inside the shell, and Reload brings it', async ({ page, allowConsoleErrors }) => {
  test.slow(); // sign-in, shell, a failed screen and a reload: long on a busy machine
  allowConsoleErrors(/Loading chunk failed|Failed to fetch dynamically imported module|error occurred|ChunkLoadError/i);
  await login(page, 'mechanic@example.com');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible({ timeout: 30_000 });
  await page.route(/\/assets\/stock-management-page-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Stock', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'This part of the app did not load' })).toBeVisible();
  await expect(page.getByText(/could not be loaded \(missing\)/)).toBeVisible();
  await expect(page.getByText(/^missing: .*stock-management-page-.*\.js/)).toBeVisible();
  // Still inside the shell: the navigation stays.
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await page.unroute(/\/assets\/stock-management-page-[^/]+\.js$/);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { name: 'This part of the app did not load' })).toBeHidden();
  await expect(page).toHaveURL(/\/stock-management$/);
});

test('the landing card is drawn before /auth/config answers, and the demo accounts fill in below it', async ({ page }) => {
  let answer: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/auth/config', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'PartsTrack' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'sign-in options' })).toBeAttached();
  const titleBefore = await page.getByRole('heading', { name: 'PartsTrack' }).boundingBox();
  answer();
  await expect(page.getByRole('button', { name: /mechanic@example\.com/ })).toBeVisible();
  // Nothing above the options moved when they arrived (no layout shift).
  expect(await page.getByRole('heading', { name: 'PartsTrack' }).boundingBox()).toEqual(titleBefore);
});

test('a signed-in start asks for the profile, permissions, plants and the first page while the app is still loading, once each', async ({ page }) => {
  test.slow(); // sign-in and a second start
  await login(page, 'mechanic@example.com');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible({ timeout: 30_000 });
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/^\/(user_api|parts|api)\//.test(url.pathname)) calls.push(`${url.pathname}${url.search}`);
  });
  // The app's chunk is held back: the calls must not wait for it (#22, src/lib/early-calls.ts).
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/app-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/status-monitor');
  const firstPage = '/parts/v1/users/me/tracking-status?query=&status=all&myOrders=false&maxResults=20&page=1';
  const early = ['/user_api/v1/user/profile', '/user_api/v1/constants/permissions', '/user_api/v1/system_parameters/allowed_plants', firstPage];
  await expect.poll(() => early.filter((call) => calls.includes(call))).toEqual(early);
  release();
  await expect(page.locator('li.order-card').first()).toBeVisible({ timeout: 30_000 });
  // The app used those answers instead of asking again.
  for (const call of early) expect(calls.filter((made) => made === call), call).toHaveLength(1);
});

test('the device database, the sync engine and the scanner are fetched once the first list is drawn, not before', async ({ page }) => {
  test.slow(); // sign-in and a second start
  await login(page, 'mechanic@example.com');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible({ timeout: 30_000 });
  // When the first order card is in the page, in the page's own clock (#22, lib/after-first-screen.ts).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('li.order-card')) return;
      (window as unknown as { listDrawnAt: number }).listDrawnAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto('/status-monitor');
  await expect(page.locator('li.order-card').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /scan/i }).first()).toBeVisible();
  const later = /\/assets\/(db|sync|scan-button)-[^/]+\.js$/;
  // The three start together once the list is drawn; a resource is listed when it has arrived.
  await expect
    .poll(
      () =>
        page.evaluate(
          (pattern) =>
            performance
              .getEntriesByType('resource')
              .filter((entry) => new RegExp(pattern).test(new URL(entry.name).pathname))
              .map((entry) => new URL(entry.name).pathname.replace(/-[\w-]{8}\.js$/, ''))
              .sort(),
          later.source,
        ),
      { timeout: 30_000 },
    )
    .toEqual(['/assets/db', '/assets/scan-button', '/assets/sync']);
  const { listDrawnAt, fetched } = await page.evaluate((pattern) => {
    const re = new RegExp(pattern);
    return {
      listDrawnAt: (window as unknown as { listDrawnAt: number }).listDrawnAt,
      fetched: performance
        .getEntriesByType('resource')
        .filter((entry) => re.test(new URL(entry.name).pathname))
        .map((entry) => ({ file: new URL(entry.name).pathname, at: entry.startTime })),
    };
  }, later.source);
  expect(fetched.map(({ file }) => file.replace(/-[\w-]{8}\.js$/, '')).sort()).toEqual(['/assets/db', '/assets/scan-button', '/assets/sync']);
  for (const { file, at } of fetched) expect(at, file).toBeGreaterThan(listDrawnAt);
});

test('a start on an app path asks for the app chunk and the English texts with the page, not after the entry, and on a count for its screen too; the landing page asks for none of them', async ({ page }) => {
  test.slow(); // sign-in and a second start
  await page.goto('/');
  await expect(page.getByRole('button', { name: /mechanic@example\.com/ })).toBeVisible({ timeout: 30_000 });
  const landingScripts = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname));
  expect(landingScripts.filter((path) => /\/assets\/(app|en-US)-[^/]+\.js$/.test(path))).toEqual([]);
  await login(page, 'mechanic@example.com');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible({ timeout: 30_000 });
  // Who asked for each file (#22, vite.config.ts appPage): 'parser' is the page itself.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // A cold start: every file from the network (a cached file may be reported as asked for by the import).
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const initiators = new Map<string, string>();
  // Only the files of the document being started (its loader): the page before may still fetch
  // what waits for its first screen (the device database) while the next one starts.
  let started = '/status-monitor';
  let loader: string | undefined;
  cdp.on('Network.requestWillBeSent', ({ request, initiator, loaderId, type }) => {
    const path = new URL(request.url).pathname;
    if (type === 'Document' && path === started) loader = loaderId;
    const file = /\/assets\/(index|app|base|en-US|mechanic-view-page|db)-[^/]+\.js$/.exec(path)?.[1];
    if (file && !initiators.has(file) && loaderId === loader) initiators.set(file, initiator.type);
  });
  await page.goto('/status-monitor');
  await expect(page.locator('li.order-card').first()).toBeVisible({ timeout: 30_000 });
  // `base` (React's DOM, i18next, what the landing page shares with the app) is one file
  // (vite.config.ts). The device database is not named by the monitor's page: it comes after the
  // first list is drawn (the test above), maybe already while this check runs.
  const { db: deviceDb, ...named } = Object.fromEntries(initiators);
  expect(named).toEqual({ index: 'parser', app: 'parser', base: 'parser', 'en-US': 'parser' });
  expect(deviceDb ?? 'not asked for').not.toBe('parser');
  // A count's page names its screen and the device database too (src/contract/pages.ts).
  initiators.clear();
  started = '/mechanic-view/27';
  loader = undefined;
  await page.goto('/mechanic-view/27');
  await expect(page.locator('[data-line]').first()).toBeVisible({ timeout: 30_000 });
  expect(Object.fromEntries(initiators)).toMatchObject({ app: 'parser', 'mechanic-view-page': 'parser', db: 'parser' });
});

test('a count whose scanner cannot load is still counted: the scanner is left out, not the screen', async ({ page, allowConsoleErrors }) => {
  test.slow();
  allowConsoleErrors(/Loading chunk failed|Failed to fetch dynamically imported module|error occurred|ChunkLoadError|optional part/i);
  await page.route(/\/assets\/count-scanner-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await login(page, 'mechanic@example.com');
  await page.goto('/mechanic-view/27');
  await expect(page.getByRole('heading', { name: 'Stock count 27' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('input[data-quantity]').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This part of the app did not load' })).toHaveCount(0);
  await expect(page.getByLabel('Search materials in this count')).toBeVisible();
});
