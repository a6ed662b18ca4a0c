/**
 * Issue #18 end to end: a supervisor shares one count between two mechanics (one line counted by
 * both on purpose); each counts their part in their own browser, one of them offline the whole
 * time until back in the yard; the line they counted differently shows up for the supervisor, who
 * takes one quantity; the submitted count holds every line once.
 */
import { readFileSync } from 'node:fs';
import { type Browser, type Page } from '@playwright/test';
import { expect, login, test } from './fixtures';
import { wedgeScan } from './wedge-scan';

/** Mikko works in Finnish (his profile's language): his screens are read in it. */
const fiLocale = JSON.parse(readFileSync(new URL('../../locales/fi-FI.json', import.meta.url), 'utf8'));
const fi = fiLocale.stockCount.parts as Record<string, string>;
const fiProgress = (counted: number, total: number) => fi.myProgress!.replace('{{counted}}', String(counted)).replace('{{total}}', String(total));

const MIKKO = 'mikko.virtanen@lift.example';

/** The banner is in English until Mikko's profile (Finnish) has arrived, and in Finnish after: either. */
async function dismissMessages(page: Page) {
  await page
    .getByRole('region', { name: new RegExp(`Important messages|${fiLocale.shell.importantMessages as string}`) })
    .getByRole('button', { name: new RegExp(`Dismiss|${fiLocale.common.dismiss as string}`) })
    .click();
}

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  if (email.endsWith('@example.com')) await login(page, email);
  else {
    // Not a demo account: signed in by address, as anyone of the company can on the embedded default.
    await page.goto('/');
    await page.getByLabel('Or sign in with another company address').fill(email);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).not.toHaveURL(/\/$/);
  }
  await dismissMessages(page);
  return page;
}

const lineInput = (page: Page, code: string) => page.locator(`[data-line="${code}"] input[data-quantity]`);

async function count(page: Page, quantities: Array<[string, number]>) {
  for (const [code, quantity] of quantities) {
    await lineInput(page, code).fill(String(quantity));
    await lineInput(page, code).press('Enter');
  }
}

test('two counters count their parts of one count, one offline; the supervisor resolves their difference and submits', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const tokenOf = async (email: string) => (await (await request.post('/auth/local/token', { data: { email } })).json()).idToken as string;
  const supervisorToken = await tokenOf('supervisor@example.com');
  const auth = { authorization: `Bearer ${supervisorToken}` };

  // Four materials of the mechanic's van, in a count of their own.
  const existing = await request.get('/api/v2/my_material_count?stockCountId=27&page=1&maxResults=4&orderByColumn=id&sortDirection=asc', { headers: auth });
  expect(existing.status()).toBe(200);
  const codes = ((await existing.json()).material_counts as Array<{ material_code: string }>).map((line) => line.material_code);
  expect(codes).toHaveLength(4);
  const created = await request.post('/api/v2/my_stock_count', { headers: auth, data: { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: codes, conductedBy: 'mechanic@example.com' } });
  expect(created.status(), await created.text()).toBe(201);
  const countId = (await created.json()).id as number;

  // The supervisor shares it: the mechanic takes the first two materials, Mikko the rest and, as a control, the first too.
  const supervisor = await signedIn(browser, 'supervisor@example.com');
  await supervisor.goto(`/count-merge/${countId}`);
  await expect(supervisor.getByText('This count has one counter.')).toBeVisible();
  await supervisor.getByRole('button', { name: 'Share among counters' }).click();
  const dialog = supervisor.getByRole('dialog');
  const first = dialog.getByRole('listitem', { name: 'Part 1' });
  await first.getByLabel('Counted by').selectOption('mechanic@example.com');
  await first.getByLabel('Lines').selectOption('materials');
  await first.getByLabel('Material codes').fill(`${codes[0]} ${codes[1]}`);
  const second = dialog.getByRole('listitem', { name: 'Part 2' });
  await second.getByLabel('Counted by').selectOption(MIKKO);
  await expect(second.getByLabel('Lines')).toHaveValue('rest');
  await second.getByLabel('Also count these materials (control count)').fill(codes[0]!);
  await dialog.getByRole('button', { name: 'Save counters' }).click();
  await expect(supervisor.getByText(`Counters of stock count ${countId} saved.`)).toBeVisible();
  await expect(supervisor.getByRole('listitem').filter({ hasText: 'Matti Laine' }).getByText('0 of 2 counted')).toBeVisible();

  // The mechanic opens the count in the yard, then goes down to the basement: offline from here on.
  const mechanic = await signedIn(browser, 'mechanic@example.com');
  await mechanic.goto(`/mechanic-view/${countId}`);
  await expect(mechanic.getByText('Your part: 0 of 2 counted')).toBeVisible();
  await expect(lineInput(mechanic, codes[2]!)).toHaveCount(0);
  await mechanic.context().setOffline(true);
  // A scan of Mikko's material says it is his to count, offline too, and offers no line the server would refuse.
  await mechanic.locator('body').click({ position: { x: 5, y: 5 } });
  await wedgeScan(mechanic, codes[2]!);
  await expect(mechanic.getByText(`${codes[2]} is in Mikko Virtanen’s part of this count: they count it.`).first()).toBeVisible();
  await expect(mechanic.getByRole('button', { name: `Add ${codes[2]} to the count` })).toHaveCount(0);
  await count(mechanic, [
    [codes[0]!, 5],
    [codes[1]!, 3],
  ]);
  await expect(mechanic.getByText('Your part: 2 of 2 counted')).toBeVisible();
  // A counter marks their part done; the whole count is not theirs to submit while Mikko's part is open.
  await expect(mechanic.getByRole('button', { name: 'Submit', exact: true })).toHaveCount(0);
  await mechanic.getByRole('button', { name: 'My part is done' }).click();
  await expect(mechanic.getByText(/Waiting to send/)).toBeVisible();

  // Mikko counts his part online, the shared line differently.
  const mikko = await signedIn(browser, MIKKO);
  await mikko.goto(`/mechanic-view/${countId}`);
  await expect(mikko.getByText(fiProgress(0, 3))).toBeVisible();
  await expect(lineInput(mikko, codes[1]!)).toHaveCount(0);
  await count(mikko, [
    [codes[0]!, 6],
    [codes[2]!, 1],
    [codes[3]!, 2],
  ]);
  await expect(mikko.getByText(fiProgress(3, 3))).toBeVisible();
  await mikko.getByRole('button', { name: fi.done }).click();
  await expect(mikko.getByRole('button', { name: fi.reopen })).toBeVisible();

  // Nothing of the mechanic's has reached the server yet.
  await supervisor.reload();
  await expect(supervisor.getByRole('listitem').filter({ hasText: 'Matti Laine' }).getByText('0 of 2 counted')).toBeVisible();

  // Back in the yard: the mechanic's counts and "done" go out by themselves.
  await mechanic.context().setOffline(false);
  await expect(mechanic.getByText(/Waiting to send/)).toHaveCount(0, { timeout: 30_000 });

  // Read whole, the split count's lines take no quantity (they come from the parts) and the count
  // is submitted from the merge screen, not from the lines.
  await supervisor.goto(`/mechanic-view/${countId}`);
  await expect(lineInput(supervisor, codes[2]!)).toBeDisabled();
  await expect(supervisor.getByRole('button', { name: 'Submit', exact: true })).toHaveCount(0);

  // The supervisor sees the difference, takes Mikko's quantity and submits.
  await supervisor.goto(`/count-merge/${countId}`);
  const contested = supervisor.locator(`[data-merge-line="${codes[0]}"]`);
  await expect(contested.getByText('Different', { exact: true })).toBeVisible();
  // Each counter's quantity, side by side: the mechanic's 5, Mikko's 6.
  await expect(contested.getByRole('listitem')).toHaveText([/^Matti Laine\s*5 /, /^Mikko Virtanen\s*6 /]);
  await contested.getByRole('button', { name: /Take Mikko/ }).click();
  await expect(contested.getByText('Decided', { exact: true })).toBeVisible();
  await supervisor.getByRole('button', { name: 'Submit', exact: true }).click();
  // Booking to the ERP is asked for first, as on the count screen.
  await supervisor.getByRole('dialog', { name: `Submit stock count ${countId}?` }).getByRole('button', { name: 'Submit count' }).click();
  await expect(supervisor).toHaveURL(/\/stock-count$/);

  // The submitted count: every line once, with the quantity decided for it.
  const result = await request.get(`/api/v2/my_material_count?stockCountId=${countId}&page=1&maxResults=50&orderByColumn=id&sortDirection=asc`, { headers: auth });
  const lines = (await result.json()).material_counts as Array<{ material_code: string; quantity: number | null }>;
  expect(lines).toHaveLength(4);
  expect(Object.fromEntries(lines.map((line) => [line.material_code, line.quantity]))).toEqual({ [codes[0]!]: 6, [codes[1]!]: 3, [codes[2]!]: 1, [codes[3]!]: 2 });
  const header = await request.get(`/api/v2/my_stock_count?stockCountId=${countId}&page=1&maxResults=1`, { headers: auth });
  expect((await header.json()).stock_counts[0].status).not.toMatch(/initiated|in_progress/);
});

test('a split refused as changed meanwhile keeps the planner\'s parts beside the split as it is now, and saves them once seen', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const supervisorToken = (await (await request.post('/auth/local/token', { data: { email: 'supervisor@example.com' } })).json()).idToken as string;
  const auth = { authorization: `Bearer ${supervisorToken}` };
  const existing = await request.get('/api/v2/my_material_count?stockCountId=27&page=1&maxResults=4&orderByColumn=id&sortDirection=asc', { headers: auth });
  const codes = ((await existing.json()).material_counts as Array<{ material_code: string }>).map((line) => line.material_code);
  const created = await request.post('/api/v2/my_stock_count', { headers: auth, data: { plant: 'FI01', storageLocation: 'V001', type: 'single', materialCodes: codes, conductedBy: 'mechanic@example.com' } });
  expect(created.status(), await created.text()).toBe(201);
  const countId = (await created.json()).id as number;

  // The planner fills in a split: the mechanic takes the first material, Mikko the rest.
  const supervisor = await signedIn(browser, 'supervisor@example.com');
  await supervisor.goto(`/count-merge/${countId}`);
  await supervisor.getByRole('button', { name: 'Share among counters' }).click();
  const dialog = supervisor.getByRole('dialog');
  const first = dialog.getByRole('listitem', { name: 'Part 1' });
  await first.getByLabel('Counted by').selectOption('mechanic@example.com');
  await first.getByLabel('Lines').selectOption('materials');
  await first.getByLabel('Material codes').fill(codes[0]!);
  await first.getByLabel('Name of the part (optional)').fill('Front shelf');
  await dialog.getByRole('listitem', { name: 'Part 2' }).getByLabel('Counted by').selectOption(MIKKO);

  // Meanwhile another planner shares the count otherwise.
  const other = await request.put('/api/v2/my_stock_count/parts', {
    headers: auth,
    data: { stockCountId: countId, parts: [{ counter: MIKKO, label: 'Back shelf', materialCodes: [codes[3]] }, { counter: 'mechanic@example.com', rest: true }], expectedPartIds: [] },
  });
  expect(other.status(), await other.text()).toBe(200);

  // Refused: nothing typed is lost, and the split as it is now is listed above the planner's parts.
  await dialog.getByRole('button', { name: 'Save counters' }).click();
  await expect(dialog.getByText(`Someone else changed the counters of stock count ${countId} after you opened them`)).toBeVisible();
  const now = dialog.getByRole('region', { name: 'The counters as they are now' });
  await expect(now.getByRole('listitem')).toHaveText([`Back shelf · Mikko Virtanen · 1 material: ${codes[3]}`, /^Part 2 · .+ · 3 materials: /]);
  await expect(first.getByLabel('Material codes')).toHaveValue(codes[0]!);
  await expect(first.getByLabel('Name of the part (optional)')).toHaveValue('Front shelf');

  // Seen, saved: the planner's split replaces it.
  await dialog.getByRole('button', { name: 'Save counters' }).click();
  await expect(supervisor.getByText(`Counters of stock count ${countId} saved.`)).toBeVisible();
  const parts = await request.get(`/api/v2/my_stock_count/parts?stockCountId=${countId}`, { headers: auth });
  // Each kept counter keeps their part (and its work): compared by counter, not by order.
  const saved = ((await parts.json()).parts as Array<{ label: string | null; counter: string }>).map((part) => [part.counter, part.label]);
  expect(Object.fromEntries(saved)).toEqual({ 'mechanic@example.com': 'Front shelf', [MIKKO]: null });
});
