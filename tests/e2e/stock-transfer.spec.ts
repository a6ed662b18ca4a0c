/**
 * Decision 0061: a stock transfer request is seen by its requester and by the plant's stock admin,
 * who marks it done; the requester is told and sees it done.
 */
import { type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect, login, test } from './fixtures';

async function openStock(page: Page, address: string) {
  await page.goto(address);
  await page.getByRole('region', { name: 'Important messages' }).getByRole('button', { name: 'Dismiss' }).click();
}

test('a mechanic requests a transfer, the plant\'s stock admin marks it done, and the mechanic is told and sees it done', async ({ browser }) => {
  test.setTimeout(180_000);
  const mechanic = await (await browser.newContext()).newPage();
  await login(mechanic, 'mechanic@example.com');
  await openStock(mechanic, '/stock-management');
  const row = mechanic.locator('table.stock-table tbody tr').first();
  const code = ((await row.locator('td').first().innerText()).split('\n')[0] ?? '').trim();
  expect(code).not.toBe('');
  await row.getByRole('button', { name: `Transfer: ${code} from` }).click();
  const ask = mechanic.getByRole('dialog', { name: `Transfer ${code}` });
  await ask.getByLabel('To storage location').selectOption({ index: 1 });
  await ask.getByLabel(/^Quantity/).fill('2');
  // A stray Escape (a phone's Back) does not drop what was typed: it asks, and staying keeps it.
  await mechanic.keyboard.press('Escape');
  await expect(ask.getByRole('alert')).toContainText('Close without saving?');
  // A second Escape is "go back" too: the question goes, the dialog and its text stay.
  await mechanic.keyboard.press('Escape');
  await expect(ask.getByRole('alert')).toHaveCount(0);
  await expect(ask.getByLabel(/^Quantity/)).toHaveValue('2');
  await mechanic.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(ask.getByLabel(/^Quantity/)).toHaveValue('2');
  await expect(ask.getByLabel(/^Quantity/)).toBeFocused();
  await ask.getByRole('button', { name: 'Request transfer' }).click();
  await expect(mechanic.getByText(new RegExp(`Transfer of 2 × ${code} to .* requested\\.`))).toBeVisible();

  await mechanic.getByRole('button', { name: 'Transfer requests' }).click();
  const mine = mechanic.getByRole('dialog', { name: 'Stock transfer requests' });
  const waiting = mine.getByRole('listitem').filter({ hasText: code }).filter({ hasText: 'Waiting' }).first();
  await expect(waiting).toContainText(/Requested \d/);
  // The requester may not decide their own request (a mechanic does not update storage locations).
  await expect(mine.getByRole('button', { name: /^(Mark done|Decline)/ })).toHaveCount(0);
  await mine.getByRole('button', { name: 'Close' }).click();
  await expect(mechanic).not.toHaveURL(/transfers=1/);

  const admin = await (await browser.newContext()).newPage();
  await login(admin, 'stock.admin@example.com');
  // (The list opens from its address too: the mechanic's notification link, below.)
  await openStock(admin, '/stock-management');
  await admin.getByRole('button', { name: 'Transfer requests' }).click();
  const list = admin.getByRole('dialog', { name: 'Stock transfer requests' });
  const request = list.getByRole('listitem').filter({ hasText: code }).filter({ hasText: 'Requested by mechanic@example.com' }).first();
  await expect(request).toContainText('Waiting');
  const audit = await new AxeBuilder({ page: admin }).analyze();
  expect(audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await request.getByRole('button', { name: `Mark done: 2 × ${code}` }).click();
  // Said inside the dialog (the app's toast is behind a modal), where the focus goes.
  await expect(list.getByRole('status')).toHaveText(`Transfer of 2 × ${code} marked done.`);
  await expect(list.getByRole('status')).toBeFocused();
  await expect(list.getByRole('listitem').filter({ hasText: code }).filter({ hasText: 'Done by stock.admin@example.com' }).first()).toBeVisible();

  await mechanic.goto('/notifications');
  await expect(mechanic.locator('.notification-card').filter({ hasText: `Stock transfer of ${code} done` }).first()).toBeVisible();
  await mechanic.goto('/stock-management?transfers=1');
  const told = mechanic.getByRole('dialog', { name: 'Stock transfer requests' });
  await expect(told.getByRole('listitem').filter({ hasText: code }).filter({ hasText: 'Done by stock.admin@example.com' }).first()).toContainText('Done');
});
