/** A shared phone: Google's popup asks which account, never takes the last one's silently. */
import { expect, it } from 'vitest';
import { googleSignInProvider } from './google';

it('asks Google to show the account chooser at every sign-in', () => {
  expect(googleSignInProvider().getCustomParameters()).toEqual({ prompt: 'select_account' });
});
