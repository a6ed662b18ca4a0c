/**
 * #21: axe on every route — phone (390×844) and desktop (1280×800), light and dark — with no
 * serious or critical violation (colour contrast included, so both themes meet WCAG AA).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { expect as baseExpect, test } from './fixtures';

// Waiting, not timing: a loaded machine may take long to show a screen; nothing here measures speed.
test.setTimeout(600_000);
const expect = baseExpect.configure({ timeout: 30_000 });

const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

/** Each account and the routes it reads (the parameterised ones through their list's first link). */
const visits: Array<[email: string, paths: Array<string | [list: string, link: string]>]> = [
  ['mechanic@example.com', ['/status-monitor', '/search', ['/status-monitor', 'a[href^="/order-details/"]'], '/notifications', '/stock-management', '/stock-count', '/mechanic-view/27', '/material-count-search/27', '/user-profile', '/notification-settings', '/info', '/feedback', '/change-log']],
  ['supervisor@example.com', ['/stock-count', '/print-count/27', '/count-merge/27']],
  ['manager@example.com', ['/users-management', '/broadcast-messages', '/dashboard', ['/dashboard', 'a[href^="/dashboard/"]'], '/frontliner-dashboard', '/stock-management-search', '/no-such-page']],
  ['pm.writer@example.com', ['/priority-manager']],
  ['stock.admin@example.com', ['/file-dashboard']],
  ['acceptance@example.com', [['/users-management?tab=pending', 'a[href^="/approval-request/"]']]],
];

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);

async function settled(page: Page) {
  await expect(page.locator('.spinner, [aria-busy="true"]')).toHaveCount(0);
}

async function audit(page: Page, where: string, found: string[]) {
  await settled(page);
  const results = await new AxeBuilder({ page }).analyze();
  for (const violation of seriousOrWorse(results.violations)) found.push(`${where}: ${violation}`);
}

async function run(browser: Browser, size: keyof typeof sizes, theme: 'light' | 'dark') {
  const found: string[] = [];
  const phone = size === 'phone';
  {
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: sizes[size], isMobile: phone, hasTouch: phone, colorScheme: theme });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('button', { name: /mechanic@example\.com/ })).toBeVisible();
    await audit(page, '/', found);
    await context.close();
  }
  for (const [email, paths] of visits) {
    const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: sizes[size], isMobile: phone, hasTouch: phone, colorScheme: theme });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: new RegExp(email.replace(/[.]/g, '\\.')) }).click();
    await expect(page).not.toHaveURL(/\/$/);
    await settled(page);
    for (const path of paths) {
      if (typeof path === 'string') {
        await page.goto(path);
        await audit(page, path, found);
      } else {
        await page.goto(path[0]);
        await settled(page);
        await page.locator(path[1]).first().click();
        await audit(page, new URL(page.url()).pathname, found);
      }
    }
    await context.close();
  }
  expect(found).toEqual([]);
}

for (const size of ['phone', 'desktop'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`axe: every route at ${size} size in the ${theme} theme has no serious or critical violation`, async ({ browser }) => {
      await run(browser, size, theme);
    });
  }
}
