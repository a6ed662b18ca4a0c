import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [name, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 800 }]] as const) {
  const page = await (await browser.newContext({ viewport, isMobile: name === 'phone' })).newPage();
  page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
  await page.goto('http://localhost:8090/');
  await page.getByRole('button', { name: /mechanic@example\.com/ }).click();
  await page.waitForURL(/status-monitor/);
  await page.goto('http://localhost:8090/mechanic-view/2');
  await page.waitForSelector('input[data-quantity]');
  const inputs = page.locator('input[data-quantity]');
  await inputs.nth(0).fill('4');
  await inputs.nth(0).press('Enter');
  await inputs.nth(1).fill('-2');
  await inputs.nth(1).press('Enter');
  await page.waitForTimeout(800);
  await page.screenshot({ path: `/tmp/shots/mechanic-${name}.png` });
}
await browser.close();
