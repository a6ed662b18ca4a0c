import AxeBuilder from '@axe-core/playwright';
import { expect, login, navLabels, test } from './fixtures';
import type { Route } from '@playwright/test';

const seriousOrWorse = (violations: { impact?: string | null; id: string }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);

test('the landing page lists the demo accounts and has no serious accessibility violation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'PartsTrack' })).toBeVisible();
  await expect(page.getByRole('button', { name: /mechanic@example\.com/ })).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(seriousOrWorse(results.violations)).toEqual([]);
});

test('an address outside the allowed domains is refused with the spec message', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Or sign in with another company address').fill('someone@gmail.com');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // The spec's words, then what to do, in the user's language.
  await expect(page.getByRole('alert')).toHaveText('Email domain gmail.com not supported. Sign in with your company address.');
});

test('the mechanic signs in and sees the mechanic’s shell entries', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await expect(page).toHaveURL(/\/status-monitor$/);
  expect(await navLabels(page)).toEqual(['Status', 'Stock', 'Notifications', 'Stock count', 'Profile', 'Info']);
  await expect(page.getByRole('link', { name: /^Profile of / })).toHaveText('ML');
  const results = await new AxeBuilder({ page }).analyze();
  expect(seriousOrWorse(results.violations)).toEqual([]);
});

test('a screen the role does not allow is refused, even by direct address', async ({ page }) => {
  await login(page, 'mechanic@example.com');
  await page.goto('/users-management');
  await expect(page.getByRole('heading', { name: 'Not available for your role' })).toBeVisible();
});

test('the manager sees Users and every other entry', async ({ page }) => {
  await login(page, 'manager@example.com');
  expect(await navLabels(page)).toEqual(['Status', 'Priority', 'Stock', 'Notifications', 'Users', 'Stock count', 'Profile', 'Info', 'Dashboard']);
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/users-management$/);
  await expect(page.getByRole('heading', { name: 'Users management' })).toBeVisible();
  await page.goto('/broadcast-messages');
  await expect(page.getByRole('heading', { name: 'Broadcast messages' })).toBeVisible();
});

test('text typed and not saved is not thrown away without asking: leaving the screen and signing out ask first', async ({ page }) => {
  await login(page, 'manager@example.com');
  // Reached inside the app, so that the phone's back gesture is the app's own.
  await page.getByRole('link', { name: 'Broadcast messages' }).click();
  const message = page.getByLabel('Message 1');
  const saved = await message.inputValue();
  await message.fill('Lift 4 closed on Friday');
  // Leaving by the menu asks; staying keeps the text.
  await page.getByRole('link', { name: 'Users' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave this screen?' });
  await expect(leave).toBeVisible();
  await expect(leave.getByRole('button', { name: 'Stay here' })).toBeFocused();
  await leave.getByRole('button', { name: 'Stay here' }).click();
  await expect(page).toHaveURL(/\/broadcast-messages$/);
  await expect(message).toHaveValue('Lift 4 closed on Friday');
  // The phone's back gesture asks too.
  await page.goBack();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay here' }).click();
  await expect(page).toHaveURL(/\/broadcast-messages$/);
  // A reload (or closing the tab) leaves the app: the browser's own question asks; staying keeps the text.
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });
  await page.reload({ timeout: 2000 }).catch(() => undefined);
  expect(asked).toEqual(['beforeunload']);
  await expect(message).toHaveValue('Lift 4 closed on Friday');
  // Signing out says the text would be lost, even with nothing waiting.
  await page.getByRole('button', { name: 'Logout' }).click();
  const signOut = page.getByRole('dialog', { name: 'Sign out?' });
  await expect(signOut).toContainText('Text you typed on this screen is not saved yet.');
  await signOut.getByRole('button', { name: 'Stay signed in' }).click();
  // Text taken back to what was saved: nothing asks any more.
  await message.fill(saved);
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/users-management$/);
  await expect(leave).toBeHidden();
  // Leaving anyway goes, on the user's word.
  await page.goto('/broadcast-messages');
  await message.fill('Draft not wanted');
  await page.getByRole('link', { name: 'Users' }).click();
  await leave.getByRole('button', { name: 'Leave anyway' }).click();
  await expect(page).toHaveURL(/\/users-management$/);
});

test('Clear names the list it clears: a message another super manager added meanwhile is refused, not wiped, then Clear clears', async ({ page, request }) => {
  const token = (await (await request.post('/auth/local/token', { data: { email: 'manager@example.com' } })).json()).idToken as string;
  const api = (method: 'PUT' | 'DELETE', data?: object) =>
    request.fetch('/parts/v1/users/important-message', { method, headers: { authorization: `Bearer ${token}`, 'Idempotency-Key': crypto.randomUUID() }, data });
  const profile = await request.get('/user_api/v1/user/profile', { headers: { authorization: `Bearer ${token}` } });
  const before = ((await profile.json()) as { importantMessages: string[] }).importantMessages;
  try {
    await login(page, 'manager@example.com');
    // The screen reads the list again on opening: the other manager's message must come after that
    // read, or the screen rightly follows it and Clear has nothing to refuse (a race the clean-clone
    // run lost under load). Every profile read in flight is waited for.
    let reading = 0;
    const isProfileRead = (request: { url: () => string; method: () => string }) => request.method() === 'GET' && request.url().includes('/user_api/v1/user/profile');
    page.on('request', (request) => void (isProfileRead(request) && (reading += 1)));
    const settled = (request: { url: () => string; method: () => string }) => void (isProfileRead(request) && (reading -= 1));
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);
    const reread = page.waitForResponse((response) => isProfileRead(response.request()));
    await page.goto('/broadcast-messages');
    await expect(page.getByLabel('Message 1')).toHaveValue(before[0]!);
    await reread;
    await expect.poll(() => reading).toBe(0);
    // From here until Clear is refused, a re-read of the list (a focus or reconnect refetch) is
    // held back, so the screen still shows the list it was opened on when Clear is pressed.
    const held: Route[] = [];
    let holding = true;
    await page.route('**/user_api/v1/user/profile', (route) => (holding && route.request().method() === 'GET' ? void held.push(route) : route.fallback()));
    // Another super manager adds a message while this screen is open.
    expect((await api('PUT', { important_messages: [...before, 'Lift 7 closed'] })).status()).toBe(200);
    await page.getByRole('button', { name: 'Clear all messages' }).click();
    const ask = page.getByRole('dialog', { name: 'Clear all important messages?' });
    await ask.getByRole('button', { name: 'Clear messages' }).click();
    await expect(ask.getByRole('alert')).toContainText('Someone else changed the important messages');
    holding = false;
    for (const route of held) await route.continue();
    await page.unroute('**/user_api/v1/user/profile');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('region', { name: 'Every user sees these messages now' }).getByText('Lift 7 closed')).toBeVisible();
    // Seen: Clear now clears the list as it is.
    await page.getByRole('button', { name: 'Clear all messages' }).click();
    await ask.getByRole('button', { name: 'Clear messages' }).click();
    await expect(page.getByText('The important messages are cleared.')).toBeVisible();
  } finally {
    // The other tests meet the seeded messages.
    expect((await api('PUT', { important_messages: before })).status()).toBe(200);
  }
});

test('the read-only manager reads everything but is offered no write action', async ({ page }) => {
  await login(page, 'viewer@example.com');
  expect(await navLabels(page)).toContain('Users');
  await page.goto('/broadcast-messages');
  await expect(page.getByRole('heading', { name: 'Not available for your role' })).toBeVisible();
  await page.goto('/approval-request/00000000-0000-0000-0000-000000000000');
  await expect(page.getByRole('heading', { name: 'Not available for your role' })).toBeVisible();
});

test('a pending user lands on the welcome page, an expired user on the expired page', async ({ page }) => {
  await login(page, 'pending@example.com');
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole('heading', { name: /access request is on its way/ })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);

  await login(page, 'expired@example.com');
  await expect(page).toHaveURL(/\/user-expired$/);
  await expect(page.getByText('Sorry, looks like your account has expired.')).toBeVisible();
});

test('a newcomer of an allowed domain is asked to wait for approval', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Or sign in with another company address').fill('new.colleague@parts.example');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/welcome$/);
});

test('signed out, an app address leads to sign-in and back there after', async ({ page }) => {
  await page.goto('/stock-management');
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('button', { name: /stock\.admin@example\.com/ }).click();
  await expect(page).toHaveURL(/\/stock-management$/);
  await expect(page.getByRole('heading', { name: 'Stock management' })).toBeVisible();
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the bottom bar replaces the side bar, with the rest under More', async ({ page }) => {
    await login(page, 'manager@example.com');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const box = await nav.boundingBox();
    expect(box?.y ?? 0).toBeGreaterThan(700);
    expect(box?.width).toBe(390);
    await nav.getByRole('button', { name: 'More' }).click();
    await nav.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const results = await new AxeBuilder({ page }).analyze();
    expect(seriousOrWorse(results.violations)).toEqual([]);
  });
});

test('the app is installable: manifest with icons, and a service worker controls the page', async ({ page, request }) => {
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({ id: '/', short_name: 'PartsTrack', start_url: '/status-monitor', display: 'standalone' });
  const sizes = manifest.icons.map((icon: { sizes: string; purpose?: string }) => `${icon.sizes}:${icon.purpose ?? 'any'}`);
  expect(sizes).toEqual(expect.arrayContaining(['192x192:any', '512x512:any', '512x512:maskable']));
  for (const icon of manifest.icons) expect((await request.get(icon.src)).headers()['content-type']).toBe('image/png');

  await page.goto('/');
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // The first install happened on the landing page: signed in, the app says it now works without signal, once.
  await page.getByRole('button', { name: /mechanic@example\.com/ }).click();
  await expect(page.getByText('Ready to use without signal')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Status monitor', level: 1 })).toBeVisible();
  await expect(page.getByText('Ready to use without signal')).toHaveCount(0);
});

test('the OpenAPI document is served at /docs', async ({ request }) => {
  expect((await request.get('/docs')).status()).toBe(200);
  const doc = await (await request.get('/docs/json')).json();
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/user_api/v1/user/profile', '/user_api/v1/constants/permissions']));
});

test('an account that expires while in use goes to the expired page at its next call, not only the profile call (#19 item 1)', async ({ page, request }) => {
  const token = async (email: string) => (await (await request.post('/auth/local/token', { data: { email } })).json()).idToken as string;
  const manager = { authorization: `Bearer ${await token('manager@example.com')}` };
  const found = await request.get('/user_api/v1/users?query=expired%40example.com', { headers: manager });
  const user = ((await found.json()).items as Array<{ uid: string; email: string; expirationDate: string | null }>).find((u) => u.email === 'expired@example.com')!;
  const setExpiration = (expirationDate: string | null) =>
    request.put(`/user_api/v1/users/${user.uid}/expiration_date`, { headers: { ...manager, 'Idempotency-Key': crypto.randomUUID() }, data: { expirationDate } });
  expect((await setExpiration(null)).ok()).toBe(true);
  try {
    await login(page, 'expired@example.com');
    await expect(page).toHaveURL(/\/status-monitor$/);
    // Expired now: the profile is already loaded; the next call (the stock list, or a poll of
    // the notifications that comes first) is refused, and that is enough to leave.
    expect((await setExpiration(user.expirationDate)).ok()).toBe(true);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Stock', exact: true })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await expect(page).toHaveURL(/\/user-expired$/);
    await expect(page.getByText('Sorry, looks like your account has expired.')).toBeVisible();
  } finally {
    await setExpiration(user.expirationDate);
  }
});
