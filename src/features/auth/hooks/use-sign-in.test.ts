/**
 * A failed sign-in says what happened in the user's language (defect: closing the Microsoft or
 * Google pop-up showed "user_cancelled: User cancelled the flow." or "Firebase: Error
 * (auth/popup-closed-by-user).").
 */
import { describe, expect, it } from 'vitest';
import { signInFailure } from './use-sign-in';

/** Shaped as MSAL's AuthError: `errorCode`, and a message of code and English text. */
const msal = (errorCode: string, text = 'English words') => Object.assign(new Error(`${errorCode}: ${text}`), { errorCode, errorMessage: text });
/** Shaped as Firebase's FirebaseError: `code`, and "Firebase: Error (code)." */
const firebase = (code: string) => Object.assign(new Error(`Firebase: Error (${code}).`), { code });

describe('signInFailure', () => {
  it.each([
    [msal('user_cancelled', 'User cancelled the flow.'), 'landing.signInCancelled'],
    [firebase('auth/popup-closed-by-user'), 'landing.signInCancelled'],
    [firebase('auth/cancelled-popup-request'), 'landing.signInCancelled'],
    [msal('popup_window_error'), 'landing.popupBlocked'],
    [msal('empty_window_error'), 'landing.popupBlocked'],
    [firebase('auth/popup-blocked'), 'landing.popupBlocked'],
    [msal('interaction_in_progress'), 'landing.signInBusy'],
    [msal('no_network_connectivity'), 'landing.signInOffline'],
    [firebase('auth/network-request-failed'), 'landing.signInOffline'],
    [new TypeError('Failed to fetch'), 'landing.signInOffline'],
  ])('words %s as %s, without the library’s text', (error, key) => {
    expect(signInFailure(error)).toEqual({ key });
  });

  it('gives a refusal the user cannot fix a plain "try again" with the code for a help desk', () => {
    expect(signInFailure(firebase('auth/user-disabled'))).toEqual({ key: 'landing.signInFailed', detail: 'auth/user-disabled' });
    expect(signInFailure(msal('monitor_window_timeout'))).toEqual({ key: 'landing.signInFailed', detail: 'monitor_window_timeout' });
  });

  it('keeps an unknown failure’s own words only as the detail', () => {
    const failure = msal('invalid_grant', 'AADSTS50020: User account does not exist in tenant.');
    expect(signInFailure(failure)).toEqual({ key: 'landing.signInFailed', detail: failure.message });
    expect(signInFailure({})).toEqual({ key: 'landing.signInFailed' });
  });

  it('words the demo issuer’s refusal of a domain in the user’s language', () => {
    expect(signInFailure(new Error('Email domain gmail.com not supported'))).toEqual({ key: 'welcome.domainNotSupported', values: { domain: 'gmail.com' } });
  });
});
