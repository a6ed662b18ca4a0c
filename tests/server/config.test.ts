import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { contentSecurityPolicy } from '../../server/app';

describe('server configuration', () => {
  it('runs the local demo sign-in by default', () => {
    expect(loadConfig({}).localAuth).toBe(true);
  });

  it('refuses to start with the local demo sign-in under NODE_ENV=production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/local demo sign-in is on while NODE_ENV=production/);
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_LOCAL_AUTH_IN_PRODUCTION: 'true' }).localAuth).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', AUTH_LOCAL_ENABLED: 'false', FIREBASE_PROJECT_ID: 'p' }).localAuth).toBe(false);
  });

  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url' })).toThrow(/PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/);
    expect(() => loadConfig({ MS_TENANT_ID: 'tenant' })).toThrow(/both MS_TENANT_ID and MS_CLIENT_ID/);
  });

  it('reads the allowed domains as a lower-cased list and treats empty variables as unset', () => {
    const config = loadConfig({ ALLOWED_EMAIL_DOMAINS: 'Lift.Example, parts.example', DATABASE_URL: '' });
    expect(config.allowedDomains).toEqual(['lift.example', 'parts.example']);
    expect(config.databaseUrl).toBeUndefined();
  });

  it('lets the pages frame the external feedback form the app is built with, and nothing else', () => {
    const frames = (env: Record<string, string>) => contentSecurityPolicy(loadConfig(env)).directives.frameSrc;
    expect(frames({ VITE_FEEDBACK_FORM_URL: 'https://forms.example.com/r/abc?x=1' })).toContain('https://forms.example.com');
    expect(frames({}).some((origin) => origin.includes('forms.example.com'))).toBe(false);
    expect(() => loadConfig({ VITE_FEEDBACK_FORM_URL: 'forms' })).toThrow(/VITE_FEEDBACK_FORM_URL must be a URL/);
  });
});
