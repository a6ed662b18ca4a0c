/**
 * The shell says the device's storage is full for as long as the state holds (offline/storage-state.ts),
 * and nothing otherwise.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setStorageFull } from '../../offline/storage-state';
import { StorageBanner } from './storage-banner';

beforeAll(async () => {
  // The key's own text, not the locale's: the banner must ask for `offline.storageFull`.
  await i18next.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { translation: { offline: { storageFull: 'Storage is full (test)' } } } },
    interpolation: { escapeValue: false },
  });
});
afterEach(() => setStorageFull(false));

describe('StorageBanner', () => {
  it('says nothing while there is space', () => {
    expect(renderToStaticMarkup(<StorageBanner />)).toBe('');
  });

  it('says the storage is full, in the flow of the shell like the sign-in notice, while the state is set', () => {
    setStorageFull(true);
    const html = renderToStaticMarkup(<StorageBanner />);
    expect(html).toContain('role="alert"');
    expect(html).toContain('class="notice danger sign-in-again storage-full"');
    expect(html).toContain('Storage is full (test)');
    setStorageFull(false);
    expect(renderToStaticMarkup(<StorageBanner />)).toBe('');
  });
});
