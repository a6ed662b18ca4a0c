/**
 * Safari (and every browser on an iPhone or iPad, all WebKit) deletes what a site saved on the
 * device once the site has not been used for 7 days of browsing, unless the site runs as an app
 * from the Home Screen (or the Dock on a Mac) or the browser granted persistent storage. For
 * PartsTrack that is the screens kept for use without signal and, worse, changes not sent yet.
 * Said where it is seen, with how to install, until the user closes it; asked again a week later
 * while the risk holds. Nothing is said where the risk is not (Chromium, Firefox, an installed app).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** What the notice is decided on (the page's own facts, read once). */
export interface DeviceFacts {
  userAgent: string;
  /** iPadOS presents itself as a Mac: a touch screen tells them apart. */
  maxTouchPoints: number;
  /** Opened from the Home Screen or the Dock (display-mode standalone, or iOS's navigator.standalone). */
  standalone: boolean;
}

export type EvictionRisk = 'none' | 'phone' | 'mac';

/** Whether unused storage may be deleted after 7 days here, and how the user would install. */
export function evictionRisk({ userAgent, maxTouchPoints, standalone }: DeviceFacts): EvictionRisk {
  if (standalone) return 'none';
  const ios = /\b(iPhone|iPad|iPod)\b/.test(userAgent) || (/\bMacintosh\b/.test(userAgent) && maxTouchPoints > 1);
  if (ios) return 'phone';
  // Safari on a Mac: WebKit, and none of the browsers that say "Safari" in theirs too.
  const safari = /\bVersion\/[\d.]+.*\bSafari\//.test(userAgent) && !/\b(Chrome|Chromium|CriOS|FxiOS|EdgiOS|Edg|OPR|Firefox|Android)\b/.test(userAgent);
  return safari && /\bMacintosh\b/.test(userAgent) ? 'mac' : 'none';
}

const DISMISSED_KEY = 'evictionNoticeClosedAt';
/** Closed, the notice stays away this long: the risk is the same a week later. */
const QUIET_FOR_MS = 7 * 24 * 60 * 60_000;

export function closedRecently(now: number, store: Pick<Storage, 'getItem'> | null): boolean {
  try {
    const at = Number(store?.getItem(DISMISSED_KEY));
    return Number.isFinite(at) && at > 0 && now - at < QUIET_FOR_MS && at <= now;
  } catch {
    return false;
  }
}

function deviceFacts(): DeviceFacts {
  const standalone = window.matchMedia?.('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return { userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints ?? 0, standalone };
}

export function EvictionNotice() {
  const { t } = useTranslation();
  const [risk, setRisk] = useState<EvictionRisk>('none');
  useEffect(() => {
    const found = evictionRisk(deviceFacts());
    if (found === 'none' || closedRecently(Date.now(), localStorage)) return;
    let live = true;
    // Storage the browser agreed to keep is not deleted: nothing to say then.
    void (navigator.storage?.persisted?.() ?? Promise.resolve(false))
      .catch(() => false)
      .then((kept) => {
        if (live && !kept) setRisk(found);
      });
    return () => {
      live = false;
    };
  }, []);
  if (risk === 'none') return null;
  const close = () => {
    try {
      localStorage.setItem(DISMISSED_KEY, String(Date.now()));
    } catch {
      // No storage (private mode): closed for this visit.
    }
    setRisk('none');
    // "Got it" goes with the notice while it has the focus, which fell to <body>: the screen's
    // <main>, right under it, takes it (not scrolled: it is where the user is).
    document.getElementById('main')?.focus({ preventScroll: true });
  };
  return (
    <div className="notice sign-in-again eviction-notice" role="status">
      <span>{t(risk === 'mac' ? 'offline.evictionMac' : 'offline.evictionPhone')}</span>
      <button type="button" className="button small" onClick={close}>
        {t('offline.evictionClose')}
      </button>
    </div>
  );
}
