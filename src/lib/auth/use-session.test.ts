import { describe, expect, it, vi } from 'vitest';
import { closeShownNotifications, forgetProviderCaches, isMsalCacheKey } from './use-session';
import { MemoryStorage } from '../../../tests/setup/memory-storage';

function shown(...titles: string[]) {
  const closed: string[] = [];
  return { closed, notifications: titles.map((title) => ({ title, close: () => void closed.push(title) })) };
}

describe('sign-out and the notifications on the lock screen', () => {
  it('closes every notification the service worker registration shows', async () => {
    const { closed, notifications } = shown('Stock count 27 assigned to you', 'Parcel 12 arrived');
    expect(await closeShownNotifications(async () => ({ getNotifications: async () => notifications }))).toBe(2);
    expect(closed).toEqual(['Stock count 27 assigned to you', 'Parcel 12 arrived']);
  });

  it('does nothing without a registration, or in a browser that cannot list them', async () => {
    expect(await closeShownNotifications(async () => undefined)).toBe(0);
    expect(await closeShownNotifications(async () => ({}))).toBe(0);
  });

  it('never fails and never holds sign-out up', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await closeShownNotifications(async () => ({ getNotifications: () => Promise.reject(new Error('gone')) }))).toBe(0);
    expect(await closeShownNotifications(() => Promise.reject(new Error('no worker')))).toBe(0);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
    // A worker that never answers: sign-out goes on after the wait.
    expect(await closeShownNotifications(() => new Promise(() => undefined), 20)).toBe(0);
  });
});

describe('an offline sign-out and the provider’s cache', () => {
  it('removes MSAL’s accounts and tokens, and nothing of the app', () => {
    const storage = new MemoryStorage();
    const msal = [
      'msal.account.keys',
      'msal.token.keys.11111111-2222-3333-4444-555555555555',
      'uid.utid-login.microsoftonline.com-idtoken-11111111-2222-3333-4444-555555555555-tenant---',
      'uid.utid-login.windows.net-refreshtoken-11111111-2222-3333-4444-555555555555----',
    ];
    for (const key of [...msal, 'session', 'deviceId', 'feedback-draft:mechanic@example.com:ReportIssue']) storage.setItem(key, 'x');
    expect(msal.every(isMsalCacheKey)).toBe(true);
    forgetProviderCaches('microsoft', storage as unknown as Storage);
    expect(msal.map((key) => storage.getItem(key))).toEqual(msal.map(() => null));
    expect(['session', 'deviceId', 'feedback-draft:mechanic@example.com:ReportIssue'].map((key) => storage.getItem(key))).toEqual(['x', 'x', 'x']);
    // Another provider's sign-out leaves MSAL's alone.
    storage.setItem('msal.account.keys', 'x');
    forgetProviderCaches('local', storage as unknown as Storage);
    expect(storage.getItem('msal.account.keys')).toBe('x');
  });
});
