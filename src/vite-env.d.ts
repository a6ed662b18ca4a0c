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
  readonly VITE_COMPANY_MATERIAL_URL?: string;
  readonly VITE_COMPANY_LOGO_URL?: string;
}

declare module 'virtual:en-us-core' {
  const texts: Record<string, Record<string, unknown>>;
  export default texts;
}

/** The first screen's texts of each locale but en-US (bundled), one small chunk each (#22). */
declare module 'virtual:locale-cores' {
  const cores: Record<string, () => Promise<{ default: Record<string, Record<string, unknown>> }>>;
  export default cores;
}

/** The `chunkLoad` texts of every locale, for the page shown when the app's chunks cannot load. */
declare module 'virtual:chunk-load-texts' {
  const texts: Record<string, { title: string; otherTitle: string; missing: string; timeout: string; reload: string }>;
  export default texts;
}
