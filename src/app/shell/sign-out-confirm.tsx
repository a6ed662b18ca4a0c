/**
 * §2 sign-out, asked first when it would cost the user something: changes still on the phone
 * (queued counts and edits, those that need the user, feedback without an answer) are kept under
 * this user's e-mail and sent only when the same user signs in on this phone again; offline, the
 * landing page it leads to cannot sign anyone in. Nothing waiting and online: signed out at once.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/ui/dialog';
import { useUnsavedTextHeld } from '../../lib/unsaved-text';
import { useOnline } from '../../lib/use-online';
import { useOutboxSummary, type OutboxSummary } from '../../offline/outbox-live';
import { useWaitingFeedbackCount } from '../../features/feedback/api/feedback-drafts';

/**
 * How long the press waits for the device database's answer. It is normally loaded already (the
 * top bar reads it) and answers at once; one that cannot load holds no outbox either.
 */
const WAIT_FOR_OUTBOX_MS = 2000;

export interface SignOutState {
  /** The outbox of this user; undefined until the device database has answered. */
  summary: OutboxSummary | undefined;
  /** Feedback whose Send was pressed and that has no answer yet (decision 0062). */
  feedback: number;
  online: boolean;
  /** The device database did not answer in time: decided on what is known. */
  waitedEnough: boolean;
  /** A form on the screen holds typed text not saved yet (lib/unsaved-text.ts). */
  unsaved?: boolean;
}

export type SignOutStep = { kind: 'wait' } | { kind: 'now' } | { kind: 'confirm'; changes: number; offline: boolean; unknown?: boolean; unsaved?: boolean };

/** Whether the press signs out at once, waits for the outbox's count, or asks first (and how many changes stay). */
export function signOutStep({ summary, feedback, online, waitedEnough, unsaved = false }: SignOutState): SignOutStep {
  // Not knowing yet is not "nothing waits".
  if (!summary && !waitedEnough) return { kind: 'wait' };
  // A device database slow to answer is not an empty one: asked, saying the phone cannot tell yet.
  if (!summary) return { kind: 'confirm', changes: feedback, offline: !online, unknown: true, ...(unsaved && { unsaved }) };
  const { waiting, needsAttention } = summary;
  // Failed and conflicting changes are on the phone too: they are resolved by this user only.
  const changes = waiting + needsAttention + feedback;
  if (changes === 0 && online && !unsaved) return { kind: 'now' };
  return { kind: 'confirm', changes, offline: !online, ...(unsaved && { unsaved }) };
}

export interface Text {
  key: string;
  options?: Record<string, unknown>;
}

/** What the question says: how many changes stay on the phone and for whom; offline, that signing in needs a connection. */
export function signOutTexts(step: SignOutStep, userEmail: string): Text[] {
  if (step.kind !== 'confirm') return [];
  const texts: Text[] = [];
  if (step.unknown) texts.push({ key: 'shell.signOut.unknown', options: { email: userEmail } });
  else if (step.changes > 0) texts.push({ key: 'shell.signOut.changesStay', options: { count: step.changes, email: userEmail } });
  // Typed text is not kept for anyone: it is gone with the screen.
  if (step.unsaved) texts.push({ key: 'shell.signOut.unsavedText' });
  if (step.offline) texts.push({ key: 'shell.signOut.offline' });
  return texts;
}

export function SignOutConfirm({ userEmail, onStay, onSignOut }: { userEmail: string; onStay: () => void; onSignOut: () => void }) {
  const { t } = useTranslation();
  const summary = useOutboxSummary(userEmail);
  const feedback = useWaitingFeedbackCount(userEmail);
  const online = useOnline();
  const unsaved = useUnsavedTextHeld();
  const [waitedEnough, setWaitedEnough] = useState(false);
  /** The question was shown: it stays until the user answers (a change sent meanwhile does not sign out under their thumb). */
  const [asked, setAsked] = useState<SignOutStep | null>(null);
  const [leaving, setLeaving] = useState(false);
  const signedOut = useRef(false);
  const stayRef = useRef<HTMLButtonElement>(null);
  const step = signOutStep({ summary, feedback, online, waitedEnough, unsaved });
  const leave = () => {
    if (signedOut.current) return;
    signedOut.current = true;
    setLeaving(true);
    onSignOut();
  };

  useEffect(() => {
    const timer = setTimeout(() => setWaitedEnough(true), WAIT_FOR_OUTBOX_MS);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    // The question as first shown stays as it was (a change sent meanwhile empties no sentence).
    if (step.kind === 'confirm') setAsked((shown) => shown ?? step);
    else if (step.kind === 'now' && !asked) leave();
    // `leave` runs once (signedOut); the step decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step.kind, asked]);

  const open = asked !== null || step.kind === 'confirm';
  // Signing out has begun (offline it waits a few seconds for the device's sign-out mark): staying
  // can no longer undo it, so nothing offers to.
  const stay = () => {
    if (!signedOut.current) onStay();
  };
  // After the dialog's showModal (a child's effect runs first): staying is the default.
  useEffect(() => {
    if (open) stayRef.current?.focus();
  }, [open]);
  return (
    <Dialog open={open} title={t('shell.signOut.title')} onClose={stay}>
      {signOutTexts(asked ?? step, userEmail).map((text) => (
        <p key={text.key}>{t(text.key, text.options)}</p>
      ))}
      {leaving && (
        <p className="muted" role="status">
          {t('shell.signOut.leaving')}
        </p>
      )}
      <div className="dialog-actions">
        {/* First and focused: staying loses nothing. */}
        <button ref={stayRef} type="button" className="button primary" onClick={stay} disabled={leaving}>
          {t('shell.signOut.stay')}
        </button>
        <button type="button" className="button danger" onClick={leave} disabled={leaving}>
          {t('shell.signOut.anyway')}
        </button>
      </div>
    </Dialog>
  );
}
