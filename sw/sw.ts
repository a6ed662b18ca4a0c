/// <reference lib="webworker" />
/**
 * Our one service worker: precaches the app shell, every screen and every locale; serves
 * index.html at `/` and at every other navigation the page naming its first wave (never for API
 * paths, the docs or the sign-in redirect);
 * applies an update when the page asks; shows push messages and opens the right screen; keeps the
 * push subscription when the browser renews it;
 * wakes the page's outbox sync on Background Sync.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { clientsClaim } from 'workbox-core';
import type { RouteHandlerCallback } from 'workbox-core/types';
import { pageFor } from '../src/contract/pages';
import { openInWindow } from './open-link';
import { handToWindow, pushDisplay } from './push-display';
import { PUSH_SUBSCRIPTION_CHANGED, renewSubscription } from './push-subscription';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };
declare const __API_PATHS__: string[];

// The build puts the precache list here (one mention only: vite-plugin-pwa replaces it).
const precacheList = self.__WB_MANIFEST;
precacheAndRoute(precacheList);
cleanupOutdatedCaches();

const apiPaths = __API_PATHS__.map((path) => new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
// `/` gets index.html (the landing page of a signed-out start); every other path the page naming
// the first wave a start there loads (src/contract/pages.ts, #22), where the precache has it.
const precached = new Set(precacheList.map((entry) => (typeof entry === 'string' ? entry : entry.url).replace(/^\//, '')));
const pages = new Map<string, RouteHandlerCallback>();
const pageHandler = (file: string) => pages.get(file) ?? pages.set(file, createHandlerBoundToURL(file)).get(file)!;
registerRoute(
  new NavigationRoute((options) => pageHandler(pageFor(options.url.pathname, (file) => precached.has(file)))(options), {
    denylist: apiPaths,
  }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
clientsClaim();

/**
 * Push (#6). The server sends FCM data messages ({ data: { title, body, link, key, id } }) to the
 * subscription Firebase messaging made on THIS registration, so this worker shows them itself:
 * same wording and click handling on every browser. Plain payloads ({ title, body, url }) work too.
 */
interface PushPayload {
  title?: string;
  body?: string;
  message?: string;
  url?: string;
  link?: string;
  notification?: { title?: string; body?: string };
  data?: { url?: string; link?: string; title?: string; body?: string; message?: string; key?: string; id?: string };
}

/** The screen a notification opens: its link when it is one of ours, else the list of its kind. */
function pushTarget(payload: PushPayload): string {
  const link = payload.data?.link || payload.data?.url || payload.link || payload.url;
  if (link) return link;
  return payload.data?.key === 'inventory_count_notification' ? '/stock-count' : '/notifications';
}

self.addEventListener('push', (event) => {
  let payload: PushPayload = {};
  try {
    payload = (event.data?.json() ?? {}) as PushPayload;
  } catch {
    payload = { body: event.data?.text() ?? '' };
  }
  const title = payload.notification?.title ?? payload.data?.title ?? payload.title ?? 'PartsTrack';
  const body = payload.notification?.body ?? payload.data?.body ?? payload.data?.message ?? payload.body ?? payload.message ?? '';
  const url = pushTarget(payload);
  const tag = payload.data?.id ? `notification-${payload.data.id}` : undefined;
  event.waitUntil(
    (async () => {
      // A system notification unless the app is focused in a browser that allows a push without
      // one (sw/push-display.ts: WebKit cancels the subscription after a few silent pushes); the
      // focused window shows it as a toast that hides after PUSH_TOAST_MS (§9).
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const { notify, toast } = pushDisplay(windows, self.navigator.userAgent);
      const show = () => self.registration.showNotification(title, { body, icon: '/icons/icon-192.png', badge: '/icons/icon-192.png', data: { url }, ...(tag ? { tag } : {}) });
      if (notify) await show();
      // A toast only: the window must say it showed it, else the notification goes after all.
      const shown = toast ? handToWindow(toast, { type: 'PUSH_MESSAGE', title, body, url }) : Promise.resolve(false);
      if (!notify && !(await shown)) await show();
    })(),
  );
});

// The browser rotated or dropped the subscription: subscribe again and have open windows register
// the new one with FCM (sw/push-subscription.ts; with none open, the next start does it).
self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(
    (async () => {
      await renewSubscription(event, self.registration.pushManager);
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      windows.forEach((client) => client.postMessage({ type: PUSH_SUBSCRIPTION_CHANGED }));
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const raw = (event.notification.data as { url?: string } | null)?.url ?? '/';
  // Only our own origin's screens open from a notification.
  const target = new URL(raw, self.location.origin);
  const url = target.origin === self.location.origin ? target.href : self.location.origin;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      await openInWindow(windows, url, (opened) => self.clients.openWindow(opened));
    })(),
  );
});

interface SyncEvent extends ExtendableEvent {
  tag: string;
}

/** Background Sync (where the browser has it): ask an open page to drain its outbox. */
self.addEventListener('sync' as keyof ServiceWorkerGlobalScopeEventMap, (event) => {
  const syncEvent = event as unknown as SyncEvent;
  if (syncEvent.tag !== 'outbox') return;
  syncEvent.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      windows.forEach((client) => client.postMessage({ type: 'SYNC_OUTBOX' }));
    })(),
  );
});
