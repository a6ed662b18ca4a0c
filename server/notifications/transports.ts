/**
 * The three ways out. Each transport takes one recorded message and either delivers it or throws
 * (the dispatcher records the error and retries); push answers per device instead (PushResult),
 * and the dispatcher decides. A channel without a transport is `null`: the dispatcher then marks
 * the message 'recorded' and logs it.
 *
 * Every send is bounded well under the dispatcher's claim lease (5 min): SMS 15 s, SMTP by the
 * timeouts below, FCM by firebase-admin's own. A send that outlived its lease could be claimed
 * and sent again by another replica.
 */
import nodemailer from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type { BatchResponse, MulticastMessage } from 'firebase-admin/messaging';
import type { NotificationConfig, ServiceAccount } from './config';

export interface OutgoingMessage {
  id: number;
  recipient: string;
  subject: string;
  body: string;
  /** Absolute URL or in-app path the message points to. */
  link: string | null;
}

export interface PushMessage {
  id: number;
  tokens: string[];
  title: string;
  body: string;
  link: string | null;
  key: string;
}

export interface PushResult {
  /** Tokens FCM reports as no longer registered: the dispatcher drops them (the device's on/off switch stays the user's). */
  invalidTokens: string[];
  delivered: number;
  /** Why the other devices failed (the first one's reason), when any failed for a reason that is not its token. */
  error?: string;
}

export interface Transports {
  email: ((message: OutgoingMessage) => Promise<void>) | null;
  sms: ((message: OutgoingMessage) => Promise<void>) | null;
  push: ((message: PushMessage) => Promise<PushResult>) | null;
  close(): Promise<void>;
}

/**
 * nodemailer waits minutes by default (a silent socket: an hour). These bound every wait of one
 * send to seconds, a silent server to a minute; a timeout set in SMTP_URL's query wins.
 */
export const SMTP_TIMEOUTS = { dnsTimeout: 15_000, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 } as const;

export function emailTransport(config: { url: string; from: string }) {
  // The options object, not the URL: createTransport(url) would take no timeouts beside it.
  const transporter = nodemailer.createTransport({ ...SMTP_TIMEOUTS, ...parseConnectionUrl(config.url) });
  return {
    send: async (message: OutgoingMessage) => {
      const text = message.link ? `${message.body}\n\n${message.link}` : message.body;
      // Plain text only: a body is user and ERP text, never markup.
      await transporter.sendMail({ from: config.from, to: message.recipient, subject: message.subject, text });
    },
    close: () => transporter.close(),
  };
}

/**
 * The SMS provider interface: one HTTP POST of JSON {to, from, body} with an optional bearer
 * token. Most providers (or a small adapter in front of one) accept this; a 2xx is delivered.
 */
export function httpSmsTransport(config: { url: string; token: string | undefined; from: string }, fetchImpl: typeof fetch = fetch) {
  return async (message: OutgoingMessage) => {
    const response = await fetchImpl(config.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(config.token ? { authorization: `Bearer ${config.token}` } : {}) },
      body: JSON.stringify({ to: message.recipient.replace(/[^\d+]/g, ''), from: config.from, body: message.body }),
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
  };
}

const INVALID_TOKEN_CODES = new Set(['messaging/registration-token-not-registered', 'messaging/invalid-registration-token']);

/**
 * Sends one message to a user's devices through `messaging` (firebase-admin's, or a test's fake)
 * and says per device how it went; it throws only when the call itself failed.
 */
export function fcmSender(messaging: { sendEachForMulticast(message: MulticastMessage): Promise<BatchResponse> }) {
  return async (message: PushMessage): Promise<PushResult> => {
    // Data-only message: OUR service worker shows it (one worker, one scope), so the click
    // handling and the wording are ours on every browser.
    const response = await messaging.sendEachForMulticast({
      tokens: message.tokens,
      data: { title: message.title, body: message.body, link: message.link ?? '', key: message.key, id: String(message.id) },
      webpush: { headers: { Urgency: 'high', TTL: String(24 * 3600) } },
    });
    const invalidTokens: string[] = [];
    let error: string | undefined;
    response.responses.forEach((r, index) => {
      if (!r.error) return;
      if (INVALID_TOKEN_CODES.has(r.error.code)) invalidTokens.push(message.tokens[index]!);
      else error ??= r.error.message || r.error.code || 'FCM refused the message';
    });
    // Not thrown even when nothing was delivered: the dispatcher must drop the invalid tokens first.
    return { invalidTokens, delivered: response.successCount, ...(error ? { error } : {}) };
  };
}

/** FCM HTTP v1 through firebase-admin (loaded only when a service account is configured). */
export async function fcmTransport(account: ServiceAccount) {
  const { initializeApp, cert, deleteApp } = await import('firebase-admin/app');
  const { getMessaging } = await import('firebase-admin/messaging');
  const app = initializeApp(
    { credential: cert({ projectId: account.project_id, clientEmail: account.client_email, privateKey: account.private_key }) },
    `partstrack-push-${Date.now()}`,
  );
  return {
    send: fcmSender(getMessaging(app)),
    close: () => deleteApp(app),
  };
}

export async function createTransports(config: NotificationConfig): Promise<Transports> {
  const email = config.smtp ? emailTransport(config.smtp) : null;
  const push = config.fcm ? await fcmTransport(config.fcm) : null;
  return {
    email: email?.send ?? null,
    sms: config.sms ? httpSmsTransport(config.sms) : null,
    push: push?.send ?? null,
    async close() {
      email?.close();
      await push?.close();
    },
  };
}
