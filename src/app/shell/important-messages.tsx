/**
 * §2 important messages (#21): persistent, but never over the screen's controls. A compact banner
 * in the flow under the top bar — one line with the count and the first message, expandable to
 * all of them. Dismissed per version of the messages: it comes back only when they change; the
 * top bar's alert button opens it again meanwhile.
 */
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/ui/icons';

const DISMISSED_KEY = 'importantMessagesDismissed';

export interface ImportantMessagesState {
  messages: string[];
  open: boolean;
  setOpen: (open: boolean) => void;
}

function readDismissed(): string | null {
  try {
    return localStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

export function useImportantMessages(all: string[]): ImportantMessagesState {
  const messages = useMemo(() => all.filter((message) => message.trim() !== ''), [all]);
  const version = JSON.stringify(messages);
  // The version the user put away; open whenever the current version is another one.
  const [dismissed, setDismissed] = useState<string | null>(readDismissed);
  const setOpen = useCallback(
    (open: boolean) => {
      try {
        if (open) localStorage.removeItem(DISMISSED_KEY);
        else localStorage.setItem(DISMISSED_KEY, version);
      } catch {
        // Private mode without storage: dismissal lasts for this page only.
      }
      setDismissed(open ? null : version);
    },
    [version],
  );
  return { messages, open: messages.length > 0 && dismissed !== version, setOpen };
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
    <div id="important-messages" className={`important-banner${expanded ? ' expanded' : ''}`} role="alert">
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
    </div>
  );
}
