import { test as base, expect, type Locator, type Page } from '@playwright/test';

export { expect };

/**
 * Every spec's `test`: it fails on an unexpected console.error or uncaught page error (as
 * epic-stack's e2e does), checked after the test in every page of its context. The browser's own
 * "Failed to load resource" lines are not the app's errors (a test may expect a 403 or an offline
 * fetch). A test that expects an error says so first: `allowConsoleErrors(/User expired/)`.
 */
export const test = base.extend<{ allowConsoleErrors: (...patterns: RegExp[]) => void; failOnConsoleError: void }>({
  // eslint-disable-next-line no-empty-pattern
  allowConsoleErrors: async ({}, use, testInfo) => {
    const allowed: RegExp[] = [];
    (testInfo as typeof testInfo & { allowedConsoleErrors?: RegExp[] }).allowedConsoleErrors = allowed;
    await use((...patterns: RegExp[]) => allowed.push(...patterns));
  },
  failOnConsoleError: [
    async ({ context, allowConsoleErrors: _allow }, use, testInfo) => {
      const errors: string[] = [];
      const watch = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() !== 'error') return;
          const text = message.text();
          if (/^Failed to load resource/.test(text)) return;
          errors.push(`console.error on ${page.url()}: ${text}`);
        });
        page.on('pageerror', (error) => errors.push(`uncaught error on ${page.url()}: ${error.stack ?? error.message}`));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      const allowed = (testInfo as typeof testInfo & { allowedConsoleErrors?: RegExp[] }).allowedConsoleErrors ?? [];
      const unexpected = errors.filter((error) => !allowed.some((pattern) => pattern.test(error)));
      expect(unexpected, 'console.error or uncaught errors in the browser during this test').toEqual([]);
    },
    { auto: true },
  ],
});

/** Sign in through the landing page as a demo account, the way a person does. */
export async function login(page: Page, email: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('button', { name: new RegExp(email.replace(/[.]/g, '\\.')) }).click();
  await expect(page).not.toHaveURL(/\/$/);
}

/** The labels of the main navigation, in order. */
export async function navLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav).toBeVisible();
  return (await nav.getByRole('link').allInnerTexts()).map((text) => text.trim());
}

/**
 * A row's action: its first action is a button in the row, the others are in the row's "⋯" menu
 * (#21). Fails when the action is in neither.
 */
export async function rowAction(row: Locator, name: RegExp): Promise<void> {
  const direct = row.getByRole('button', { name });
  const more = row.getByRole('button', { name: /^More actions for / });
  // count() does not wait: first let the row draw its actions, or a row still loading reads as
  // "not a direct action" and the menu is searched for a button that sits in the row. Generous:
  // several journeys per test on a shared machine.
  await expect(direct.or(more).first()).toBeVisible({ timeout: 30_000 });
  if ((await direct.count()) > 0) return direct.click();
  await more.click();
  await row.getByRole('menuitem', { name }).click();
}
