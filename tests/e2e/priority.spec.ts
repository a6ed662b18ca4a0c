import { readFile } from 'node:fs/promises';
import { type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expect, login, test } from './fixtures';

/** The persistent important-messages toast covers the page's actions; people dismiss it too. */
async function openPriorityManager(page: Page) {
  await page.goto('/priority-manager');
  await page.getByRole('region', { name: 'Important messages' }).getByRole('button', { name: 'Dismiss' }).click();
}

const csv = (text: string) => ({ name: 'priorities.csv', mimeType: 'text/csv', buffer: Buffer.from(text, 'utf-8') });

test('a PM writer uploads priorities: preview, apply, and the new priority is in the list', async ({ page }) => {
  await login(page, 'pm.writer@example.com');
  await openPriorityManager(page);
  await expect(page.getByRole('heading', { name: 'Priority manager' })).toBeVisible();
  await expect(page.getByText('Your ship-to-party numbers: 4 of 50.')).toBeVisible();
  const depot = page.getByRole('region', { name: /0050010001/ });
  await expect(depot.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('1');

  await page.getByRole('button', { name: 'Upload priorities' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add or update priorities (CSV)' });
  await dialog.getByLabel('CSV file').setInputFiles(csv('\uFEFFshipToPartyCode;accessPointId;priority\r\n0050010001;FI-AP-10611;9\r\n'));
  await expect(dialog.getByText('1 row read: 1 will change, 0 unchanged, 0 errors.')).toBeVisible();
  const previewRow = dialog.getByRole('row', { name: /FI-AP-10611/ });
  await expect(previewRow).toContainText('New priority');
  const audit = await new AxeBuilder({ page }).analyze();
  expect(audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await dialog.getByRole('button', { name: 'Apply 1 change' }).click();
  await expect(dialog.getByText('priorities.csv: 1 row applied (0 unchanged).')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  const row = depot.getByRole('row', { name: /Parcel locker Tampere Koskikeskus/ });
  await expect(row.getByRole('cell').first()).toHaveText('9');
  await expect(row).toContainText('Hatanpään valtatie 1');
});

test('an apply whose answer is lost says it may have been applied, and Try again applies it once', async ({ page }) => {
  await login(page, 'pm.writer@example.com');
  await openPriorityManager(page);
  const depot = page.getByRole('region', { name: /0050010001/ });
  await expect(depot).toBeVisible();
  // The first apply reaches the server, which applies it; its answer never comes back.
  let applies = 0;
  await page.route(
    (url) => url.pathname.endsWith('/uap_priority/uploads/add') && !url.searchParams.has('dryRun'),
    async (route) => {
      applies += 1;
      if (applies > 1) return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    },
  );
  await page.getByRole('button', { name: 'Upload priorities' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add or update priorities (CSV)' });
  await dialog.getByLabel('CSV file').setInputFiles(csv('shipToPartyCode;accessPointId;priority\n0050010001;FI-AP-10520;8\n'));
  await expect(dialog.getByText('1 row read: 1 will change, 0 unchanged, 0 errors.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Apply 1 change' }).click();
  const unsure = dialog.getByRole('alert');
  await expect(unsure).toContainText('No connection.');
  await expect(unsure).toContainText('The server did not answer, so priorities.csv may or may not have been applied. Try again: it is applied only once.');
  await expect(unsure).not.toContainText('Nothing was changed.');
  // Sent again under the same key: the server answers what it did the first time (a second apply
  // would have found the priority set already: "0 applied (1 unchanged)").
  await dialog.getByRole('button', { name: 'Try again' }).click();
  await expect(dialog.getByText('priorities.csv: 1 row applied (0 unchanged).')).toBeVisible();
  expect(applies).toBe(2);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(depot.getByRole('row', { name: /Pickup point Aviapolis/ }).getByRole('cell').first()).toHaveText('8');
});

test('a dropped file with bad rows changes nothing and offers every error as a neutralised CSV', async ({ page }) => {
  await login(page, 'pm.writer@example.com');
  await openPriorityManager(page);
  await page.getByRole('button', { name: 'Upload priorities' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add or update priorities (CSV)' });
  // Dropped onto the zone this time, as from a file manager.
  const dataTransfer = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'priorities.csv', { type: 'text/csv' }));
    return transfer;
  }, 'shipToPartyCode,accessPointId,priority\n0050010001,FI-AP-10231,7\n=1+1,FI-AP-10245,2\n0050010001,FI-AP-10302,100\n');
  await dialog.getByText('Drop the CSV file here, or choose it.').dispatchEvent('drop', { dataTransfer });
  await expect(dialog.getByText('Rows with errors (2)')).toBeVisible();
  await expect(dialog.getByText(/Line 4.*Priority must be a whole number from 1 to 99/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Apply/ })).toBeDisabled();
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download error CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('priorities-errors.csv');
  const text = await readFile((await download.path())!, 'utf-8');
  expect(text).toContain("3,shipToPartyCode,'=1+1,");
  await dialog.getByRole('button', { name: 'Close' }).click();
  // Line 2 was valid, but nothing of a refused file is applied: Pasila station keeps its seeded priority 2.
  const pasila = page.getByRole('region', { name: /0050010001/ }).getByRole('row', { name: /Parcel locker Pasila station/ });
  await expect(pasila.getByRole('cell').first()).toHaveText('2');
});

test('a PM reader sees the list but no upload, and is told there are no ship-to-party numbers', async ({ page }) => {
  await login(page, 'pm.reader@example.com');
  await page.goto('/priority-manager');
  await expect(page.getByText('No ship-to-party numbers available')).toBeVisible();
  await expect(page.getByRole('button', { name: /Upload|Add ship-to-party|Disable/ })).toHaveCount(0);
});

test('a PM writer changes one priority in place', async ({ page }) => {
  await login(page, 'pm.writer@example.com');
  await openPriorityManager(page);
  const depot = page.getByRole('region', { name: /0050010002/ });
  const row = depot.getByRole('row').nth(1);
  const name = (await row.getByRole('cell').nth(1).innerText()).split('\n')[0]!;
  await row.getByRole('button', { name: `Change the priority of ${name}` }).click();
  // The focus goes into the editor that replaced the button (keyboard users were left on the page).
  await expect(row.getByLabel(`New priority of ${name}`)).toBeFocused();
  await row.getByLabel(`New priority of ${name}`).fill('100');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByRole('alert')).toHaveText('Priority must be a whole number from 1 to 99');
  await row.getByLabel(`New priority of ${name}`).fill('7');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(depot.getByRole('row', { name: new RegExp(name) }).getByRole('cell').first()).toHaveText('7');
  await expect(depot.getByRole('button', { name: `Change the priority of ${name}` })).toBeFocused();
});

test('one who gives PM rights names a colleague by e-mail on the priority manager and gives them PM read', async ({ page }) => {
  await login(page, 'acceptance@example.com');
  await openPriorityManager(page);
  await page.getByRole('button', { name: 'Give access' }).click();
  const ask = page.getByRole('dialog', { name: 'Give priority access to a colleague' });
  const email = ask.getByLabel('Colleague\'s e-mail address');
  // A tablet turned across the phone layout's breakpoint keeps the open dialog and what was typed in it.
  await email.fill('half.typed@exa');
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 800, height: 1000 });
  await expect(email).toHaveValue('half.typed@exa');
  await page.setViewportSize(size);
  await expect(email).toHaveValue('half.typed@exa');
  await email.fill('not-an-address');
  await ask.getByRole('button', { name: 'Find colleague' }).click();
  await expect(ask.getByText('Enter an e-mail address, such as name@example.com.')).toBeVisible();
  await email.fill('nobody.here@example.com');
  await ask.getByRole('button', { name: 'Find colleague' }).click();
  await expect(ask.getByText('No user with the e-mail address nobody.here@example.com, or not one whose rights you may see.')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  const audit = await new AxeBuilder({ page }).analyze();
  expect(audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // Any case: the address is the colleague's, however typed.
  await email.fill(' CS.Admin@Example.com ');
  await ask.getByRole('button', { name: 'Find colleague' }).click();
  const rights = page.getByRole('dialog', { name: /^Permissions of / });
  await expect(rights.getByLabel('PM read', { exact: true })).not.toBeChecked();
  // Only what this granter may give is offered.
  await expect(rights.getByLabel('Super manager', { exact: true })).toBeDisabled();
  await rights.getByLabel('PM read', { exact: true }).check();
  await rights.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Permissions of cs.admin@example.com saved.')).toBeVisible();

  // Given back as it was: other journeys sign in as this colleague.
  await page.getByRole('button', { name: 'Give access' }).click();
  await page.getByRole('dialog', { name: 'Give priority access to a colleague' }).getByLabel('Colleague\'s e-mail address').fill('cs.admin@example.com');
  await page.getByRole('button', { name: 'Find colleague' }).click();
  const again = page.getByRole('dialog', { name: /^Permissions of / });
  await expect(again.getByLabel('PM read', { exact: true })).toBeChecked();
  await again.getByLabel('PM read', { exact: true }).uncheck();
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Permissions of cs.admin@example.com saved.')).toBeVisible();
});

test('a PM writer gives back a ship-to-party number it added, asked first, and can add it again', async ({ page }) => {
  await login(page, 'pm.writer@example.com');
  await openPriorityManager(page);
  const numbers = page.getByRole('list', { name: 'Your ship-to-party numbers' });
  await expect(numbers.getByRole('listitem')).toHaveCount(4);
  await numbers.getByRole('button', { name: 'Remove ship-to-party number 0050020001' }).click();
  const ask = page.getByRole('dialog', { name: 'Remove ship-to-party number 0050020001?' });
  // Cancel is first and focused: nothing is lost by a stray tap.
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await ask.getByRole('button', { name: 'Remove' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByText('Your ship-to-party numbers: 3 of 50.')).toBeVisible();
  await expect(numbers.getByRole('listitem')).toHaveText([/0050010001/, /0050010002/, /0050010003/]);
  await expect(page.getByRole('region', { name: /0050020001/ })).toHaveCount(0);

  // Added again by upload: the seed is as it was for the other tests.
  await page.getByRole('button', { name: 'Add ship-to-party numbers' }).click();
  const dialog = page.getByRole('dialog', { name: /ship-to-party numbers/i });
  await dialog.getByLabel('CSV file').setInputFiles(csv('shipToPartyCode\n0050020001\n'));
  await dialog.getByRole('button', { name: /^Apply/ }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText('Your ship-to-party numbers: 4 of 50.')).toBeVisible();
});
