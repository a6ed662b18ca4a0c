import { describe, expect, it } from 'vitest';
import { routeForProfileError } from './profile-error-route';

describe('§8 profile call failures', () => {
  it('sends an expired user to /user-expired', () => {
    expect(routeForProfileError(403, 'User expired')).toEqual({ kind: 'redirect', to: '/user-expired' });
  });
  it('sends any other 403 to the welcome page', () => {
    expect(routeForProfileError(403, 'Your access request is waiting for approval.')).toEqual({ kind: 'redirect', to: '/welcome' });
  });
  it('sends a token the provider cannot refresh back to sign-in', () => {
    expect(routeForProfileError(401, 'Id token expired')).toEqual({ kind: 'redirect', to: '/' });
  });
  it('keeps the user on a retry screen when the server cannot be reached', () => {
    expect(routeForProfileError(null, 'Failed to fetch')).toEqual({ kind: 'offline', message: 'Failed to fetch' });
    expect(routeForProfileError(503, 'Service unavailable')).toEqual({ kind: 'offline', message: 'Service unavailable' });
  });
});
