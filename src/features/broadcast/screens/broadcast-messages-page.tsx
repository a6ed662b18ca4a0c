/**
 * Broadcast messages (§2, super managers): the list of important messages every user sees in the
 * top-bar alert. Edit the list and save it, or clear it. Changes need a connection: a broadcast
 * saved on one phone and sent hours later would surprise everyone.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../../lib/profile';
import { useUnsavedText } from '../../../lib/unsaved-text';
import { useOnline } from '../../../lib/use-online';
import { Dialog } from '../../../components/ui/dialog';
import { useImportantMessagesMutation } from '../api/important-messages';
import '../broadcast.css';

const MAX_LENGTH = 500;

export default function BroadcastMessagesPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const online = useOnline();
  const [messages, setMessages] = useState<string[]>(() => (profile.importantMessages.length > 0 ? profile.importantMessages : ['']));
  const [confirmClear, setConfirmClear] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  /** The list as the server last had it: what the screen's text is compared with. */
  const [saved, setSaved] = useState<string[]>(() => profile.importantMessages);
  const mutation = useImportantMessagesMutation();
  const filled = messages.map((message) => message.trim()).filter(Boolean);
  useUnsavedText(filled.join('\n') !== saved.join('\n'));

  const change = (index: number, value: string) => {
    setDone(null);
    setMessages((current) => current.map((message, i) => (i === index ? value : message)));
  };
  const save = () => {
    setDone(null);
    mutation.mutate(filled, {
      onSuccess: (result) => {
        setMessages(result.important_messages);
        setSaved(result.important_messages);
        setDone(t('broadcast.saved', { count: result.important_messages.length }));
      },
    });
  };
  // A refusal keeps the question open: the dialog shows the global error alert inside itself
  // (components/ui/dialog.tsx), where the inert page behind and a phone's bottom sheet hid it.
  const clear = () => {
    setDone(null);
    mutation.mutate(null, {
      onSuccess: () => {
        setConfirmClear(false);
        setMessages(['']);
        setSaved([]);
        setDone(t('broadcast.cleared'));
      },
    });
  };

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
        {messages.map((message, index) => (
          <div key={index} className="broadcast-message">
            <label htmlFor={`broadcast-${index}`} className="field-label">
              {t('broadcast.messageLabel', { number: index + 1 })}
            </label>
            <textarea id={`broadcast-${index}`} rows={3} maxLength={MAX_LENGTH} value={message} onChange={(event) => change(index, event.target.value)} />
            {messages.length > 1 && (
              <button type="button" className="button" onClick={() => setMessages((current) => current.filter((_, i) => i !== index))}>
                {t('broadcast.remove', { number: index + 1 })}
              </button>
            )}
          </div>
        ))}
        <div className="broadcast-actions">
          <button type="button" className="button" onClick={() => setMessages((current) => [...current, ''])} disabled={messages.length >= 20}>
            {t('broadcast.add')}
          </button>
          <button type="submit" className="button primary" disabled={!online || mutation.isPending || filled.length === 0}>
            {t('broadcast.save')}
          </button>
          <button type="button" className="button danger" disabled={!online || mutation.isPending || profile.importantMessages.length === 0} onClick={() => setConfirmClear(true)}>
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
