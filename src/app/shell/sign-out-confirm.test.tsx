/**
 * §2 sign-out: changes still on the phone stay under the user who leaves and go only when the same
 * user signs in here again; offline, the landing page cannot sign anyone in. Logout asks first
 * then, and says so; otherwise it signs out at once, as before.
 */
import { describe, expect, it } from 'vitest';
import { NOTHING_WAITS } from '../../offline/outbox-live';
import { signOutStep, signOutTexts, type SignOutState } from './sign-out-confirm';

const state = (over: Partial<SignOutState> = {}): SignOutState => ({ summary: NOTHING_WAITS, feedback: 0, online: true, waitedEnough: false, ...over });

describe('signOutStep', () => {
  it('signs out at once when nothing waits and there is a connection', () => {
    expect(signOutStep(state())).toEqual({ kind: 'now' });
    // Changes confirmed by the server and not yet read back are not on the phone only.
    expect(signOutStep(state({ summary: { ...NOTHING_WAITS, unverified: 2 } }))).toEqual({ kind: 'now' });
  });

  it('asks first while counted quantities wait, counting those that need the user and waiting feedback', () => {
    expect(signOutStep(state({ summary: { waiting: 3, needsAttention: 1, unverified: 0 }, feedback: 2 }))).toEqual({ kind: 'confirm', changes: 6, offline: false });
    expect(signOutStep(state({ feedback: 1 }))).toEqual({ kind: 'confirm', changes: 1, offline: false });
    expect(signOutStep(state({ summary: { waiting: 0, needsAttention: 1, unverified: 0 } }))).toEqual({ kind: 'confirm', changes: 1, offline: false });
  });

  it('asks first offline, even with nothing waiting', () => {
    expect(signOutStep(state({ online: false }))).toEqual({ kind: 'confirm', changes: 0, offline: true });
  });

  it('does not take a device database that has not answered yet for "nothing waits"', () => {
    expect(signOutStep(state({ summary: undefined }))).toEqual({ kind: 'wait' });
    expect(signOutStep(state({ summary: undefined, online: false }))).toEqual({ kind: 'wait' });
    // One slow to answer is not an empty one: the user is asked, told the phone cannot tell yet.
    expect(signOutStep(state({ summary: undefined, waitedEnough: true }))).toEqual({ kind: 'confirm', changes: 0, offline: false, unknown: true });
    expect(signOutTexts(signOutStep(state({ summary: undefined, waitedEnough: true })), 'mechanic@example.com')).toEqual([
      { key: 'shell.signOut.unknown', options: { email: 'mechanic@example.com' } },
    ]);
  });
});

describe('signOutStep with typed text not saved', () => {
  it('asks first when a form on the screen holds unsaved text, even with nothing waiting', () => {
    expect(signOutStep(state({ unsaved: true }))).toEqual({ kind: 'confirm', changes: 0, offline: false, unsaved: true });
    expect(signOutTexts(signOutStep(state({ unsaved: true })), 'mechanic@example.com')).toEqual([{ key: 'shell.signOut.unsavedText' }]);
  });

  it('says so beside the changes that stay and the missing connection', () => {
    const step = signOutStep(state({ unsaved: true, online: false, feedback: 1 }));
    expect(signOutTexts(step, 'mechanic@example.com').map((text) => text.key)).toEqual([
      'shell.signOut.changesStay',
      'shell.signOut.unsavedText',
      'shell.signOut.offline',
    ]);
  });
});

describe('signOutTexts', () => {
  it('says how many changes stay on this phone and whose sign-in sends them', () => {
    expect(signOutTexts({ kind: 'confirm', changes: 4, offline: false }, 'mechanic@example.com')).toEqual([
      { key: 'shell.signOut.changesStay', options: { count: 4, email: 'mechanic@example.com' } },
    ]);
  });

  it('says offline that signing in again needs a connection, with the changes first', () => {
    expect(signOutTexts({ kind: 'confirm', changes: 0, offline: true }, 'mechanic@example.com')).toEqual([{ key: 'shell.signOut.offline' }]);
    expect(signOutTexts({ kind: 'confirm', changes: 1, offline: true }, 'mechanic@example.com').map((text) => text.key)).toEqual([
      'shell.signOut.changesStay',
      'shell.signOut.offline',
    ]);
  });

  it('says nothing when it does not ask', () => {
    expect(signOutTexts({ kind: 'now' }, 'mechanic@example.com')).toEqual([]);
    expect(signOutTexts({ kind: 'wait' }, 'mechanic@example.com')).toEqual([]);
  });
});
