/**
 * Notification transports, configured by environment (parsed once at start, failing loudly):
 *   SMTP_URL            smtp://user:pass@host:587 or smtps://…:465   → e-mail via nodemailer
 *   SMTP_FROM           sender address (default "PartsTrack <no-reply@parts.example>")
 *   SMS_PROVIDER_URL    HTTPS endpoint that accepts POST {to, from, body} as JSON → SMS
 *   SMS_PROVIDER_TOKEN  bearer token sent to it (optional);  SMS_FROM sender id (optional)
 *   FCM_SERVICE_ACCOUNT path to (or the JSON of) a Firebase service account → push (FCM HTTP v1)
 *   APP_URL             public origin of the PWA, to make links in e-mails and pushes absolute
 *   NOTIFICATION_DISPATCH_INTERVAL_MS  how often queued messages are picked up (default 2000; 0 = off)
 * A transport that is not configured records the message as 'recorded' and logs it: never dropped.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const serviceAccount = z.object({
  project_id: z.string().min(1),
  client_email: z.string().min(1),
  private_key: z.string().min(1),
});
export type ServiceAccount = z.infer<typeof serviceAccount>;

const envSchema = z.object({
  SMTP_URL: z
    .string()
    .url()
    .refine((value) => /^smtps?:\/\//.test(value), 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  SMTP_FROM: z.string().default('PartsTrack <no-reply@parts.example>'),
  SMS_PROVIDER_URL: z.string().url().optional(),
  SMS_PROVIDER_TOKEN: z.string().optional(),
  SMS_FROM: z.string().default('PartsTrack'),
  FCM_SERVICE_ACCOUNT: z.string().optional(),
  APP_URL: z.string().url().optional(),
  NOTIFICATION_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(0).default(2000),
});

export interface NotificationConfig {
  smtp: { url: string; from: string } | null;
  sms: { url: string; token: string | undefined; from: string } | null;
  fcm: ServiceAccount | null;
  appUrl: string | null;
  dispatchIntervalMs: number;
}

export function loadNotificationConfig(env: Record<string, string | undefined> = process.env): NotificationConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid notification environment:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  let fcm: ServiceAccount | null = null;
  if (e.FCM_SERVICE_ACCOUNT) {
    const raw = e.FCM_SERVICE_ACCOUNT.trim().startsWith('{') ? e.FCM_SERVICE_ACCOUNT : readFileSync(e.FCM_SERVICE_ACCOUNT, 'utf8');
    const account = serviceAccount.safeParse(JSON.parse(raw));
    if (!account.success) throw new Error('FCM_SERVICE_ACCOUNT must be a Firebase service account (project_id, client_email, private_key)');
    fcm = account.data;
  }
  return {
    smtp: e.SMTP_URL ? { url: e.SMTP_URL, from: e.SMTP_FROM } : null,
    sms: e.SMS_PROVIDER_URL ? { url: e.SMS_PROVIDER_URL, token: e.SMS_PROVIDER_TOKEN, from: e.SMS_FROM } : null,
    fcm,
    appUrl: e.APP_URL?.replace(/\/+$/, '') ?? null,
    dispatchIntervalMs: e.NOTIFICATION_DISPATCH_INTERVAL_MS,
  };
}
