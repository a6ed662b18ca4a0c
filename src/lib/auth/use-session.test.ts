import { describe, expect, it, vi } from 'vitest';
import { closeShownNotifications } from './use-session';

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
