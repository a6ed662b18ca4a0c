/**
 * §2 guard: a refused re-read of the profile (401, a token the provider could not renew) over a
 * profile already loaded keeps the shell, what is typed in it and the changes on the phone, and
 * asks to sign in again; only a start without a profile goes back to sign-in. The expired account
 * goes to its page either way.
 */
import { describe, expect, it } from 'vitest';
import { routeForProfileError } from './profile-error-route';

describe('routeForProfileError with a profile at hand', () => {
  it('keeps the shell and asks to sign in again on a refused re-read', () => {
    expect(routeForProfileError(401, 'Id token expired', true)).toEqual({ kind: 'signInAgain' });
  });

  it('goes back to sign-in on a refused start without a profile', () => {
    expect(routeForProfileError(401, 'Id token expired', false)).toEqual({ kind: 'redirect', to: '/' });
  });

  it('still sends an expired account to its page, and a pending one to the welcome page', () => {
    expect(routeForProfileError(403, 'User expired', true)).toEqual({ kind: 'redirect', to: '/user-expired' });
    expect(routeForProfileError(403, 'Your access request is waiting for approval.', true)).toEqual({ kind: 'redirect', to: '/welcome' });
  });

  it('keeps a failed re-read without an answer as before', () => {
    expect(routeForProfileError(503, 'Service unavailable', true)).toEqual({ kind: 'offline', message: 'Service unavailable' });
  });
});
