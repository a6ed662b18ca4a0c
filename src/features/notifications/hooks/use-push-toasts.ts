/**
 * A push message that arrives while the app is open in front of the user (#19 item 4, §9): the
 * service worker hands it to the page instead of showing a system notification, and the page
 * shows it as a toast that hides after PUSH_TOAST_MS, with "Open" for the screen it links to.
 * The unread count and lists refresh, since the message is a new notification. A click on a
 * system notification (the app was in the background) routes this window to its screen, without
 * a reload (OPEN_LINK from sw/open-link.ts).
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { PUSH_TOAST_MS } from '../../../domain/constants';
import { showToast } from '../../../components/ui/toast';
import { notificationQueries } from '../api/notifications';

const pushMessage = z.object({
  type: z.literal('PUSH_MESSAGE'),
  title: z.string(),
  body: z.string(),
  url: z.string(),
});

/** A system notification was clicked: this window routes to its screen (sw/open-link.ts), no reload. */
const openLink = z.object({ type: z.literal('OPEN_LINK'), url: z.string() });

/** Only a screen of ours opens from a message: a path of this origin, else nothing. */
export function localPath(url: string, origin: string): string | null {
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? `${target.pathname}${target.search}${target.hash}` : null;
  } catch {
    return null;
  }
}

export function pushToastText(title: string, body: string): string {
  return [title.trim(), body.trim()].filter(Boolean).join(': ');
}

export function usePushToasts(): void {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const worker = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
    if (!worker) return;
    const onMessage = (event: MessageEvent) => {
      const link = openLink.safeParse(event.data);
      if (link.success) {
        const path = localPath(link.data.url, window.location.origin);
        if (path) {
          void queryClient.invalidateQueries({ queryKey: notificationQueries.all() });
          navigate(path);
        }
        // Answered either way: a link of another origin is not opened (the worker only sends ours).
        event.ports[0]?.postMessage({ opened: path !== null });
        return;
      }
      const parsed = pushMessage.safeParse(event.data);
      if (!parsed.success) return;
      const { title, body, url } = parsed.data;
      void queryClient.invalidateQueries({ queryKey: notificationQueries.all() });
      const path = localPath(url, window.location.origin);
      showToast(pushToastText(title, body), 'info', {
        ms: PUSH_TOAST_MS,
        ...(path ? { action: { label: t('notifications.pushToastOpen'), run: () => navigate(path) } } : {}),
      });
      // The worker shows a system notification when no window says it showed the message.
      event.ports[0]?.postMessage({ shown: true });
    };
    worker.addEventListener('message', onMessage);
    return () => worker.removeEventListener('message', onMessage);
  }, [navigate, queryClient, t]);
}
