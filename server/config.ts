/**
 * Environment, parsed once at start with zod; a bad value stops the server with a clear message.
 * Every variable is documented in README.md and .env.example.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_ALLOWED_DOMAINS, emailDomain } from '../src/domain/email';
import { parseSchedule, type IngestionSchedule } from './ingestion/schedule';

const list = (fallback: string[]) =>
  z
    .string()
    .optional()
    .transform((value) =>
      value === undefined || value.trim() === ''
        ? fallback
        : value
            .split(',')
            .map((item) => item.trim().toLowerCase())
            .filter(Boolean),
    );

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('localhost'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  PUBLIC_DIR: z.string().default('./dist'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ALLOWED_EMAIL_DOMAINS: list(DEFAULT_ALLOWED_DOMAINS),
  SUPPORT_EMAIL: z.string().email().default('support@example.com'),
  SEED_ON_START: flag(true),
  SEED_SCALE: z.coerce.number().int().min(1).max(500).default(1),
  BOOTSTRAP_SUPER_MANAGERS: list([]).pipe(z.array(z.string().email('BOOTSTRAP_SUPER_MANAGERS must list e-mail addresses, separated by commas'))),
  BOOTSTRAP_DIR: z.string().optional(),
  AUTH_LOCAL_ENABLED: z.enum(['true', 'false']).optional(),
  ALLOW_LOCAL_AUTH_IN_PRODUCTION: flag(false),
  LOCAL_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  MS_TENANT_ID: z.string().optional(),
  MS_CLIENT_ID: z.string().optional(),
  MS_JWKS_URL: z.string().url().optional(),
  FIREBASE_PROJECT_ID: z.string().optional(),
  FIREBASE_JWKS_URL: z.string().url().optional(),
  CORS_ORIGINS: list([]),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  REDIS_URL: z
    .string()
    .refine((value) => /^rediss?:\/\/[^/]/.test(value) && URL.canParse(value), { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
    .optional(),
  TRUST_PROXY: z.string().optional(),
  DOCS_ENABLED: z.enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'DOCS_ENABLED must be true or false' }).optional(),
  RESPONSE_CACHE: z.enum(['on', 'off'], { message: 'RESPONSE_CACHE must be on or off' }).default('on'),
  ERP_FAILURE: z.enum(['none', 'always']).default('none'),
  INBOX_DIR: z.string().optional(),
  INGESTION_SCHEDULE: z.string().optional(),
  INGESTION_WORKER: flag(true),
  INGESTION_LEASE_SECONDS: z.coerce.number().int().min(5).max(86_400).default(120),
  INGESTION_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** The external feedback form the PWA is built with (#8): the server lets the page frame its origin. */
  VITE_FEEDBACK_FORM_URL: z.string().url('VITE_FEEDBACK_FORM_URL must be a URL').optional(),
  /** The company logo of /info (§6): an address of this server (/…) or a URL whose origin may serve images. */
  VITE_COMPANY_LOGO_URL: z
    .string()
    .refine((value) => value.startsWith('/') || URL.canParse(value), 'VITE_COMPANY_LOGO_URL must be a URL or a path starting with /')
    .optional(),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicDir: string;
  logLevel: string;
  allowedDomains: string[];
  supportEmail: string;
  seedOnStart: boolean;
  seedScale: number;
  /** What a company database gets at every start (server/db/bootstrap.ts): its first super managers, and its organisation from CSV files. */
  bootstrap: { superManagers: string[]; dir: string | undefined };
  localAuth: boolean;
  localTokenTtlSeconds: number;
  microsoft: { tenantId: string; clientId: string; jwksUrl: string | undefined } | null;
  firebase: { projectId: string; jwksUrl: string | undefined } | null;
  corsOrigins: string[];
  /** Origins the app's pages may show in a frame (CSP frame-src), besides sign-in. */
  frameOrigins: string[];
  /** Origins the page may load images from besides its own (the company logo). */
  imageOrigins: string[];
  rateLimitPerMinute: number;
  /** Where replicas keep their rate-limit counters together (REDIS_URL); unset: each process counts alone. */
  redisUrl: string | undefined;
  /**
   * Which proxies' X-Forwarded-For names the client (rate limit, logs): false (the default, the
   * socket's address is the client), or the proxies' addresses / CIDR ranges.
   */
  trustProxy: false | string[];
  /** The OpenAPI document and its viewer at /docs (on unless NODE_ENV=production). */
  docsEnabled: boolean;
  /** Verified id tokens kept in memory until they expire, at most 5 minutes (docs/decisions/0021). */
  responseCache: boolean;
  erpFailure: 'none' | 'always';
  /** ERP file ingestion (#9): inbox folder, expected schedule, claim lease, poll interval. */
  ingestion: { workerEnabled: boolean; inboxDir: string | undefined; schedule: IngestionSchedule; leaseSeconds: number; pollSeconds: number };
}

export class ConfigError extends Error {}

function ingestionSchedule(value: string | undefined): IngestionSchedule {
  try {
    return parseSchedule(value);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY (#20): unset, "false" or "0" trusts no proxy, so X-Forwarded-For is ignored and
 * nobody picks their own rate-limit bucket; otherwise a comma-separated list of the proxies'
 * addresses or CIDR ranges, whose X-Forwarded-For then names the client. "true" (believe whatever
 * a caller sends) is refused: it is the hole this setting closes. So is a hop count: it cannot
 * tell the proxy from a caller that connects directly (Fastify 5 ignores X-Forwarded-For then).
 */
function trustProxy(value: string | undefined): false | string[] {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '' || text === 'false' || text === 'off' || text === '0') return false;
  const advice = "give the addresses or CIDR ranges of the proxies in front of the server (e.g. 10.0.0.0/8), or leave it unset";
  if (text === 'true') throw new ConfigError(`TRUST_PROXY=true would let any caller choose its address with X-Forwarded-For: ${advice}`);
  if (/^\d+$/.test(text)) throw new ConfigError(`TRUST_PROXY=${text}: a hop count cannot tell a proxy from a caller; ${advice}`);
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0) throw new ConfigError(`TRUST_PROXY: ${bad.join(', ')} is not an address or CIDR range; ${advice}`);
  return entries;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set" (e.g. DATABASE_URL= in a .env file).
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  // A first super manager outside the company's domains could never call anything (403 at every call).
  const outside = e.BOOTSTRAP_SUPER_MANAGERS.filter((email) => !e.ALLOWED_EMAIL_DOMAINS.includes(emailDomain(email)));
  if (outside.length > 0) {
    throw new ConfigError(`BOOTSTRAP_SUPER_MANAGERS: ${outside.join(', ')} is not of ALLOWED_EMAIL_DOMAINS (${e.ALLOWED_EMAIL_DOMAINS.join(', ')}): such a user is refused at every call`);
  }
  // The demo sign-in lets anyone sign in as any address: on by default only for the embedded demo,
  // with no real identity provider and no DATABASE_URL. A deployment that names Microsoft or Google,
  // or its own PostgreSQL, gets it only by asking for it (AUTH_LOCAL_ENABLED=true), whatever its
  // NODE_ENV says: a PostgreSQL server that forgot NODE_ENV=production handed anyone a token for
  // any account. Without either, such a server starts with nobody able to sign in and says so
  // (signInWarning, logged at start).
  const realProvider = e.MS_TENANT_ID !== undefined || e.FIREBASE_PROJECT_ID !== undefined;
  const embeddedDemo = !realProvider && e.DATABASE_URL === undefined;
  const localAuth = e.AUTH_LOCAL_ENABLED === undefined ? embeddedDemo : e.AUTH_LOCAL_ENABLED === 'true';
  if (localAuth && e.NODE_ENV === 'production' && !e.ALLOW_LOCAL_AUTH_IN_PRODUCTION) {
    throw new ConfigError(
      'The local demo sign-in is on while NODE_ENV=production. Set AUTH_LOCAL_ENABLED=false and configure ' +
        'MS_TENANT_ID/MS_CLIENT_ID or FIREBASE_PROJECT_ID, or set ALLOW_LOCAL_AUTH_IN_PRODUCTION=true deliberately.',
    );
  }
  if ((e.MS_TENANT_ID === undefined) !== (e.MS_CLIENT_ID === undefined)) {
    throw new ConfigError('Set both MS_TENANT_ID and MS_CLIENT_ID to accept Microsoft sign-in, or neither.');
  }
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    publicDir: e.PUBLIC_DIR,
    logLevel: e.LOG_LEVEL,
    allowedDomains: e.ALLOWED_EMAIL_DOMAINS,
    supportEmail: e.SUPPORT_EMAIL,
    seedOnStart: e.SEED_ON_START,
    seedScale: e.SEED_SCALE,
    bootstrap: { superManagers: e.BOOTSTRAP_SUPER_MANAGERS, dir: e.BOOTSTRAP_DIR || undefined },
    localAuth,
    localTokenTtlSeconds: e.LOCAL_TOKEN_TTL_SECONDS,
    microsoft:
      e.MS_TENANT_ID && e.MS_CLIENT_ID
        ? { tenantId: e.MS_TENANT_ID, clientId: e.MS_CLIENT_ID, jwksUrl: e.MS_JWKS_URL }
        : null,
    firebase: e.FIREBASE_PROJECT_ID ? { projectId: e.FIREBASE_PROJECT_ID, jwksUrl: e.FIREBASE_JWKS_URL } : null,
    corsOrigins: e.CORS_ORIGINS,
    frameOrigins: e.VITE_FEEDBACK_FORM_URL ? [new URL(e.VITE_FEEDBACK_FORM_URL).origin] : [],
    imageOrigins: e.VITE_COMPANY_LOGO_URL && !e.VITE_COMPANY_LOGO_URL.startsWith('/') ? [new URL(e.VITE_COMPANY_LOGO_URL).origin] : [],
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    redisUrl: e.REDIS_URL,
    trustProxy: trustProxy(e.TRUST_PROXY),
    docsEnabled: e.DOCS_ENABLED === undefined ? e.NODE_ENV !== 'production' : ['true', '1', 'yes'].includes(e.DOCS_ENABLED),
    responseCache: e.RESPONSE_CACHE === 'on',
    erpFailure: e.ERP_FAILURE,
    ingestion: {
      workerEnabled: e.INGESTION_WORKER,
      inboxDir: e.INBOX_DIR,
      schedule: ingestionSchedule(e.INGESTION_SCHEDULE),
      leaseSeconds: e.INGESTION_LEASE_SECONDS,
      pollSeconds: e.INGESTION_POLL_SECONDS,
    },
  };
}

/**
 * What the operator reads at start when nobody can sign in: no identity provider and the demo
 * sign-in off (the default with DATABASE_URL). The server still starts rather than refusing: its
 * database, ERP ingestion and /healthz work, a deployment may be brought up before its provider is
 * registered, and a PostgreSQL server that answered nothing after an upgrade would surprise more
 * than one that answers and names the missing setting. Null when some sign-in is possible.
 */
export function signInWarning(config: Pick<Config, 'localAuth' | 'microsoft' | 'firebase' | 'databaseUrl'>): string | null {
  if (config.localAuth || config.microsoft || config.firebase) return null;
  return (
    'Nobody can sign in: no identity provider is configured and the local demo sign-in is off' +
    (config.databaseUrl ? ' (off by default with DATABASE_URL). ' : '. ') +
    'Set MS_TENANT_ID and MS_CLIENT_ID (Microsoft) or FIREBASE_PROJECT_ID (Google) for real sign-in, ' +
    'or AUTH_LOCAL_ENABLED=true for the demo sign-in, which lets anyone sign in as any address of an allowed domain.'
  );
}
