/**
 * The three ways out. Each transport takes one recorded message and either delivers it or throws
 * (the dispatcher records the error and retries). A channel without a transport is `null`: the
 * dispatcher then marks the message 'recorded' and logs it.
 */
import nodemailer from 'nodemailer';
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
  /** Tokens FCM reports as no longer registered: the dispatcher disables those devices. */
  invalidTokens: string[];
  delivered: number;
}

export interface Transports {
  email: ((message: OutgoingMessage) => Promise<void>) | null;
  sms: ((message: OutgoingMessage) => Promise<void>) | null;
  push: ((message: PushMessage) => Promise<PushResult>) | null;
  close(): Promise<void>;
}

export function emailTransport(config: { url: string; from: string }) {
  const transporter = nodemailer.createTransport(config.url);
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

/** FCM HTTP v1 through firebase-admin (loaded only when a service account is configured). */
export async function fcmTransport(account: ServiceAccount) {
  const { initializeApp, cert, deleteApp } = await import('firebase-admin/app');
  const { getMessaging } = await import('firebase-admin/messaging');
  const app = initializeApp(
    { credential: cert({ projectId: account.project_id, clientEmail: account.client_email, privateKey: account.private_key }) },
    `partstrack-push-${Date.now()}`,
  );
  const messaging = getMessaging(app);
  return {
    send: async (message: PushMessage): Promise<PushResult> => {
      // Data-only message: OUR service worker shows it (one worker, one scope), so the click
      // handling and the wording are ours on every browser.
      const response = await messaging.sendEachForMulticast({
        tokens: message.tokens,
        data: { title: message.title, body: message.body, link: message.link ?? '', key: message.key, id: String(message.id) },
        webpush: { headers: { Urgency: 'high', TTL: String(24 * 3600) } },
      });
      const invalidTokens: string[] = [];
      response.responses.forEach((r, index) => {
        const code = r.error?.code ?? '';
        if (code === 'messaging/registration-token-not-registered' || code === 'messaging/invalid-registration-token') {
          invalidTokens.push(message.tokens[index]!);
        }
      });
      if (response.successCount === 0 && invalidTokens.length < message.tokens.length) {
        throw new Error(response.responses.find((r) => r.error)?.error?.message ?? 'FCM refused the message');
      }
      return { invalidTokens, delivered: response.successCount };
    },
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
