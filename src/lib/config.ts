/**
 * Build-time configuration of the PWA (Vite env, see README and .env.example).
 * Service hosts default to the origin that served the app, i.e. our reference back end;
 * set them to point the same PWA at existing company services.
 */
// Outside Vite (the offline benchmarks run the offline core under plain Node) there is no env.
const env: Partial<ImportMetaEnv> = import.meta.env ?? {};

function host(value: string | undefined): string {
  const trimmed = (value ?? '').trim().replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed;
}

export const appConfig = {
  hosts: {
    user: host(env.VITE_USER_API_HOST),
    parts: host(env.VITE_PARTS_API_HOST),
    stock: host(env.VITE_STOCK_API_HOST),
  },
  microsoft:
    env.VITE_MSAL_CLIENT_ID && env.VITE_MSAL_TENANT_ID
      ? { clientId: env.VITE_MSAL_CLIENT_ID as string, tenantId: env.VITE_MSAL_TENANT_ID as string }
      : null,
  firebase:
    env.VITE_FIREBASE_API_KEY && env.VITE_FIREBASE_PROJECT_ID
      ? {
          apiKey: env.VITE_FIREBASE_API_KEY as string,
          authDomain: (env.VITE_FIREBASE_AUTH_DOMAIN as string | undefined) ?? `${env.VITE_FIREBASE_PROJECT_ID}.firebaseapp.com`,
          projectId: env.VITE_FIREBASE_PROJECT_ID as string,
          appId: (env.VITE_FIREBASE_APP_ID as string | undefined) ?? '',
          messagingSenderId: (env.VITE_FIREBASE_MESSAGING_SENDER_ID as string | undefined) ?? '',
        }
      : null,
  /**
   * An external feedback form (the spec's embedded form) shown in a frame instead of the app's six
   * forms; the server must allow its origin in frame-src (FRAME_ORIGINS).
   */
  feedbackFormUrl: host(env.VITE_FEEDBACK_FORM_URL) || null,
  /** The user instructions link of /info, shown only to the organisation named (all, when unset). */
  instructionsUrl: host(env.VITE_INSTRUCTIONS_URL) || null,
  /** The company material link and logo of /info (§6), for the same organisation as the instructions. */
  materialUrl: host(env.VITE_COMPANY_MATERIAL_URL) || null,
  logoUrl: host(env.VITE_COMPANY_LOGO_URL) || null,
  companyOrganisation: (env.VITE_COMPANY_ORGANISATION as string | undefined)?.trim() || null,
} as const;

/** The three services' URL prefixes (§7); a host of '' is the origin that served the app. */
const SERVICE_PATHS = { user: '/user_api/v1', parts: '/parts/v1', stock: '/api/v2' } as const;
export type Service = keyof typeof SERVICE_PATHS;

export function serviceUrl(service: Service): string {
  return `${appConfig.hosts[service] || globalThis.location?.origin || ''}${SERVICE_PATHS[service]}`;
}
