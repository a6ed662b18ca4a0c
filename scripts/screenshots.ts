/**
 * Screenshots of the screens at phone (390×844) and desktop (1280×800) sizes, for looking at
 * what we build. Usage: start the server (npm start), then `npx tsx scripts/screenshots.ts [baseUrl] [outDir]`.
 */
import { mkdirSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';

const baseUrl = process.argv[2] ?? 'http://localhost:8080';
const outDir = process.argv[3] ?? 'screenshots';
mkdirSync(outDir, { recursive: true });

const sizes = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

async function signIn(page: Page, email: string) {
  await page.goto(`${baseUrl}/`);
  await page.getByRole('button', { name: new RegExp(email.replace(/[.]/g, '\\.')) }).click();
  await page.waitForURL((url) => url.pathname !== '/');
  await page.waitForLoadState('networkidle');
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
for (const [name, viewport] of Object.entries(sizes)) {
  const shots: Array<[string, (page: Page) => Promise<void>]> = [
    ['landing', async (page) => { await page.goto(`${baseUrl}/`); await page.waitForLoadState('networkidle'); }],
    ['status-monitor-mechanic', (page) => signIn(page, 'mechanic@example.com')],
    ['status-monitor-manager', (page) => signIn(page, 'manager@example.com')],
    ['welcome-pending', (page) => signIn(page, 'pending@example.com')],
    ['user-expired', (page) => signIn(page, 'expired@example.com')],
    ['stock-management-manager', async (page) => {
      await signIn(page, 'manager@example.com');
      await page.goto(`${baseUrl}/stock-management`);
      await page.waitForLoadState('networkidle');
    }],
    ['stock-count-supervisor', async (page) => {
      await signIn(page, 'supervisor@example.com');
      await page.goto(`${baseUrl}/stock-count`);
      await page.waitForLoadState('networkidle');
    }],
  ];
  for (const [shot, action] of shots) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, isMobile: name === 'phone', hasTouch: name === 'phone' });
    const page = await context.newPage();
    await action(page);
    await page.screenshot({ path: `${outDir}/${shot}-${name}.png` });
    if (shot === 'status-monitor-manager' && name === 'phone') {
      await page.getByRole('button', { name: 'More', exact: true }).click();
      await page.screenshot({ path: `${outDir}/more-menu-${name}.png` });
    }
    await context.close();
  }
}
await browser.close();
console.log(`Screenshots written to ${outDir}/`);
