/**
 * #21: the daily screens on a phone (390×844). Their primary controls are on screen and not
 * covered — the point at a control's centre hits the control itself (elementFromPoint), with the
 * important-messages banner left open, as a mechanic who has not dismissed it sees the screen —
 * every tab of a tab bar is reachable, the selected one is scrolled into view, and actions'
 * feedback appears above the bottom bar.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect as baseExpect, login, test } from './fixtures';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
// Waiting, not timing: a loaded machine may take long to show a screen; nothing here measures speed.
test.setTimeout(180_000);
const expect = baseExpect.configure({ timeout: 30_000 });

/**
 * The control is inside the viewport and the topmost element at its centre is it (or inside it).
 * Polled: a bar lays itself out in the browser's next rendering step (a ResizeObserver reports
 * there), which may come after the control first shows; the user does nothing in between.
 */
async function expectUncovered(control: Locator, what: string) {
  await expect(control, what).toBeVisible();
  await expect
    .poll(
      () =>
        control.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const x = box.left + box.width / 2;
          const y = box.top + box.height / 2;
          if (!(box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth)) return 'outside the screen';
          const top = document.elementFromPoint(x, y);
          const covered = !top || !(top === element || element.contains(top) || (element instanceof HTMLLabelElement && element.control === top));
          return covered ? `covered by ${top ? `${top.tagName.toLowerCase()}.${top.className}` : 'nothing'}` : 'in view and uncovered';
        }),
      { message: what },
    )
    .toBe('in view and uncovered');
}

/** The tabs' names as shown (with their counts), as patterns that match each tab alone. */
async function tabNames(bar: Locator): Promise<RegExp[]> {
  return (await bar.getByRole('tab').allInnerTexts()).map((text) => new RegExp(`^${text.trim().split(/\s+/)[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
}

/** Every tab of the bar can be reached: selecting it scrolls it into view, uncovered. */
async function expectTabsReachable(page: Page, bar: Locator, names: RegExp[]) {
  for (const name of names) {
    const tab = bar.getByRole('tab', { name });
    await tab.dispatchEvent('click');
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expectUncovered(tab, `tab ${name}`);
  }
}

test('the count screen keeps its search and Submit on screen and uncovered, also scrolled down a long list', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await expect(page.getByRole('region', { name: 'Important messages' })).toBeVisible();
  await page.goto('/mechanic-view/27');
  const search = page.getByLabel('Search materials in this count');
  const submit = page.getByRole('button', { name: 'Submit', exact: true });
  await expect(page.getByText(/^0 of \d+ counted$/)).toBeVisible();
  const scan = page.getByRole('button', { name: 'Scan', exact: true });
  await expectUncovered(search, 'the search');
  await expectUncovered(submit, 'Submit');
  await expectUncovered(scan, 'Scan');
  const quantity = page.locator('input[data-quantity]').first();
  await expectUncovered(quantity, 'the first quantity field');
  await expectUncovered(page.getByRole('button', { name: /^One more of / }).first(), 'the + stepper');

  // Far down the list the sticky header still holds the progress, the search and Submit.
  await page.mouse.wheel(0, 3000);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  await expectUncovered(search, 'the search after scrolling');
  await expectUncovered(submit, 'Submit after scrolling');
  await expectUncovered(scan, 'Scan after scrolling');
  await expect(page.getByText(/^0 of \d+ counted$/)).toBeInViewport();

  // Book quantities on demand: hidden on the phone until asked for.
  const book = page.locator('.material-book').first();
  await expect(book).toBeHidden();
  await page.mouse.wheel(0, -10_000);
  await page.getByLabel('Show book quantities').check();
  await expect(book).toBeVisible();
});

test('the status monitor: its search and all five tabs are reachable and uncovered; the selected tab starts in view', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await expect(page.getByRole('region', { name: 'Important messages' })).toBeVisible();
  await expectUncovered(page.getByRole('button', { name: 'Search', exact: true }), 'Search');
  await expectUncovered(page.getByRole('checkbox', { name: 'Only my orders' }), 'Only my orders');
  const bar = page.getByRole('tablist', { name: 'Orders' });
  await expect(bar.getByRole('tab')).toHaveCount(5);
  await expectTabsReachable(page, bar, await tabNames(bar));

  // Opened on the last tab, the bar shows it without the user scrolling.
  await page.goto('/status-monitor?tab=notifications');
  await expectUncovered(bar.getByRole('tab', { name: /^Notifications/ }), 'the selected last tab');
});

test('stock: one dense row per item, the counts on tap; all tabs reachable', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await page.goto('/stock-management');
  const rows = page.locator('.stock-rows > li');
  await expect(rows.first()).toBeVisible();
  // Several items fit on the first screen (it was about 1.5 with eight label rows per item).
  const onScreen = await rows.evaluateAll((items) => items.filter((item) => item.getBoundingClientRect().bottom <= window.innerHeight - 60).length);
  expect(onScreen).toBeGreaterThanOrEqual(5);
  const first = rows.first().locator('summary');
  await expectUncovered(first, 'the first stock row');
  await expect(rows.first().getByText('Unrestricted')).toBeHidden();
  await first.click();
  await expect(rows.first().getByText('Unrestricted')).toBeVisible();
  await expectTabsReachable(page, page.getByRole('tablist', { name: 'Whose stock' }), [/^My stock$/, /^My team stock$/, /^My plant stock$/]);
});

test('the stock count list: New count uncovered, the dashboard folded so the list starts on the first screen', async ({ page }) => {
  await login(page, 'supervisor@example.com');
  await page.goto('/stock-count');
  await expectUncovered(page.getByRole('button', { name: 'New count' }), 'New count');
  // The dashboard is folded on the phone: the list starts on the first screen.
  const dashboard = page.getByRole('button', { name: /Tasks in the last 30 days/ });
  await expect(dashboard).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('.count-card').first()).toBeInViewport();
});

test('users: every tab reachable', async ({ page }) => {
  await login(page, 'manager@example.com');
  await page.goto('/users-management');
  const bar = page.getByRole('tablist', { name: 'User lists' });
  await expect(bar.getByRole('tab').first()).toBeVisible();
  // The tabs the role has (a manager has no "My plant users").
  const names = await tabNames(bar);
  expect(names.length).toBeGreaterThan(2);
  await expectTabsReachable(page, bar, names);
});

test('users: a row keeps its first action and a "⋯" menu on one line; the menu works by keyboard and Escape closes it', async ({ page }) => {
  await login(page, 'manager@example.com');
  await page.goto('/users-management');
  const more = page.getByRole('button', { name: /^More actions for / }).first();
  await expect(more).toBeVisible();
  const row = page.getByRole('row').filter({ has: more }).first();
  const buttons = row.locator('.user-actions-list > .button, .user-actions-list .more-menu-button');
  await expect(buttons).toHaveCount(2);
  const tops = await buttons.evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().top)));
  expect(new Set(tops).size, 'the row’s buttons share one line').toBe(1);
  await expect(more).toHaveAttribute('aria-haspopup', 'menu');
  await expect(more).toHaveAttribute('aria-expanded', 'false');

  await more.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  const items = menu.getByRole('menuitem');
  expect(await items.count()).toBeGreaterThan(1);
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(items.last()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.first()).toBeFocused();
  for (let index = 0; index < (await items.count()); index += 1) await expectUncovered(items.nth(index), `menu item ${index + 1}`);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(more).toBeFocused();
  await expect(more).toHaveAttribute('aria-expanded', 'false');

  // A menu item does what it says: History opens the user's history.
  await more.click();
  await page.getByRole('menuitem', { name: /^History of / }).click();
  await expect(page.getByRole('dialog', { name: /^History of / })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Focus goes back to the "⋯" button that opened the dialog, not to <body>.
  await expect(more).toBeFocused();
  // A tap outside closes it.
  await more.click();
  await expect(menu).toBeVisible();
  await page.locator('.users-total').click();
  await expect(menu).toHaveCount(0);
});

test('notifications: every tab reachable', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await page.goto('/notifications');
  const bar = page.getByRole('tablist', { name: 'Notification lists' });
  await expect(bar.getByRole('tab').first()).toBeVisible();
  const names = await tabNames(bar);
  expect(names.length).toBeGreaterThan(2);
  await expectTabsReachable(page, bar, names);
});

test('a send notice is a toast above the bottom bar, not at the top of the page', async ({ page }) => {
  await login(page, 'supervisor@example.com');
  await page.goto('/stock-count');
  await page.getByRole('button', { name: 'New count' }).click();
  const dialog = page.getByRole('dialog');
  // A bottom sheet on the phone: it ends at the bottom of the screen.
  const sheet = await dialog.boundingBox();
  expect(Math.round(sheet!.y + sheet!.height)).toBeGreaterThanOrEqual(843);
  await dialog.getByLabel('Plant').selectOption('FI01');
  await dialog.getByLabel('Storage location').selectOption('V002');
  await dialog.getByLabel('Counted by').selectOption('mechanic@example.com');
  await dialog.getByRole('button', { name: 'Send to count' }).click();
  const toast = page.locator('.toast').filter({ hasText: /Stock count \d+ created and sent/ });
  await expect(toast).toBeVisible();
  const box = (await toast.boundingBox())!;
  const bar = (await page.getByRole('navigation', { name: 'Main navigation' }).boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(bar.y);
  expect(box.y).toBeGreaterThan(844 / 2);
  // The More menu opened while the toast shows is above it: Logout took the toast's taps.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'More' }).click();
  const logout = page.getByRole('button', { name: 'Logout' });
  await expect(logout).toBeVisible();
  // Read at once, while the toast still shows (a poll would pass once the toast has gone).
  const onLogout = await logout.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top === element || element.contains(top) ? 'Logout' : `${top?.tagName.toLowerCase()}.${top?.className}`;
  });
  await expect(toast).toBeVisible();
  expect(onLogout).toBe('Logout');
});

test('the priority manager: no table wider than its card', async ({ page }) => {
  await login(page, 'pm.writer@example.com');
  await page.goto('/priority-manager');
  const card = page.locator('.priority-card').first();
  await expect(card).toBeVisible();
  const overflow = await card.evaluate((element) => [...element.querySelectorAll('*')].some((child) => child.scrollWidth > child.clientWidth + 1 && getComputedStyle(child).overflowX !== 'visible'));
  expect(overflow).toBe(false);
  await expectUncovered(card.getByRole('button', { name: /^Change / }).first(), 'Change');

  // The upload is a full-width bottom sheet; its preview table scrolls inside, the sheet does not.
  await page.getByRole('button', { name: 'Upload priorities' }).click();
  const sheet = page.getByRole('dialog', { name: 'Add or update priorities (CSV)' });
  await sheet.getByLabel('CSV file').setInputFiles({ name: 'priorities.csv', mimeType: 'text/csv', buffer: Buffer.from('shipToPartyCode,accessPointId,priority\n0050010001,FI-AP-10611,9\n') });
  await expect(sheet.getByText('priorities.csv', { exact: true })).toBeVisible();
  const box = (await sheet.boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(390);
  expect(await sheet.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(1);
  await expectUncovered(sheet.getByRole('button', { name: /^Apply/ }), 'Apply');
});

/** Nothing on the page is wider than the screen: no sideways scrolling of the page or of a box in it. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const wide = await page.evaluate(() => {
    const screen = document.documentElement.clientWidth;
    const scrollers = [...document.querySelectorAll('body *')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1 && ['auto', 'scroll'].includes(getComputedStyle(element).overflowX))
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    return { page: document.documentElement.scrollWidth > screen, scrollers };
  });
  expect(wide.page, `${what}: the page scrolls sideways`).toBe(false);
  expect(wide.scrollers, `${what}: boxes that scroll sideways`).toEqual([]);
}

test('the print sheet fits a phone: each line a card with its barcode under the text; paper keeps the table', async ({ page }) => {
  await login(page, 'supervisor@example.com');
  await page.goto('/print-count/27');
  const firstLine = page.getByRole('region', { name: 'Materials to count, by bin' }).getByRole('row').nth(1);
  await expect(firstLine.getByRole('img', { name: /^Barcode of / })).toBeVisible();
  await expectNoSidewaysScroll(page, 'the print sheet');
  const text = (await firstLine.locator('.print-material').boundingBox())!;
  const code = (await firstLine.locator('.print-barcode').boundingBox())!;
  expect(code.y, 'the barcode is under the text').toBeGreaterThanOrEqual(text.y + text.height - 1);
  await expect(firstLine.locator('.write-in'), 'no write-in box on a screen').toBeHidden();

  await page.emulateMedia({ media: 'print' });
  await expect(firstLine.locator('.write-in'), 'the write-in column on paper').toBeVisible();
  expect(await page.locator('.print-sheet tbody tr').first().evaluate((row) => getComputedStyle(row).display)).toBe('table-row');
});

test('the scanner sheet without a camera: the message, then typing the code right under it, all on screen', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await page.goto('/mechanic-view/27');
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  const sheet = page.getByRole('dialog', { name: 'Scan into count 27' });
  const problem = sheet.getByRole('alert');
  await expect(problem).toContainText(/camera/i);
  const manual = sheet.getByLabel('Or type the code');
  await expectUncovered(manual, 'the code field');
  await expectUncovered(sheet.getByRole('button', { name: 'Use code' }), 'Use code');
  const message = (await problem.boundingBox())!;
  const field = (await manual.boundingBox())!;
  expect(field.y, 'the code field follows the message').toBeGreaterThan(message.y + message.height);
  expect(field.y - (message.y + message.height), 'nothing between the message and the code field but its label').toBeLessThan(60);
  await manual.fill('KM060170');
  await sheet.getByRole('button', { name: 'Use code' }).click();
  await expect(sheet).toBeHidden();
  await expect(page.locator('[data-line="KM060170"] input[data-quantity]')).toBeFocused();
});

test('notifications: a long body is folded to three lines; Show more unfolds it and says so', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await page.goto('/notifications');
  const more = page.getByRole('button', { name: 'Show more' }).first();
  await expect(more).toBeVisible();
  const bodyId = (await more.getAttribute('aria-controls'))!;
  const body = page.locator(`[id="${bodyId}"]`);
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  const folded = await body.evaluate((element) => ({ cut: element.scrollHeight > element.clientHeight + 1, lines: element.clientHeight / parseFloat(getComputedStyle(element).lineHeight) }));
  expect(folded.cut, 'the folded body hides the rest').toBe(true);
  expect(folded.lines).toBeLessThanOrEqual(3.1);
  await more.click();
  const less = page.getByRole('button', { name: 'Show less' }).first();
  await expect(less).toHaveAttribute('aria-expanded', 'true');
  expect(await body.evaluate((element) => element.scrollHeight <= element.clientHeight + 1), 'the unfolded body shows everything').toBe(true);
  await less.click();
  await expect(page.locator(`[aria-controls="${bodyId}"]`)).toHaveAttribute('aria-expanded', 'false');
});

test('the important-messages banner shows that it unfolds: a chevron and aria-expanded', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  const toggle = page.locator('.important-banner-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  const chevron = await toggle.evaluate((element) => getComputedStyle(element, '::after').borderRightStyle);
  expect(chevron).toBe('solid');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#important-messages-list')).toBeVisible();
});

test('the status monitor says why Arrived + Incoming may exceed All (orders with parts in both)', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  const bar = page.getByRole('tablist', { name: 'Orders' });
  const count = async (name: RegExp) => Number((await bar.getByRole('tab', { name }).locator('.tab-count').innerText()).replace(/\D/g, ''));
  await expect(bar.getByRole('tab', { name: /^All/ }).locator('.tab-count')).toBeVisible();
  const all = await count(/^All/);
  const both = (await count(/^Arrived/)) + (await count(/^Incoming/)) - all;
  expect(both, 'the seed has orders with parts both arrived and incoming').toBeGreaterThan(0);
  await expect(page.locator('.tab-note')).toContainText(`(${both} now)`);
});

test('the search guidance table fits the phone: no sideways scrolling', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await page.goto('/search');
  const table = page.getByRole('table', { name: 'Search fields and how to write them' });
  await expect(table).toBeVisible();
  const fits = await table.evaluate((element) => element.getBoundingClientRect().right <= document.documentElement.clientWidth);
  expect(fits, 'the table ends inside the screen').toBe(true);
  await expectNoSidewaysScroll(page, '/search');
  await page.goto('/info');
  await expect(page.getByRole('heading', { name: 'How to search' })).toBeVisible();
  await expectNoSidewaysScroll(page, '/info');
});

test('the /info icon legend: every icon stays a whole circle, also beside a meaning that wraps', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await page.goto('/info');
  const icons = page.locator('.track-legend .track-icon');
  await expect(icons.first()).toBeVisible();
  const sizes = await icons.evaluateAll((elements) => elements.map((element) => `${element.getAttribute('aria-label')}: ${Math.round(element.getBoundingClientRect().width)}×${Math.round(element.getBoundingClientRect().height)}`));
  expect(sizes.length).toBeGreaterThan(5);
  // Some meanings wrap on a 390 px phone; their icon was squeezed into an oval before.
  for (const size of sizes) expect(size).toMatch(/: 30×30$/);
});

test('broadcast messages: a message is whole in its box, no scrolling inside it', async ({ page }) => {
  await login(page, 'manager@example.com');
  await page.goto('/broadcast-messages');
  const box = page.getByLabel('Message 1');
  await expect(box).not.toHaveValue('');
  const fits = await box.evaluate((element) => element.scrollHeight <= element.clientHeight + 1);
  expect(fits, 'the seeded message (five lines on a phone) fits its box').toBe(true);
});

test('the stock count list filters: every label whole and beside or above its control, on the screen', async ({ page }) => {
  await login(page, 'supervisor@example.com');
  await page.goto('/stock-count');
  for (const name of ['Search counts', 'Type', 'Sort by']) {
    const control = page.getByLabel(name, { exact: true });
    await expectUncovered(control, name);
    const label = page.locator('label', { hasText: name }).first();
    await expect(label).toBeVisible();
    expect(await label.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), `${name}: the label is not cut`).toBe(true);
  }
  await expect(page.locator('.count-card').first()).toBeInViewport();
});

test('the priority manager: the uploads are one compact row, the others in a "⋯" menu', async ({ page }) => {
  await login(page, 'pm.writer@example.com');
  await page.goto('/priority-manager');
  const upload = page.getByRole('button', { name: 'Upload priorities' });
  const more = page.getByRole('button', { name: 'More priority actions' });
  await expectUncovered(upload, 'Upload priorities');
  await expectUncovered(more, 'the ⋯ menu');
  const [a, b] = [(await upload.boundingBox())!, (await more.boundingBox())!];
  expect(Math.abs(a.y - b.y), 'one row').toBeLessThan(4);
  await more.click();
  const items = page.getByRole('menuitem');
  expect(await items.count()).toBeGreaterThan(0);
  await page.getByRole('menuitem', { name: 'Add ship-to-party numbers' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(more, 'focus is back on the ⋯ button').toBeFocused();
});

/**
 * Runs `body` with the demo account's profile in `locale` (the app follows the profile), and gives
 * it back its language after: the e2e database is shared by the run.
 */
async function inLocale(request: APIRequestContext, email: string, locale: string, body: () => Promise<void>) {
  const token = ((await (await request.post('/auth/local/token', { data: { email } })).json()) as { idToken: string }).idToken;
  const headers = { authorization: `Bearer ${token}` };
  const before = ((await (await request.get('/user_api/v1/user/profile', { headers })).json()) as { locale: string }).locale;
  expect((await request.put('/user_api/v1/user/profile', { headers, data: { locale } })).status()).toBe(200);
  try {
    await body();
  } finally {
    expect((await request.put('/user_api/v1/user/profile', { headers, data: { locale: before } })).status(), 'the language given back').toBe(200);
  }
}

/** The rounded vertical centre of each element: equal centres share a row. */
const rowOf = (locator: Locator) => locator.evaluate((element) => Math.round(element.getBoundingClientRect().top + element.getBoundingClientRect().height / 2));

test('the count toolbar in German: the search with Recent searches and Add material, then Scan, the +1 switch and Submit: two rows under the progress', async ({ page, request }) => {
  await inLocale(request, 'mechanic@example.com', 'de-DE', async () => {
    await login(page, 'mechanic@example.com');
    await page.goto('/mechanic-view/27');
    const toolbar = page.locator('.count-toolbar');
    await expect(toolbar.getByText(/^0 von \d+ gezählt$/)).toBeVisible();
    const search = toolbar.getByLabel('Materialien in dieser Inventur suchen');
    const recent = toolbar.getByRole('link', { name: 'Letzte Suchen' });
    const add = toolbar.getByRole('button', { name: 'Material hinzufügen', exact: true });
    const scan = toolbar.getByRole('button', { name: 'Scannen', exact: true });
    // The switch keeps its words as its name; the phone shows its box and a "+1" chip.
    const mode = toolbar.getByRole('checkbox', { name: 'Durch Scannen zählen +1 pro Scan' });
    const submit = toolbar.getByRole('button', { name: 'Übermitteln', exact: true });
    for (const [control, what] of [[search, 'the search'], [recent, 'Recent searches'], [add, 'Add material'], [scan, 'Scan'], [mode, 'the switch'], [submit, 'Submit']] as const) {
      await expectUncovered(control, what);
    }
    await expect(toolbar.locator('.scan-mode-short')).toHaveText('+1');
    await expect(toolbar.locator('.scan-mode-long')).not.toBeInViewport();
    const first = await rowOf(search);
    expect([await rowOf(recent), await rowOf(add)], 'Recent searches and Add material beside the search').toEqual([first, first]);
    const second = await rowOf(scan);
    expect(second).toBeGreaterThan(first);
    expect([await rowOf(mode), await rowOf(submit)], 'the switch and Submit beside Scan').toEqual([second, second]);
    // "Übermitteln" whole, not cut by its button.
    expect(await submit.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    // The switch's whole row is a target, not only its 20 px box.
    expect((await toolbar.locator('.scan-mode').boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await mode.check();
    await expect(mode).toBeChecked();
    // The scanner sheet, drawn inside the toolbar, keeps its own order and words: the typed code's
    // label above its field, the switch's words in full.
    await scan.click();
    const sheet = page.getByRole('dialog');
    const typed = sheet.locator('label.field-label');
    await expect(typed).toBeVisible();
    const field = page.locator(`#${await typed.getAttribute('for')}`);
    expect((await typed.boundingBox())!.y, 'the label above its field').toBeLessThan((await field.boundingBox())!.y);
    await expect(sheet.locator('.scan-mode-long')).toBeVisible();
    await expect(sheet.locator('.scan-mode-words')).toBeVisible();
    await sheet.getByRole('button', { name: 'Schließen' }).click();
    await expect(sheet).toHaveCount(0);
    await add.click();
    await expect(page.getByRole('dialog', { name: /Material hinzufügen/ })).toBeVisible();
  });
});

/** The words of an element's first text that the browser broke across lines. */
async function brokenWords(element: Locator): Promise<string[]> {
  return element.evaluate((node) => {
    const text = node.firstChild!;
    const words: string[] = [];
    for (const match of (text.textContent ?? '').matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(text, match.index);
      range.setEnd(text, match.index + match[0].length);
      if (new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1) words.push(match[0]);
    }
    return words;
  });
}

test('stock in French: the three tabs share the phone’s width, none behind the edge, each word whole', async ({ page, request }) => {
  await inLocale(request, 'mechanic@example.com', 'fr-FR', async () => {
    await login(page, 'mechanic@example.com');
    await page.goto('/stock-management');
    const bar = page.getByRole('tablist', { name: 'Stock affiché' });
    await expect(bar.getByRole('tab', { name: 'Stock de mon équipe' })).toBeVisible();
    expect(await bar.evaluate((element) => element.scrollWidth <= element.clientWidth), 'the bar does not scroll').toBe(true);
    for (const tab of await bar.getByRole('tab').all()) {
      await expectUncovered(tab, `tab ${await tab.innerText()}`);
      expect(await brokenWords(tab)).toEqual([]);
    }
  });
});

test('users in German: every tab and the pending count on the first screen, each tab’s words whole', async ({ page, request }) => {
  await inLocale(request, 'manager@example.com', 'de-DE', async () => {
    await login(page, 'manager@example.com');
    await page.goto('/users-management');
    const bar = page.getByRole('tablist', { name: 'Benutzerlisten' });
    const pending = bar.getByRole('tab', { name: /^Offene Freigaben \d+$/ });
    await expect(pending).toBeVisible();
    await expect(pending.locator('.tab-count')).toHaveText(/^[1-9]\d*\+?$/);
    expect(await bar.evaluate((element) => element.scrollWidth <= element.clientWidth), 'the bar does not scroll').toBe(true);
    for (const tab of await bar.getByRole('tab').all()) {
      await expectUncovered(tab, `tab ${await tab.innerText()}`);
      // No word broken inside ("Freigegeben-e"): each word of its name is on one line.
      expect(await brokenWords(tab)).toEqual([]);
    }
    // The count is the pending list's length.
    await pending.click();
    const shown = Number((await pending.locator('.tab-count').innerText()).replace('+', ''));
    await expect(page.locator('.pending-list li')).toHaveCount(shown);
    // A small button is a thumb’s target on a phone.
    await bar.getByRole('tab', { name: /^Alle Benutzer/ }).click();
    const more = page.getByRole('button', { name: /^Weitere Aktionen für / }).first();
    expect((await more.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  });
});

test('the profile: the e-mail address on one line under its label, not broken beside it', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await page.goto('/user-profile');
  const email = page.locator('.fact-list .email');
  await expect(email).toHaveText('mechanic@example.com');
  const lines = await email.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
  expect(lines).toBe(1);
  const label = page.locator('.fact-list dt', { hasText: 'E-mail' });
  expect((await email.boundingBox())!.y).toBeGreaterThan((await label.boundingBox())!.y);
});

test('the count search opened first: Scan and the way back are targets of their own, not run together', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await page.goto('/material-count-search/27');
  const back = page.getByRole('link', { name: 'Back to stock count 27' });
  const scan = page.getByRole('button', { name: 'Scan', exact: true });
  await expectUncovered(back, 'the way back');
  await expectUncovered(scan, 'Scan');
  // The screen brings its own rules: the way back is a button's height apart from Scan.
  expect((await back.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const [a, b] = [(await scan.boundingBox())!, (await back.boundingBox())!];
  expect(b.x >= a.x + a.width + 8 || b.y >= a.y + a.height + 8, 'apart, beside or under').toBe(true);
});

test('the status monitor: "Search help and recent searches" is a thumb’s target', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await page.goto('/status-monitor');
  const help = page.getByRole('link', { name: 'Search help and recent searches' });
  await expectUncovered(help, 'the search help');
  expect((await help.boundingBox())!.height).toBeGreaterThanOrEqual(44);
});

test.describe('in Safari on an iPhone, not installed', () => {
  test.use({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1' });

  test('says that unused storage may be deleted after 7 days and how to install; closed, it stays away', async ({ page }) => {
    await login(page, 'mechanic@example.com');
    const notice = page.getByText(/Add PartsTrack to your Home Screen/);
    await expect(notice).toBeVisible();
    await expectUncovered(page.getByRole('button', { name: 'Got it' }), 'the notice’s close button');
    await page.getByRole('button', { name: 'Got it' }).click();
    await expect(notice).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(notice).toBeHidden();
  });
});

test('the front-liner table: each person’s figures labelled on the screen, nothing scrolled sideways', async ({ page }) => {
  await login(page, 'supervisor@example.com');
  await page.goto('/frontliner-dashboard');
  const table = page.getByRole('table', { name: 'Front-liner dashboard' });
  await expect(table).toBeVisible();
  const total = table.getByRole('cell', { name: /^Total tasks/ }).first();
  await total.evaluate((cell) => cell.scrollIntoView({ block: 'center' }));
  await expectUncovered(total, 'the first person’s total tasks');
  expect(await table.locator('xpath=..').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth)).toBeLessThanOrEqual(1);
});

test('users: the permissions dialog is the phone’s bottom sheet, one scroller, Save at its bottom edge in view', async ({ page }) => {
  await login(page, 'manager@example.com');
  await page.goto('/users-management');
  await page.getByRole('button', { name: /^Permissions of / }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.permissions-form')).toBeVisible();
  expect(Math.round((await dialog.boundingBox())!.width), 'as wide as the phone').toBe(390);
  // The grants scroll with the sheet, not in a second scroller inside it.
  expect(await dialog.locator('.permissions-form').evaluate((form) => getComputedStyle(form).overflowY)).toBe('visible');
  const save = dialog.getByRole('button', { name: 'Save', exact: true });
  await expectUncovered(save, 'Save before scrolling');
  await dialog.evaluate((element) => element.scrollTo(0, element.scrollHeight / 2));
  await expectUncovered(save, 'Save half-way down the grants');
});

test.describe('a small phone (320 × 640)', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  for (const locale of ['fi-FI', 'fr-FR', 'de-DE']) {
    test(`${locale}: no screen wider than the phone, codes and bottom-bar labels whole`, async ({ page, request }) => {
      await inLocale(request, 'manager@example.com', locale, async () => {
        await login(page, 'manager@example.com');
        // Each screen with what made it too wide, waited for before measuring.
        const screens: Array<[string, string]> = [
          ['/mechanic-view/27', '.material-line'],
          ['/print-count/27', '.print-sheet tbody tr'],
          ['/user-profile', '.preferences-table'],
          ['/notification-settings', '.preferences-table'],
          ['/priority-manager', '.priority-list'],
          ['/file-dashboard', '.fd-upload'],
          ['/stock-count', '.count-filter-query'],
          ['/users-management', '.users-table tbody tr'],
          ['/status-monitor', '.order-card'],
        ];
        for (const [path, content] of screens) {
          await page.goto(path);
          await expect(page.locator(content).first()).toBeVisible();
          expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} scrolls sideways`).toBeLessThanOrEqual(320);
        }
        // A material code is never broken inside (it was two digits a line at 320 px).
        await page.goto('/mechanic-view/27');
        const codes = page.locator('.material-line .material-code');
        await expect(codes.first()).toBeVisible();
        const broken = await codes.evaluateAll((elements) =>
          elements.filter((element) => {
            const range = document.createRange();
            range.selectNodeContents(element);
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
          }).map((element) => element.textContent),
        );
        expect(broken).toEqual([]);
        // Submit's words whole (at 320 px they take a row of their own rather than be cut).
        const submit = page.locator('.count-toolbar .count-actions .primary');
        await expect(submit).toBeVisible();
        expect(await submit.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
        // The bottom bar's labels each stay in their own share of the bar.
        const overlaps = await page.locator('.bottom-bar-list > li').evaluateAll((items) =>
          items.flatMap((item) => {
            const label = item.querySelector('.bottom-link span')!;
            const box = item.getBoundingClientRect();
            const text = label.getBoundingClientRect();
            return text.left < box.left - 0.5 || text.right > box.right + 0.5 ? [label.textContent] : [];
          }),
        );
        expect(overlaps).toEqual([]);
      });
    });
  }
});

test.describe('a wide screen (1280 × 800) in Swedish', () => {
  test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false });

  test('users: the table fits its frame, every row’s actions in view', async ({ page, request }) => {
    await inLocale(request, 'manager@example.com', 'sv-SE', async () => {
      await login(page, 'manager@example.com');
      await page.goto('/users-management');
      const table = page.locator('.users-table');
      await expect(table.locator('tbody tr').first()).toBeVisible();
      // Swedish column names and an expired user's status made it 166 px wider than its frame.
      expect(await table.evaluate((element) => element.closest('.table-wrap')!.scrollWidth <= element.closest('.table-wrap')!.clientWidth)).toBe(true);
      await expectUncovered(page.getByRole('button', { name: /^Fler åtgärder för / }).first(), 'the first row’s "⋯"');
    });
  });

  test('stock: each row’s transfer button keeps its word on one line (a table column squeezed it to one letter a line)', async ({ page, request }) => {
    await inLocale(request, 'manager@example.com', 'sv-SE', async () => {
      await login(page, 'manager@example.com');
      await page.goto('/stock-management');
      const transfer = page.locator('.data-table tbody tr').first().getByRole('button');
      await expect(transfer).toBeVisible();
      expect(await brokenWords(transfer)).toEqual([]);
      // One line of text: as tall as a button of one line, not four.
      expect((await transfer.boundingBox())!.height).toBeLessThan(50);
      // The column names wrap inside their columns: the table fits its frame ("Beställningskvantitet"
      // printed over its neighbour, and Transfer was 200 px out of view).
      expect(await page.locator('.stock-table').evaluate((table) => table.closest('.table-wrap')!.scrollWidth <= table.closest('.table-wrap')!.clientWidth)).toBe(true);
      await expectUncovered(transfer, 'the first row’s transfer button');
    });
  });

  test('users: the permissions dialog scrolls once, its checkboxes whole beside long Swedish names', async ({ page, request }) => {
    await inLocale(request, 'manager@example.com', 'sv-SE', async () => {
      await login(page, 'manager@example.com');
      await page.goto('/users-management');
      await page.getByRole('button', { name: /^Behörigheter för / }).first().click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.locator('.permissions-form')).toBeVisible();
      // Only the grants scroll: the dialog itself had blank space to scroll into (its hidden labels were placed in it).
      expect(await dialog.evaluate((element) => element.scrollHeight <= element.clientHeight + 1)).toBe(true);
      const widths = await dialog.locator('.check-row input').evaluateAll((boxes) => boxes.map((box) => box.getBoundingClientRect().width));
      expect(Math.min(...widths)).toBeGreaterThanOrEqual(18);
    });
  });
});
