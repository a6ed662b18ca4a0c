/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_USER_API_HOST?: string;
  readonly VITE_PARTS_API_HOST?: string;
  readonly VITE_STOCK_API_HOST?: string;
  readonly VITE_MSAL_CLIENT_ID?: string;
  readonly VITE_MSAL_TENANT_ID?: string;
  readonly VITE_FIREBASE_API_KEY?: string;
  readonly VITE_FIREBASE_PROJECT_ID?: string;
  readonly VITE_FIREBASE_AUTH_DOMAIN?: string;
  readonly VITE_FIREBASE_APP_ID?: string;
  readonly VITE_FIREBASE_MESSAGING_SENDER_ID?: string;
  /** Web push (VAPID) public key of the Firebase project: push registration (#6). */
  readonly VITE_FIREBASE_VAPID_KEY?: string;
  readonly VITE_FEEDBACK_FORM_URL?: string;
  readonly VITE_INSTRUCTIONS_URL?: string;
  readonly VITE_COMPANY_ORGANISATION?: string;
}

declare module 'virtual:en-us-core' {
  const texts: Record<string, Record<string, unknown>>;
  export default texts;
}
