import { type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect, login, test } from './fixtures';

/** The persistent important-messages toast covers the page; people dismiss it too. */
async function dismissMessages(page: Page) {
  await page.getByRole('region', { name: 'Important messages' }).getByRole('button', { name: 'Dismiss' }).click();
}

async function expectAccessible(page: Page) {
  const audit = await new AxeBuilder({ page }).analyze();
  expect(audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

test('a super manager reads the compact view, opens a day and sees its errors with line numbers', async ({ page }) => {
  await login(page, 'manager@example.com');
  await page.goto('/dashboard');
  await dismissMessages(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  // 14 days, one link per day whose name says every number (the text alternative of the bar).
  const days = page.getByRole('link', { name: /files – \d+ processed, \d+ errored, \d+ missing/ });
  await expect(days).toHaveCount(14);
  await expect(page.getByRole('list', { name: 'Status colours' })).toContainText('Errored');
  await expectAccessible(page);

  // Yesterday's midday ORDERS file of the demo data is always errored.
  const withErrors = page.getByRole('link', { name: /files – \d+ processed, [1-9]\d* errored/ }).first();
  await withErrors.click();
  await expect(page).toHaveURL(/\/dashboard\/\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByRole('heading', { name: /Dashboard detail/ })).toBeVisible();
  const errored = page.getByRole('listitem').filter({ hasText: 'Errored' }).filter({ hasText: /Errors \(\d+\)/ }).first();
  await expect(errored).toContainText(/ERP_[A-Z]+_\d{8}_(MORNING|MIDDAY|EVENING)\.csv/);
  await expect(errored).toContainText(/Line \d+/);
  await expectAccessible(page);

  // The numbers as a table, and a date range.
  await page.getByRole('link', { name: 'All days' }).click();
  await page.getByText('Show the numbers as a table').click();
  await expect(page.getByRole('table', { name: 'Files per day and status' })).toBeVisible();
  await page.getByLabel('From').fill('2020-02-10');
  await page.getByLabel('To').fill('2020-02-12');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/from=2020-02-10&to=2020-02-12/);
  await expect(days).toHaveCount(3);

  await page.goto('/dashboard/2025-02-30');
  await expect(page.getByRole('alert').filter({ hasText: 'is not a date' })).toBeVisible();
});

test('a stock admin uploads an ERP file; a super manager sees it processed among today’s files', async ({ page, browser }) => {
  await login(page, 'stock.admin@example.com');
  await page.goto('/file-dashboard');
  await dismissMessages(page);
  const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  // The material catalogue is for super managers (decision 0017): refused with the server's reason.
  await page.getByLabel('ERP file').setInputFiles({
    name: `ERP_MATERIALS_${today}_EVENING_e2e${Date.now()}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(`material_code;description_english;unit\nE2E-${Date.now()};Roller guide shoe;PC\n`, 'utf-8'),
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'only a super manager may upload it' }).first()).toBeVisible();
  // A line of a plant the admin does not hold: nothing is queued, and the refused line is listed
  // under the summary, each worded in the reader's language (decision 0074).
  await page.getByLabel('ERP file').setInputFiles({
    name: `ERP_STOCK_${today}_EVENING_e2eout${Date.now()}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(`plant;storage_location;material_code;unrestricted_count\nFR03;0001;E2E-OUT;5\n`, 'utf-8'),
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'Nothing was queued: 1 line is outside what you may change.' });
  await expect(refused).toBeVisible();
  await expect(refused.getByRole('listitem')).toHaveText([/^Line 2\s*Plant FR03 is not one of the plants of stock\.admin@example\.com \(/]);
  // A STOCK file of the admin's own plant FI01 is queued; its line 3 lacks the material code.
  const name = `ERP_STOCK_${today}_EVENING_e2e${Date.now()}.csv`;
  await page.getByLabel('ERP file').setInputFiles({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(`plant;storage_location;material_code;unrestricted_count\nFI01;0001;E2E-${Date.now()};5\nFI01;0001;;1\n`, 'utf-8'),
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText(`${name} was received and is queued for processing.`)).toBeVisible();
  await expect(page.getByRole('heading', { name: /Today’s files/ })).toHaveCount(0); // stock admins may upload, not read
  // The uploader follows their own file to its outcome, errors by line included.
  const mine = page.getByRole('list', { name: 'The file you uploaded' }).getByRole('listitem').first();
  await expect(mine).toContainText('Errored', { timeout: 30_000 });
  await expect(mine).toContainText('Line 3');
  await expectAccessible(page);

  // The super manager on another device (a fresh browser context).
  const manager = await (await browser.newContext()).newPage();
  await login(manager, 'manager@example.com');
  await manager.goto('/file-dashboard');
  const card = manager.getByRole('listitem').filter({ hasText: name });
  await expect(card).toContainText('Errored', { timeout: 20_000 });
  await expect(card).toContainText('Line 3');
  await expect(card).toContainText('material_code is empty');
});
