/**
 * Issue #5 end to end in Chromium against the real server: the mechanic finds seeded orders with
 * a `po>=` and a `mat=` search, opens an order whose timeline shows the document stages, and the
 * status monitor, once offline, still shows the pages read before with the time they were saved.
 */
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, login, test } from './fixtures';

interface Row {
  orderId: string;
  items: Array<{ materialCode: string; purchaseOrderDocNumber: string | null }>;
}

async function mechanicRows(request: APIRequestContext, query = ''): Promise<Row[]> {
  const { idToken } = (await (await request.post('/auth/local/token', { data: { email: 'mechanic@example.com' } })).json()) as { idToken: string };
  const res = await request.get(`/parts/v1/users/me/tracking-status?maxResults=100&query=${encodeURIComponent(query)}&page=1&status=all&myOrders=false`, {
    headers: { authorization: `Bearer ${idToken}` },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { trackingStatus: Row[] }).trackingStatus;
}

const orderLink = (page: Page, orderId: string) => page.getByRole('link', { name: `Service order ${orderId}` });

/** The seeded broadcast message greets a fresh device once; it is read and put away, as a mechanic does. */
async function putAwayImportantMessages(page: Page) {
  const toast = page.getByRole('region', { name: 'Important messages' });
  await toast.getByRole('button', { name: 'Dismiss' }).click();
  await expect(toast).toHaveCount(0);
}

test('the mechanic finds seeded orders by purchase order and material, and reads an order’s timeline', async ({ page, request }) => {
  const rows = await mechanicRows(request);
  const purchaseOrders = rows.flatMap((row) => row.items.map((item) => item.purchaseOrderDocNumber)).filter((po): po is string => po !== null).sort();
  const highest = purchaseOrders[purchaseOrders.length - 1]!;
  const withHighest = rows.find((row) => row.items.some((item) => item.purchaseOrderDocNumber === highest))!;
  const material = rows[1]!.items[0]!.materialCode;

  await login(page, 'mechanic@example.com');
  await expect(page).toHaveURL(/\/status-monitor/);
  await putAwayImportantMessages(page);
  await expect(page.getByRole('tab', { name: /^All/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: /^My orders/ })).toBeVisible();

  // A bad term is highlighted by its index and nothing is sent.
  const filter = page.getByLabel('Filter by');
  await filter.fill('door colour=red');
  await filter.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Term 2 “colour=red”: unknown field' })).toBeVisible();
  await expect(page.locator('[data-term-index="1"]')).toHaveClass(/bad/);

  // po>= : the order with the highest purchase order is found, and only orders at or above it.
  await filter.fill(`po>=${highest}`);
  await filter.press('Enter');
  await expect(page).toHaveURL(new RegExp(`q=po%3E%3D${highest}`));
  await expect(orderLink(page, withHighest.orderId)).toBeVisible();

  // mat= from the search screen, which keeps it in the last searches.
  await page.goto('/search');
  await page.getByLabel('Search orders').fill(`mat=${material}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/\/status-monitor\?q=mat%3D/);
  await expect(orderLink(page, rows[1]!.orderId)).toBeVisible();
  await page.goto('/search');
  await expect(page.getByRole('button', { name: `mat=${material}` })).toBeVisible();
  await expect(page.getByText('Free text: enter each search word separately')).toBeVisible();

  // The order's details: one timeline per item with the 8 document stages.
  await page.getByRole('button', { name: `mat=${material}` }).click();
  await orderLink(page, rows[1]!.orderId).click();
  await expect(page).toHaveURL(new RegExp(`/order-details/${rows[1]!.orderId}$`));
  const timeline = page.getByRole('list', { name: 'Timeline' }).first();
  await expect(timeline).toBeVisible();
  for (const stage of ['Service order', 'Reservation', 'Purchase order', 'Order confirmation', 'Goods receipt', 'Sales order', 'Schedule line', 'Delivery order']) {
    await expect(timeline.getByText(stage, { exact: true })).toBeVisible();
  }
  await expect(timeline.getByText(/Current stage/)).toBeVisible();
  await expect(page.getByRole('img', { name: /^Confirmation: / }).first()).toBeVisible();
});

test('offline, the status monitor shows the pages read before with the time they were saved', async ({ page, context }) => {
  await login(page, 'mechanic@example.com');
  await putAwayImportantMessages(page);
  const cards = page.locator('.order-card');
  await expect(cards).toHaveCount(20);
  // #16: the second page is read after the first page's last order (keyset), not by offset.
  const secondPage = page.waitForRequest((request) => request.url().includes('/tracking-status?') && new URL(request.url()).searchParams.get('page') === '2');
  await page.getByRole('button', { name: 'Load more' }).click();
  expect(new URL((await secondPage).url()).searchParams.get('after')).toMatch(/^[\w-]{10,}$/);
  await expect(cards).toHaveCount(40);
  // The pressed button left with the click: the focus goes on to the page it brought, not to the top.
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.result-page') === document.querySelectorAll('.result-page')[1])).toBe(true);
  const orders = await cards.getByRole('link').allTextContents();
  expect(new Set(orders).size, 'no order shows twice across the two pages').toBe(40);
  const firstOrder = await cards.first().getByRole('link').textContent();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  // Visit the other screen once online, so its code is on the device too.
  await nav.getByRole('link', { name: 'Stock count' }).click();
  await expect(page.getByRole('heading', { name: 'Stock count' })).toBeVisible();
  await nav.getByRole('link', { name: 'Status' }).click();
  await expect(cards).toHaveCount(40);

  await context.setOffline(true);
  await nav.getByRole('link', { name: 'Stock count' }).click();
  await expect(page).toHaveURL(/\/stock-count/);
  await nav.getByRole('link', { name: 'Status' }).click();

  // Back on the monitor: the same two pages, from the device, saying when they were saved.
  await expect(page).toHaveURL(/\/status-monitor\?more=1/);
  await expect(page.getByRole('status').filter({ hasText: /Offline · showing data saved .+\(.+\)/ })).toBeVisible();
  await expect(cards).toHaveCount(40);
  await expect(cards.first().getByRole('link')).toHaveText(firstOrder!);
  await context.setOffline(false);
});

test('started without signal, the monitor reads the server again once the signal is back, and the offline banner goes', async ({ page, context }) => {
  await login(page, 'mechanic@example.com');
  await putAwayImportantMessages(page);
  const cards = page.locator('.order-card');
  await expect(cards).toHaveCount(20);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  const banner = page.getByRole('status').filter({ hasText: /Offline · showing data saved/ });
  try {
    // Reopened in the basement: the app starts from the service worker and the device's copy.
    await context.setOffline(true);
    await page.reload();
    await expect(banner).toBeVisible();
    await expect(cards).toHaveCount(20);
    // Upstairs: the list is read again at once, whatever its stale time (the banner stayed until the next search).
    const reread = page.waitForResponse((response) => response.url().includes('/tracking-status?') && response.ok());
    await context.setOffline(false);
    await reread;
    await expect(banner).toHaveCount(0);
    await expect(cards).toHaveCount(20);
  } finally {
    await context.setOffline(false);
  }
});

test('#22: a page of orders is drawn a screenful first, then the rest in batches, and every order arrives', async ({ page }) => {
  // Every time cards are added to a list, how many were added at once (one React commit each).
  await page.addInitScript({
    content: `window.__cardBatches = [];
      new MutationObserver((records) => {
        let added = 0;
        for (const record of records) for (const node of record.addedNodes) {
          if (node.nodeType !== 1) continue;
          if (node.matches('li.order-card')) added += 1; else added += node.querySelectorAll('li.order-card').length;
        }
        if (added > 0) window.__cardBatches.push(added);
      }).observe(document, { childList: true, subtree: true });`,
  });
  await login(page, 'mechanic@example.com');
  await putAwayImportantMessages(page);
  await expect(page.locator('.order-card')).toHaveCount(20);
  await expect(page.getByRole('button', { name: 'Load more' })).toBeVisible();
  const batches = await page.evaluate(() => (window as unknown as { __cardBatches: number[] }).__cardBatches);
  expect(batches[0], `first batch of ${JSON.stringify(batches)}`).toBeLessThanOrEqual(5);
  expect(batches.length).toBeGreaterThan(1);
  expect(batches.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(20);
});

test('#22: the tabs and the list stay where they are when the first page answers after the first paint (no layout shift)', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await expect(page.locator('.order-card').first()).toBeVisible({ timeout: 30_000 });
  // On a phone, where a line more above the tabs moves everything under it.
  await page.setViewportSize({ width: 390, height: 844 });
  // A start whose list answers late: the screen is drawn first, then the answer arrives.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/tracking-status?**', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/status-monitor');
  const allTab = page.getByRole('tab', { name: /^All/ });
  await expect(allTab).toBeVisible({ timeout: 30_000 });
  const before = await allTab.boundingBox();
  release();
  await expect(page.locator('.order-card').first()).toBeVisible();
  // The mechanic has parcels waiting: the summary that says so comes with the list, under the tabs.
  await expect(page.getByText(/orders? wait at an access point/)).toBeVisible();
  const after = await allTab.boundingBox();
  expect({ y: after?.y, height: after?.height }).toEqual({ y: before?.y, height: before?.height });
});
