import { z } from './zod';

export const localTokenBody = z
  .object({ email: z.string().check(z.minLength(1, 'Field email is required'), z.maxLength(254)) })
  .register(z.globalRegistry, { id: 'LocalTokenRequest' });

export const localTokenResponse = z
  .object({ idToken: z.string(), expiresIn: z.int().check(z.positive()) })
  .register(z.globalRegistry, { id: 'LocalTokenResponse' });

export const demoAccount = z.object({
  email: z.string(),
  displayName: z.string(),
  grants: z.array(z.string()),
  note: z.string(),
});
export type DemoAccount = z.infer<typeof demoAccount>;

/** What the server tells the landing page about sign-in on this deployment. */
export const authConfigResponse = z
  .object({
    localSignIn: z.boolean(),
    demoAccounts: z.array(demoAccount),
    allowedDomains: z.array(z.string()),
  })
  .register(z.globalRegistry, { id: 'AuthConfig' });
export type AuthConfig = z.infer<typeof authConfigResponse>;
