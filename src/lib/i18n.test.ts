/**
 * #22: the profile's language, when it is the one the app started in, changes nothing: i18next's
 * change re-renders every text on the screen, which on a phone was a long task as the list drew.
 */
import i18next from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('virtual:en-us-core', () => ({ default: { common: { tryAgain: 'Try again' } } }));
vi.mock('virtual:locale-cores', () => ({ default: {} }));

const stored = new Map<string, string>();
beforeAll(() => {
  vi.stubGlobal('document', { documentElement: { lang: '' } });
  vi.stubGlobal('localStorage', { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => stored.set(key, value) });
});

describe('changeLanguage', () => {
  it('changes i18next only for another language, and says the language on the page either way', async () => {
    const { changeLanguage, initI18n } = await import('./i18n');
    await initI18n('en-US');
    const changes = vi.fn();
    i18next.on('languageChanged', changes);

    await changeLanguage('en-US');
    expect(changes).not.toHaveBeenCalled();
    expect(document.documentElement.lang).toBe('en-US');

    await changeLanguage('fi-FI');
    expect(changes).toHaveBeenCalledWith('fi-FI');
    expect(i18next.t('common.tryAgain')).toBe('Yritä uudelleen');
    expect(document.documentElement.lang).toBe('fi-FI');
    expect(stored.get('language')).toBe('fi-FI');
    i18next.off('languageChanged', changes);
  });
});
