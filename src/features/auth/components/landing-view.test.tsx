/** The landing page's sign-in error: our text, the provider's code only small beneath it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInFailure } from '../hooks/use-sign-in';
import { SignInError } from './landing-view';

beforeAll(async () => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'locales', 'en-US.json'), 'utf8')) as Record<string, unknown>;
  await i18next.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { translation: english } }, interpolation: { escapeValue: false } });
});

describe('SignInError', () => {
  it('says the pop-up was closed in the user’s language, not in MSAL’s words', () => {
    const error = Object.assign(new Error('user_cancelled: User cancelled the flow.'), { errorCode: 'user_cancelled' });
    const html = renderToStaticMarkup(<SignInError failure={signInFailure(error)} />);
    expect(html).toContain('role="alert"');
    expect(html).toContain(i18next.t('landing.signInCancelled'));
    expect(html).not.toContain('User cancelled the flow');
    expect(html).not.toContain('user_cancelled');
  });

  it('shows an unknown failure’s words as a detail under the text', () => {
    const html = renderToStaticMarkup(<SignInError failure={signInFailure(new Error('Something odd'))} />);
    expect(html).toContain(i18next.t('landing.signInFailed'));
    expect(html).toContain('<span class="small">Something odd</span>');
  });
});
