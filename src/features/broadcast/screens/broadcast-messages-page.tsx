/**
 * Broadcast messages (§2, super managers): the list of important messages every user sees in the
 * top-bar alert. Edit the list and save it, or clear it. Changes need a connection: a broadcast
 * saved on one phone and sent hours later would surprise everyone.
 *
 * Two super managers may edit at once. A save names the list its edit started from; when another
 * was saved meanwhile the server refuses it (409 importantMessagesChangedMeanwhile, worded by the
 * global alert), the page reads the list again and shows it, and the typed text stays to be merged
 * and sent again. Opening the page reads the list again too: a tab left open since the morning
 * must not start from the morning's list.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { sessionQueries, useProfile } from '../../../lib/profile';
import { useUnsavedText } from '../../../lib/unsaved-text';
import { useOnline } from '../../../lib/use-online';
import { Dialog } from '../../../components/ui/dialog';
import { isImportantMessagesChangedMeanwhile, useImportantMessagesMutation } from '../api/important-messages';
import { filledOf, neighbourAfterRemove, newRow, rowsOf, sameList, type MessageRow } from '../message-rows';
import '../broadcast.css';

const MAX_LENGTH = 500;
const MAX_MESSAGES = 20;
/** focusAfterRender's value for the Add button (row ids are never this). */
const ADD_BUTTON = 'add';

export default function BroadcastMessagesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const profile = useProfile();
  const online = useOnline();
  const stored = profile.importantMessages;
  const [rows, setRows] = useState<MessageRow[]>(() => rowsOf(stored));
  const [confirmClear, setConfirmClear] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  /** The list as the server last had it: what the edit started from (sent as `expected`) and what the screen's text is compared with. */
  const [saved, setSaved] = useState<string[]>(stored);
  /** The profile's list this page last followed. */
  const [followed, setFollowed] = useState<string[]>(stored);
  /** A save was refused because someone else saved meanwhile: the list as it is now is shown beside the typed text. */
  const [changedMeanwhile, setChangedMeanwhile] = useState(false);
  const textareas = useRef(new Map<string, HTMLTextAreaElement>());
  const addButton = useRef<HTMLButtonElement>(null);
  /** A row id, or ADD_BUTTON: what takes the focus once the rows on screen are those just set. */
  const focusAfterRender = useRef<string | null>(null);
  const mutation = useImportantMessagesMutation();
  const filled = filledOf(rows);
  const hasUnsavedText = !sameList(filled, saved);
  useUnsavedText(hasUnsavedText);

  // A newer list read (this page's own read on opening, any other refresh of the profile): a form
  // not changed follows it; typed text is never replaced (its save names the list it started from).
  if (!sameList(followed, stored)) {
    setFollowed(stored);
    if (!hasUnsavedText) {
      setSaved(stored);
      if (!sameList(filled, stored)) setRows(rowsOf(stored, rows));
    }
  }

  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: sessionQueries.profile().queryKey });
  }, [queryClient]);

  useEffect(() => {
    const target = focusAfterRender.current;
    if (target === null) return;
    focusAfterRender.current = null;
    (target === ADD_BUTTON ? addButton.current : textareas.current.get(target))?.focus();
  }, [rows]);

  const change = (id: string, value: string) => {
    setDone(null);
    setRows((current) => current.map((row) => (row.id === id ? { ...row, text: value } : row)));
  };
  const add = () => {
    const row = newRow();
    focusAfterRender.current = row.id;
    setRows((current) => [...current, row]);
  };
  // The Remove button pressed goes (with one row left, all of them do): the focus moves to the
  // neighbouring message, not to the page.
  const remove = (id: string) => {
    setDone(null);
    const neighbour = neighbourAfterRemove(rows, id);
    const textarea = neighbour === null ? undefined : textareas.current.get(neighbour);
    // Focused now, as it stays on screen: the focus never passes through the page on its way.
    if (textarea) textarea.focus();
    else focusAfterRender.current = ADD_BUTTON;
    setRows((current) => current.filter((row) => row.id !== id));
  };
  // The global alert says what happened (serverErrors.importantMessagesChangedMeanwhile). Nothing
  // was sent and the typed text stays: the list is read again and shown, and the next save (or
  // clear) starts from it.
  const readAgainIfChanged = async (failure: unknown) => {
    if (!(await isImportantMessagesChangedMeanwhile(failure))) return;
    setChangedMeanwhile(true);
    try {
      const fresh = await queryClient.fetchQuery({ ...sessionQueries.profile(), staleTime: 0 });
      setSaved(fresh.importantMessages);
    } catch {
      // Not read: the list stays the old one, and the next save is refused and reads again.
    }
  };
  const save = () => {
    setDone(null);
    mutation.mutate(
      { messages: filled, expected: saved },
      {
        onSuccess: (result) => {
          setRows((current) => rowsOf(result.important_messages, current));
          setSaved(result.important_messages);
          setChangedMeanwhile(false);
          setDone(t('broadcast.saved', { count: result.important_messages.length }));
        },
        onError: readAgainIfChanged,
      },
    );
  };
  // A refusal keeps the question open: the dialog shows the global error alert inside itself
  // (components/ui/dialog.tsx), where the inert page behind and a phone's bottom sheet hid it.
  // Clearing names the list it started from too: a message another super manager added meanwhile
  // is not wiped unseen (the same refusal, the list read again).
  const clear = () => {
    setDone(null);
    mutation.mutate({ messages: [], expected: saved }, {
      onError: readAgainIfChanged,
      onSuccess: () => {
        setConfirmClear(false);
        setRows((current) => rowsOf([], current));
        setSaved([]);
        setChangedMeanwhile(false);
        setDone(t('broadcast.cleared'));
      },
    });
  };
  // Also when someone cleared them meanwhile: the list as it is now is then none.
  const showsCurrent = changedMeanwhile && hasUnsavedText;

  return (
    <section className="page narrow-page">
      <h1 className="page-title route-title">{t('routes.broadcastMessages')}</h1>
      <p className="muted">{t('broadcast.intro')}</p>
      <form
        className="broadcast-form"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        {showsCurrent && (
          <section className="broadcast-current" aria-labelledby="broadcast-current-title">
            <h2 id="broadcast-current-title" className="field-label">
              {t('broadcast.changedMeanwhileTitle')}
            </h2>
            {saved.length > 0 ? (
              <ol>
                {saved.map((message, index) => (
                  <li key={index}>{message}</li>
                ))}
              </ol>
            ) : (
              <p className="muted">{t('broadcast.cleared')}</p>
            )}
          </section>
        )}
        {rows.map((row, index) => (
          <div key={row.id} className="broadcast-message">
            <label htmlFor={`broadcast-${row.id}`} className="field-label">
              {t('broadcast.messageLabel', { number: index + 1 })}
            </label>
            <textarea
              id={`broadcast-${row.id}`}
              ref={(element) => {
                if (element) textareas.current.set(row.id, element);
                else textareas.current.delete(row.id);
              }}
              rows={3}
              maxLength={MAX_LENGTH}
              value={row.text}
              onChange={(event) => change(row.id, event.target.value)}
            />
            {rows.length > 1 && (
              <button type="button" className="button" onClick={() => remove(row.id)}>
                {t('broadcast.remove', { number: index + 1 })}
              </button>
            )}
          </div>
        ))}
        <div className="broadcast-actions">
          <button type="button" className="button" ref={addButton} onClick={add} disabled={rows.length >= MAX_MESSAGES}>
            {t('broadcast.add')}
          </button>
          <button type="submit" className="button primary" disabled={!online || mutation.isPending || filled.length === 0}>
            {t('broadcast.save')}
          </button>
          <button type="button" className="button danger" disabled={!online || mutation.isPending || saved.length === 0} onClick={() => setConfirmClear(true)}>
            {t('broadcast.clear')}
          </button>
        </div>
        {!online && <p className="muted">{t('broadcast.needsConnection')}</p>}
        {/* Always in the page, only its text changes: a status added with its text is often not read. */}
        <p className={done ? 'success-text' : 'visually-hidden'} role="status">
          {done}
        </p>
      </form>
      <Dialog open={confirmClear} title={t('broadcast.clearTitle')} onClose={() => setConfirmClear(false)}>
        <p>{t('broadcast.clearText')}</p>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => setConfirmClear(false)}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button danger" onClick={clear} disabled={mutation.isPending}>
            {t('broadcast.clearConfirm')}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
