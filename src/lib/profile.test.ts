/**
 * A changed profile is kept on the device as well as on the screens: the guard of an offline start
 * reads the device's copy, and a language changed on the profile screen came back as the old one.
 */
import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../contract/user-api';
import { offlineDb } from '../offline/db';
import { MemoryStorage } from '../../tests/setup/memory-storage';
import { openAfterFirstScreen } from './after-first-screen';
import { userApi } from './api-client';
import { setSession } from './auth/session';
import { saveProfile, sessionQueries } from './profile';

const profileIn = (locale: string): Profile => ({
  uid: 'me',
  email: 'mechanic@example.com',
  displayName: 'Mechanic',
  licensed: true,
  organisation: null,
  approvalRequestId: null,
  permissions: ['mechanic'],
  locale,
  isLocaleLocked: false,
  managedShipToPartyNumbers: [],
  phoneNumber: null,
  expirationDate: null,
  shipToPartyNumbers: [],
  firstLogin: false,
  importantMessages: [],
  plants: ['1000'],
  plannerGroups: [],
  storageLocations: [],
  workCenters: [],
  lastLogin: null,
});

const answer = (body: unknown) => ({ json: async () => body }) as never;

beforeEach(() => {
  Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
  setSession({ provider: 'local', email: 'mechanic@example.com', idToken: 'token', expiresAt: Date.now() + 3_600_000 });
  // The device copies are written once the first screen is drawn (offline/mirror.ts).
  openAfterFirstScreen();
});

afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  await offlineDb.pages.clear();
});

describe('a profile change', () => {
  it('is what an offline start reads, not the profile of the last read', async () => {
    // Online: the start reads the profile (English) and keeps its copy.
    vi.spyOn(userApi, 'get').mockReturnValue(answer(profileIn('en-US')));
    const online = new QueryClient();
    expect((await online.fetchQuery(sessionQueries.profile())).locale).toBe('en-US');
    // The language changed to German on the profile screen.
    vi.spyOn(userApi, 'put').mockReturnValue(answer(profileIn('de-DE')));
    await saveProfile(online, { locale: 'de-DE' });
    expect(online.getQueryData(sessionQueries.profile().queryKey)?.locale).toBe('de-DE');
    // The app closed and opened again in a basement: only the device's copy answers.
    vi.stubGlobal('navigator', { onLine: false });
    const restarted = new QueryClient();
    expect((await restarted.fetchQuery(sessionQueries.profile())).locale).toBe('de-DE');
  });

  it('refused by the server leaves the device copy as it was', async () => {
    vi.spyOn(userApi, 'get').mockReturnValue(answer(profileIn('en-US')));
    const online = new QueryClient();
    await online.fetchQuery(sessionQueries.profile());
    vi.spyOn(userApi, 'put').mockImplementation(() => {
      throw new Error('locale must be one of …');
    });
    await expect(saveProfile(online, { locale: 'de-DE' })).rejects.toThrow('locale must be one of');
    vi.stubGlobal('navigator', { onLine: false });
    expect((await new QueryClient().fetchQuery(sessionQueries.profile())).locale).toBe('en-US');
  });
});
