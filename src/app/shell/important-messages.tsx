/**
 * §2 important messages (#21): persistent, but never over the screen's controls. A compact banner
 * in the flow under the top bar — one line with the count and the first message, expandable to
 * all of them. Dismissed per version of the messages: it comes back only when they change; the
 * top bar's alert button opens it again meanwhile.
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/ui/icons';

/** Per user: on a shared phone, one mechanic putting the messages away does not hide them from the next. */
const dismissedKey = (email: string) => `importantMessagesDismissed:${email.toLowerCase()}`;

export interface ImportantMessagesState {
  messages: string[];
  open: boolean;
  setOpen: (open: boolean) => void;
}

function readDismissed(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function useImportantMessages(all: string[], email: string): ImportantMessagesState {
  const messages = useMemo(() => all.filter((message) => message.trim() !== ''), [all]);
  const version = JSON.stringify(messages);
  const key = dismissedKey(email);
  // The version the user put away; open whenever the current version is another one.
  const [dismissed, setDismissed] = useState<{ key: string; version: string | null }>(() => ({ key, version: readDismissed(key) }));
  const current = dismissed.key === key ? dismissed.version : readDismissed(key);
  const setOpen = useCallback(
    (open: boolean) => {
      try {
        if (open) localStorage.removeItem(key);
        else localStorage.setItem(key, version);
      } catch {
        // Private mode without storage: dismissal lasts for this page only.
      }
      setDismissed({ key, version: open ? null : version });
    },
    [key, version],
  );
  return { messages, open: messages.length > 0 && current !== version, setOpen };
}

export function ImportantMessagesButton({ state }: { state: ImportantMessagesState }) {
  const { t } = useTranslation();
  if (state.messages.length === 0) return null;
  return (
    <button
      type="button"
      className="icon-button danger"
      aria-label={t('shell.importantMessages')}
      aria-expanded={state.open}
      aria-controls={state.open ? 'important-messages' : undefined}
      onClick={() => state.setOpen(!state.open)}
    >
      <Icon name="alert" />
    </button>
  );
}

export function ImportantMessagesBanner({ state }: { state: ImportantMessagesState }) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  if (!state.open) return null;
  const { messages } = state;
  return (
    // A region to find again, not an alert: as an alert the whole banner (its buttons and, unfolded,
    // every message) was read out again at each change. What is said once as it appears is the
    // count and the first message.
    <section id="important-messages" className={`important-banner${expanded ? ' expanded' : ''}`} aria-label={t('shell.importantMessages')}>
      <p className="visually-hidden" role="alert">
        {t('shell.importantMessagesSpoken', { number: messages.length, first: messages[0] })}
      </p>
      <div className="important-banner-line">
        <Icon name="alert" size={20} />
        <button
          type="button"
          className="important-banner-toggle"
          aria-expanded={expanded}
          aria-controls="important-messages-list"
          onClick={() => setExpanded((value) => !value)}
        >
          <strong>
            <span className="important-banner-label">{t('shell.importantMessages')}</span>
            <span className="important-banner-count">{messages.length}</span>
          </strong>
          {!expanded && <span className="important-banner-first">{messages[0]}</span>}
          <span className="visually-hidden">{expanded ? t('shell.hideMessages') : t('shell.showMessages')}</span>
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={t('common.dismiss')}
          onClick={() => {
            state.setOpen(false);
            // Dismiss goes with the banner while it has the focus, which fell to <body>: the
            // screen's <main>, under the banner, takes it (not scrolled: it is where the user is).
            document.getElementById('main')?.focus({ preventScroll: true });
          }}
        >
          <Icon name="close" size={18} />
        </button>
      </div>
      {expanded && (
        <ul id="important-messages-list" className="important-banner-list">
          {messages.map((message, index) => (
            <li key={index}>{message}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
