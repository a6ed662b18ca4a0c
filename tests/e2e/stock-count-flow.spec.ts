/**
 * Issue #4 end to end: a supervisor creates a wall-to-wall count for the mechanic; the mechanic
 * counts it offline and submits when back online; the supervisor sees it completed in the
 * dashboard and starts a recount of the variances.
 */
import { type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { expect, login, test } from './fixtures';

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, email);
  await page.getByRole('region', { name: 'Important messages' }).getByRole('button', { name: 'Dismiss' }).click();
  return page;
}

test('plan, count offline, submit, see it completed, recount the differences', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const token = (await (await request.post('/auth/local/token', { data: { email: 'supervisor@example.com' } })).json()).idToken as string;
  // A van of the mechanic's team that holds stock.
  const target = { code: 'V002' };

  // The supervisor plans the count.
  const supervisor = await signedIn(browser, 'supervisor@example.com');
  await supervisor.goto('/stock-count');
  await supervisor.getByRole('button', { name: 'New count' }).click();
  await supervisor.getByLabel('Plant').selectOption('FI01');
  await supervisor.getByLabel('Storage location').selectOption(target.code);
  await supervisor.getByLabel('Counted by').selectOption('mechanic@example.com');
  await supervisor.getByRole('button', { name: 'Send to count' }).click();
  const created = supervisor.getByRole('status').filter({ hasText: /Stock count \d+ created and sent/ });
  await expect(created).toBeVisible();
  const countId = Number((await created.textContent())!.match(/Stock count (\d+)/)![1]);

  // The mechanic opens it, loses the connection, counts every line and submits.
  const mechanic = await signedIn(browser, 'mechanic@example.com');
  await mechanic.goto(`/mechanic-view/${countId}`);
  const progress = mechanic.getByText(/^0 of \d+ counted$/);
  await expect(progress).toBeVisible();
  const lines = Number((await progress.textContent())!.match(/of (\d+)/)![1]);
  expect(lines).toBeGreaterThan(2);
  await mechanic.context().setOffline(true);
  await mechanic.locator('input[data-quantity]').first().click();
  for (let i = 0; i < lines; i += 1) {
    const found = await mechanic.evaluate(() => {
      const text = document.activeElement?.closest('[data-line]')?.querySelector('.material-book')?.textContent ?? '';
      return /Book: ([\d.]+)/.exec(text)?.[1] ?? null;
    });
    // A line with no book quantity counted 0 agrees with it (a missing book reads as 0).
    const book = found ?? '0';
    // Two lines are found off the book: those are the variances to recount.
    await mechanic.keyboard.type(i < 2 ? String(Number(book) + 1) : book);
    await mechanic.keyboard.press('Enter');
  }
  await expect(mechanic.getByText(`${lines} of ${lines} counted`)).toBeVisible();
  await mechanic.getByRole('button', { name: 'Submit', exact: true }).click();
  await mechanic.getByRole('button', { name: 'Submit count' }).click();
  await expect(mechanic.getByText(/Submission saved on this phone/)).toBeVisible();
  await mechanic.context().setOffline(false);
  await expect(mechanic.locator('.count-header .status-chip')).toHaveText('Completed', { timeout: 60_000 });

  // The supervisor sees it completed and recounts the differences.
  await supervisor.reload();
  await expect(supervisor.getByRole('heading', { name: /Tasks in the last 30 days/ })).toBeVisible();
  await supervisor.getByLabel('Sort by').selectOption('created:desc');
  const card = supervisor.locator('.count-card').filter({ hasText: `Stock count ${countId}` });
  await expect(card.locator('.status-chip').first()).toHaveText('Completed');
  await card.getByRole('button', { name: 'Recount differences' }).click();
  // It asks first (#19 item 14).
  const confirm = supervisor.getByRole('dialog', { name: `Recount the differences of stock count ${countId}?` });
  await confirm.getByRole('button', { name: 'Create recount' }).click();
  await expect(supervisor.getByRole('status').filter({ hasText: /Recount \d+ created for the lines that differ/ })).toBeVisible();
  const recountId = Number((await supervisor.getByRole('status').filter({ hasText: /Recount \d+/ }).textContent())!.match(/Recount (\d+)/)![1]);
  const recount = await request.get(`/api/v2/my_material_count?stockCountId=${recountId}&page=1&maxResults=20`, { headers: { authorization: `Bearer ${token}` } });
  expect((await recount.json()).total).toBe(2);
  // One open recount per count: the button now leads to it instead of making another.
  await expect(card.getByRole('button', { name: 'Recount differences' })).toHaveCount(0);
  await expect(card.getByRole('link', { name: `Open recount ${recountId}` })).toHaveAttribute('href', `/mechanic-view/${recountId}`);
});

test('a supervisor plans a count with no connection: it waits on the device, then is created exactly once', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const token = (await (await request.post('/auth/local/token', { data: { email: 'supervisor@example.com' } })).json()).idToken as string;
  const countsIn = async (location: string) => {
    const res = await request.get('/api/v2/my_stock_count?maxResults=500&page=1', { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()).stock_counts as Array<{ storage_location: string; is_draft: boolean }>).filter((c) => c.storage_location === location).length;
  };
  const before = await countsIn('V002');
  const supervisor = await signedIn(browser, 'supervisor@example.com');
  await supervisor.goto('/stock-count');
  // Online once: the plants, storage locations and people are kept on the device for later.
  const fill = async () => {
    await supervisor.getByRole('button', { name: 'New count' }).click();
    await supervisor.getByLabel('Plant').selectOption('FI01');
    await supervisor.getByLabel('Storage location').selectOption('V002');
    await supervisor.getByLabel('Counted by').selectOption('mechanic@example.com');
  };
  await fill();
  await supervisor.getByRole('dialog').getByRole('button', { name: 'Cancel', exact: true }).click();

  await supervisor.context().setOffline(true);
  await fill();
  await expect(supervisor.getByText(/You are offline: the count is saved on this device/)).toBeVisible();
  await supervisor.getByRole('button', { name: 'Send to count' }).click();
  const noConnection = supervisor.getByRole('status').filter({ hasText: /No connection: the change is saved on this device/ });
  await expect(noConnection).toBeVisible();
  const waiting = supervisor.getByRole('region', { name: /1 change waiting to be sent/ });
  await expect(waiting).toContainText('New Wall-to-wall count · FI01 / V002');
  expect(await countsIn('V002')).toBe(before);

  // The pointer on the toast holds it; back online, "No connection" is no longer true and goes.
  await noConnection.locator('.toast').hover();
  await supervisor.context().setOffline(false);
  await expect(noConnection).toBeHidden();
  await expect(waiting).toBeHidden({ timeout: 30_000 });
  expect(await countsIn('V002')).toBe(before + 1);
  await supervisor.getByLabel('Sort by').selectOption('created:desc');
  await expect(supervisor.locator('.count-card').first()).toContainText('V002');
});

test('a counting request with fields missing marks them and focuses the first (#19 item 16)', async ({ browser }) => {
  const supervisor = await signedIn(browser, 'supervisor@example.com');
  await supervisor.goto('/stock-count');
  await supervisor.getByRole('button', { name: 'New count' }).click();
  const dialog = supervisor.getByRole('dialog', { name: 'New counting request' });
  await dialog.getByRole('button', { name: 'Save as draft' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('All fields are mandatory!');
  const plant = dialog.getByLabel('Plant');
  await expect(plant).toHaveAttribute('aria-invalid', 'true');
  await expect(plant).toBeFocused();
  await expect(dialog.getByLabel('Storage location')).toHaveAttribute('aria-invalid', 'true');
  // Filled in, a field is no longer marked; sending shows what is still missing.
  await plant.selectOption('FI01');
  await expect(plant).not.toHaveAttribute('aria-invalid');
  await dialog.getByRole('button', { name: 'Send to count' }).click();
  await expect(dialog.getByLabel('Storage location')).toBeFocused();
  await expect(dialog.getByLabel('Storage location')).toHaveAttribute('aria-invalid', 'true');
});

/** A wall-to-wall count of FI01/V002 the supervisor hands to the mechanic (through the API). */
async function countForMechanic(request: APIRequestContext): Promise<number> {
  const token = (await (await request.post('/auth/local/token', { data: { email: 'supervisor@example.com' } })).json()).idToken as string;
  const created = await request.post('/api/v2/my_stock_count', {
    headers: { authorization: `Bearer ${token}` },
    data: { plant: 'FI01', storageLocation: 'V002', type: 'wall_to_wall', conductedBy: 'mechanic@example.com' },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).id as number;
}

test('a tap into a counted quantity selects it: the number typed replaces the count', async ({ browser, request }) => {
  const countId = await countForMechanic(request);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const mechanic = await context.newPage();
  await login(mechanic, 'mechanic@example.com');
  await mechanic.getByRole('region', { name: 'Important messages' }).getByRole('button', { name: 'Dismiss' }).click();
  await mechanic.goto(`/mechanic-view/${countId}`);
  const quantity = mechanic.locator('input[data-quantity]').first();
  await quantity.tap();
  await mechanic.keyboard.type('3');
  await mechanic.keyboard.press('Enter');
  await expect(quantity).toHaveValue('3');
  // Tapped again to correct it: 5 replaces 3 (it was 35).
  await quantity.tap();
  await mechanic.keyboard.type('5');
  await quantity.blur();
  await expect(quantity).toHaveValue('5');
  // Focus given by Enter selects too, and leaves no tap pending: a later tap selects as the first.
  await quantity.focus();
  await mechanic.keyboard.type('7');
  await mechanic.keyboard.press('Enter');
  await expect(quantity).toHaveValue('7');
  await quantity.tap();
  await mechanic.keyboard.type('8');
  await quantity.blur();
  await expect(quantity).toHaveValue('8');
  await context.close();
});

// Decision 0071: Submit brings back a line far down the count that a filter hides: the filter is
// cleared once, and the list scrolls to the line's place in the whole count (it used to scroll by
// the filtered list it was asked from, so a line beyond the first screen was never drawn).
test('Submit finds a refused quantity on a line far down that a filter hides, and focuses it', async ({ browser, request }) => {
  const countId = await countForMechanic(request);
  const mechanic = await signedIn(browser, 'mechanic@example.com');
  await mechanic.setViewportSize({ width: 390, height: 844 });
  await mechanic.goto(`/mechanic-view/${countId}`);
  const lines = mechanic.locator('.material-line');
  await expect(lines.first()).toBeVisible();
  const first = (await lines.first().getAttribute('data-line'))!;
  // The count's last line: scrolled to the end, the list draws it (a frame later: read once the
  // rows drawn are the last ones, and the same two frames running).
  await mechanic.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const lastIndex = () => mechanic.evaluate(() => new Promise<string | null>((resolve) => requestAnimationFrame(() => {
    const at = () => [...document.querySelectorAll('.material-list-item')].at(-1)?.getAttribute('data-index') ?? null;
    const before = at();
    requestAnimationFrame(() => resolve(before === at() ? before : null));
  })));
  await expect.poll(async () => Number(await lastIndex())).toBeGreaterThan(30);
  const last = (await mechanic.locator('.material-list-item').last().locator('.material-line').getAttribute('data-line'))!;
  const field = mechanic.locator(`.material-line[data-line="${last}"] input[data-quantity]`);
  await field.fill('12x');
  await field.press('Tab');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await mechanic.evaluate(() => window.scrollTo(0, 0));
  await mechanic.getByLabel('Search materials in this count').fill(first);
  await expect(mechanic.locator(`.material-line[data-line="${last}"]`)).toHaveCount(0);
  await mechanic.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(mechanic.getByText('A typed quantity is not saved yet').first()).toBeVisible();
  await expect(field).toHaveValue('12x');
  await expect(field).toBeFocused();
  await expect(field).toBeInViewport();
  await expect(mechanic.getByLabel('Search materials in this count')).toHaveValue('');
  await mechanic.context().close();
});

test('editing a count offers only what it can save; a count that is not there says so in words, not as a failed request', async ({ browser, request }) => {
  const countId = await countForMechanic(request);
  const supervisor = await signedIn(browser, 'supervisor@example.com');
  await supervisor.goto('/stock-count');
  await supervisor.getByLabel('Search counts').fill(String(countId));
  await supervisor.getByRole('button', { name: 'Search', exact: true }).click();
  await supervisor.locator('.count-card', { hasText: `Stock count ${countId}` }).getByRole('button', { name: 'Edit' }).click();
  const dialog = supervisor.getByRole('dialog', { name: `Edit stock count ${countId}` });
  // A count handed to someone cannot be handed back to nobody: the server keeps the person.
  const who = dialog.getByLabel('Counted by');
  await expect(who).toHaveValue('mechanic@example.com');
  await expect(who.locator('option', { hasText: 'Not assigned yet' })).toHaveCount(0);

  await supervisor.goto('/print-count/987654');
  await expect(supervisor.getByRole('alert').filter({ hasText: 'This stock count does not exist or is not assigned to you.' })).toBeVisible();
  await expect(supervisor.getByText(/Request failed|http:\/\//)).toHaveCount(0);
});

test('a quantity typed in a form the count cannot take holds the submit: the field is shown, not the count sent without it, also once its row has gone or the page was reloaded', async ({ browser, request }) => {
  const countId = await countForMechanic(request);
  const mechanic = await signedIn(browser, 'mechanic@example.com');
  await mechanic.goto(`/mechanic-view/${countId}`);
  const field = mechanic.locator('.material-line input[data-quantity]').first();
  await field.fill('12x');
  await field.press('Tab');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  const submit = mechanic.getByRole('button', { name: 'Submit', exact: true });
  await submit.click();
  await expect(mechanic.getByText('A typed quantity is not saved yet').first()).toBeVisible();
  await expect(field).toBeFocused();
  await expect(mechanic.getByRole('dialog')).toHaveCount(0);

  // Decision 0071: the text stays the user's when its row goes. A search that hides the row (as
  // scrolling far in a long count does) takes the row off the page; Submit still waits, and brings
  // the row back, its text, red, focused.
  const lines = mechanic.locator('.material-line');
  const first = (await lines.first().getAttribute('data-line'))!;
  const other = (await lines.nth(1).getAttribute('data-line'))!;
  await mechanic.getByLabel('Search materials in this count').fill(other);
  await expect(mechanic.locator(`.material-line[data-line="${first}"]`)).toHaveCount(0);
  await submit.click();
  const again = mechanic.locator(`.material-line[data-line="${first}"] input[data-quantity]`);
  await expect(again).toHaveValue('12x');
  await expect(again).toHaveAttribute('aria-invalid', 'true');
  await expect(again).toBeFocused();
  await expect(mechanic.getByRole('dialog')).toHaveCount(0);

  // And across a reload: still there, still red, until corrected.
  await mechanic.reload();
  await expect(again).toHaveValue('12x');
  await expect(again).toHaveAttribute('aria-invalid', 'true');
  await again.fill('3');
  await again.press('Tab');
  await expect(again).not.toHaveAttribute('aria-invalid');
  await mechanic.reload();
  await expect(again).toHaveValue('3');
  await expect(again).not.toHaveAttribute('aria-invalid');
  await submit.click();
  await expect(mechanic.getByRole('dialog')).toBeVisible();
  await mechanic.context().close();
});

test('an edit queued offline and refused as changed meanwhile is made again with Edit on the count as it is now, not lost', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const token = (await (await request.post('/auth/local/token', { data: { email: 'supervisor@example.com' } })).json()).idToken as string;
  const auth = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/v2/my_stock_count', { headers: auth, data: { plant: 'FI01', storageLocation: 'V002', type: 'wall_to_wall', draft: true } });
  expect(created.status(), await created.text()).toBe(201);
  const countId = (await created.json()).id as number;

  const supervisor = await signedIn(browser, 'supervisor@example.com');
  await supervisor.goto('/stock-count');
  await supervisor.getByLabel('Sort by').selectOption('created:desc');
  const card = supervisor.locator('.count-card').filter({ hasText: `Stock count ${countId}` });
  await expect(card).toBeVisible();
  // Online once: the plant's people are kept on the device for later.
  await card.getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = supervisor.getByRole('dialog', { name: `Edit stock count ${countId}` });
  await expect(dialog.getByLabel('Counted by').locator('option[value="mechanic@example.com"]')).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  // Offline, the supervisor names who counts: the change waits on the device.
  await supervisor.context().setOffline(true);
  await card.getByRole('button', { name: 'Edit', exact: true }).click();
  await dialog.getByLabel('Counted by').selectOption('mechanic@example.com');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  const waiting = supervisor.getByRole('region', { name: /1 change waiting to be sent/ });
  await expect(waiting).toContainText(`Edit count ${countId}`);

  // Meanwhile another planner names someone else: the waiting edit started from a count that is no more.
  const other = await request.put('/api/v2/my_stock_count', { headers: auth, data: { stockCountId: countId, conductedBy: 'aino.korhonen@lift.example' } });
  expect(other.status(), await other.text()).toBe(200);

  await supervisor.context().setOffline(false);
  // Refused, the list says so in its title, not "waiting to be sent".
  const refused = supervisor.getByRole('region', { name: '1 change not accepted' });
  await expect(refused.getByRole('alert').first()).toBeVisible({ timeout: 30_000 });
  await expect(waiting).toHaveCount(0);
  // The card says its change was not accepted, and shows the count as it is now.
  await expect(card.getByText('Change not accepted · see above')).toBeVisible();
  await expect(card).toContainText('aino.korhonen@lift.example');
  // Edit reads the count as it is now; meanwhile the row's actions wait, and the keyboard focus
  // stays on Edit (a disabled button would drop it to the page).
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await supervisor.route((url) => url.pathname.endsWith('/my_stock_count') && url.searchParams.get('stockCountId') === String(countId), async (route) => {
    await held;
    await route.continue();
  });
  const edit = refused.getByRole('button', { name: 'Edit', exact: true });
  await edit.focus();
  await supervisor.keyboard.press('Enter');
  await expect(edit).toHaveAttribute('aria-disabled', 'true');
  await expect(refused.getByRole('button', { name: 'Discard' })).toHaveAttribute('aria-disabled', 'true');
  await expect(edit).toBeFocused();
  release();
  // The form shows the count as it is now, holding what the supervisor asked for, and says why.
  await expect(dialog.getByLabel('Counted by')).toHaveValue('mechanic@example.com');
  await expect(dialog.getByText('Now: aino.korhonen@lift.example')).toBeVisible();
  await expect(dialog.getByRole('alert')).toContainText('Not accepted by the server:');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(supervisor.getByText(`Stock count ${countId} saved.`)).toBeVisible();
  await expect(refused).toBeHidden();
  const now = await request.get(`/api/v2/my_stock_count?stockCountId=${countId}&page=1&maxResults=1`, { headers: auth });
  expect((await now.json()).stock_counts[0].conducted_by).toBe('mechanic@example.com');
});
