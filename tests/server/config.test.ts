import { describe, expect, it } from 'vitest';
import { loadConfig, signInWarning } from '../../server/config';
import { contentSecurityPolicy } from '../../server/app';

describe('server configuration', () => {
  it('runs the local demo sign-in by default, and not once a real identity provider is configured unless asked for', () => {
    expect(loadConfig({}).localAuth).toBe(true);
    // A deployment that forgot NODE_ENV=production must not let anyone sign in as anyone.
    expect(loadConfig({ MS_TENANT_ID: 'tenant', MS_CLIENT_ID: 'client' }).localAuth).toBe(false);
    expect(loadConfig({ FIREBASE_PROJECT_ID: 'p' }).localAuth).toBe(false);
    expect(loadConfig({ FIREBASE_PROJECT_ID: 'p', AUTH_LOCAL_ENABLED: 'true' }).localAuth).toBe(true);
  });

  it('runs the demo sign-in on PostgreSQL only when asked for (AUTH_LOCAL_ENABLED=true), whatever NODE_ENV says', () => {
    const postgres = { DATABASE_URL: 'postgres://partstrack@db.example.com:5432/partstrack' };
    expect(loadConfig(postgres).localAuth).toBe(false);
    expect(loadConfig({ ...postgres, NODE_ENV: 'development' }).localAuth).toBe(false);
    expect(loadConfig({ ...postgres, AUTH_LOCAL_ENABLED: 'true' }).localAuth).toBe(true);
    expect(loadConfig({ ...postgres, AUTH_LOCAL_ENABLED: 'false' }).localAuth).toBe(false);
    // The embedded default (no DATABASE_URL, an empty one included, no provider) keeps it.
    expect(loadConfig({ DATABASE_URL: '' }).localAuth).toBe(true);
    // The production guard still applies to the demo sign-in asked for on PostgreSQL.
    expect(() => loadConfig({ ...postgres, NODE_ENV: 'production', AUTH_LOCAL_ENABLED: 'true' })).toThrow(/local demo sign-in is on while NODE_ENV=production/);
    expect(loadConfig({ ...postgres, NODE_ENV: 'production' }).localAuth).toBe(false);
  });

  it('warns at start when nobody can sign in, naming what to set, and only then', () => {
    const postgres = { DATABASE_URL: 'postgres://partstrack@db.example.com:5432/partstrack' };
    expect(signInWarning(loadConfig(postgres))).toMatch(
      /^Nobody can sign in: .*\(off by default with DATABASE_URL\).*MS_TENANT_ID and MS_CLIENT_ID.*FIREBASE_PROJECT_ID.*AUTH_LOCAL_ENABLED=true/,
    );
    expect(signInWarning(loadConfig({ AUTH_LOCAL_ENABLED: 'false' }))).toMatch(/^Nobody can sign in: /);
    expect(signInWarning(loadConfig({ ...postgres, AUTH_LOCAL_ENABLED: 'true' }))).toBeNull();
    expect(signInWarning(loadConfig({ ...postgres, FIREBASE_PROJECT_ID: 'p' }))).toBeNull();
    expect(signInWarning(loadConfig({ ...postgres, MS_TENANT_ID: 'tenant', MS_CLIENT_ID: 'client' }))).toBeNull();
    expect(signInWarning(loadConfig({}))).toBeNull();
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

  it('lets the pages show the company logo from its origin (§6), and a path needs nothing more', () => {
    const images = (env: Record<string, string>) => contentSecurityPolicy(loadConfig(env)).directives.imgSrc;
    expect(images({ VITE_COMPANY_LOGO_URL: 'https://cdn.example.com/brand/logo.svg' })).toContain('https://cdn.example.com');
    expect(images({ VITE_COMPANY_LOGO_URL: '/company-logo.svg' })).toEqual(images({}));
    expect(() => loadConfig({ VITE_COMPANY_LOGO_URL: 'logo.svg' })).toThrow(/VITE_COMPANY_LOGO_URL must be a URL or a path/);
  });

  it('trusts no proxy unless TRUST_PROXY names their addresses, and refuses "true" and hop counts (#20)', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(() => loadConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY=2: a hop count cannot tell a proxy from a caller/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8,fd00::/8, loopback' }).trustProxy).toEqual(['10.0.0.1', '10.0.0.0/8', 'fd00::/8', 'loopback']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true would let any caller choose its address/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33, proxy.local' })).toThrow(/TRUST_PROXY: 10\.0\.0\.0\/33, proxy\.local is not an address or CIDR range; give the addresses/);
  });

  it('serves /docs unless NODE_ENV=production, where DOCS_ENABLED=true brings it back (#20)', () => {
    expect(loadConfig({}).docsEnabled).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).docsEnabled).toBe(true);
    const production = { NODE_ENV: 'production', ALLOW_LOCAL_AUTH_IN_PRODUCTION: 'true' };
    expect(loadConfig(production).docsEnabled).toBe(false);
    expect(loadConfig({ ...production, DOCS_ENABLED: 'true' }).docsEnabled).toBe(true);
    expect(loadConfig({ DOCS_ENABLED: 'false' }).docsEnabled).toBe(false);
    expect(() => loadConfig({ DOCS_ENABLED: 'maybe' })).toThrow(/DOCS_ENABLED must be true or false/);
  });
});
