/**
 * Builds the Fastify app. Plugins load in a fixed order: external (security headers, CORS,
 * rate limit, compression, OpenAPI), then app (errors, auth), then the routes per service,
 * then the static PWA with its navigation fallback.
 */
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db/client';
import type { LocalIssuer } from './auth/local-issuer';
import { buildTrustedIssuers, createTokenVerifier } from './auth/verify-token';
import { Caches } from './cache';
import { HttpError, registerErrorHandler } from './plugins/errors';
import { refuseLoneSurrogates } from './plugins/well-formed-text';
import { authenticateAll, type AuthOptions } from './plugins/auth';
import { isApiCall, registerStatic } from './plugins/static';
import { authRoutes } from './routes/auth';
import { profileRoutes } from './routes/user-api/profile';
import { constantsRoutes } from './routes/user-api/constants';
import { priorityRoutes } from './routes/user-api/priority';
import { priorityEditRoutes } from './routes/user-api/priority-edit';
import { dashboardRoutes } from './routes/user-api/dashboard';
import { fileUploadRoutes } from './routes/user-api/file-upload';
import { feedbackRoutes } from './routes/user-api/feedback';
import { usersRoutes } from './routes/user-api/users';
import { approvalRequestRoutes } from './routes/user-api/approval-requests';
import { auditLogRoutes } from './routes/user-api/audit-log';
import { notificationRoutes } from './routes/user-api/notifications';
import { notificationSettingsRoutes } from './routes/user-api/notifications-settings';
import { materialCountRoutes } from './routes/stock/material-count';
import { stockCountRoutes } from './routes/stock/stock-count';
import { trackingStatusRoutes } from './routes/parts/tracking-status';
import { importantMessageRoutes } from './routes/parts/important-message';
import { stockRoutes } from './routes/stock/stock';
import { stockCountManagementRoutes } from './routes/stock/stock-count-management';
import { stockCountPartRoutes } from './routes/stock/stock-count-parts';
import { relationshipRoutes } from './routes/stock/relationship';
import { transferRoutes } from './routes/stock/transfer';
import type { ErpAdapter } from './erp/adapter';

export interface AppDeps {
  config: Config;
  db: Db;
  localIssuer: LocalIssuer | null;
  erp: ErpAdapter;
  logger?: boolean | object;
  /** The ERP file worker of this process (#9); an upload wakes it. Absent in tests: they drive it. */
  ingestion?: { wake(): void };
  /** The verified-token cache (server/start.ts). Absent: one of its own. */
  caches?: Caches;
}

/** Content security policy: our origin plus the identity and messaging services the PWA talks to. */
export function contentSecurityPolicy(config: Config) {
  const identity = [
    'https://login.microsoftonline.com',
    'https://*.googleapis.com',
    'https://*.firebaseapp.com',
    'https://apis.google.com',
  ];
  return {
    useDefaults: true,
    directives: {
      defaultSrc: ["'self'"],
      // 'wasm-unsafe-eval' lets the barcode reader compile its WebAssembly (#17); it allows no JavaScript eval.
      scriptSrc: ["'self'", "'wasm-unsafe-eval'", 'https://apis.google.com'],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', ...config.imageOrigins],
      connectSrc: ["'self'", ...identity, ...config.corsOrigins],
      frameSrc: ["'self'", ...identity, ...config.frameOrigins],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      upgradeInsecureRequests: null,
    },
  };
}

/** The OpenAPI document of every route (/docs/json) and its viewer (/docs). */
async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'PartsTrack services',
        version: '1',
        description: 'User (/user_api/v1), parts (/parts/v1) and stock (/api/v2) services of the spec (§7).',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}


export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db, localIssuer, erp } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    bodyLimit: 2 * 1024 * 1024,
    // X-Forwarded-For counts only from the proxies the configuration names (#20): by default none.
    trustProxy: config.trustProxy,
    ajv: { customOptions: { coerceTypes: 'array' } },
    // An address Fastify cannot read (a bad percent-encoding such as /%ff) is a 400 in the
    // product's one error shape ({ message }), not Fastify's own.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send({ message: `The address cannot be read: ${error.message}` });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Before every route's validation: a lone UTF-16 surrogate is a 400 naming the field (#20).
  refuseLoneSurrogates(app);
  app.decorateRequest('currentUser', null);
  app.decorateRequest('signedInAt', null);
  // Verified tokens only (docs/decisions/0021): nothing a replica keeps depends on the data.
  const caches = deps.caches ?? new Caches({ enabled: config.responseCache });

  // External
  // Security headers (helmet). Built once here: the Fastify wrapper builds them again on every request.
  // Sign-in pop-ups (Microsoft, Google) report back to the page that opened them: the opener keeps
  // its pop-ups ('same-origin-allow-popups'); helmet's 'same-origin' cut that link.
  const securityHeaders = helmet({
    contentSecurityPolicy: contentSecurityPolicy(config),
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined)));
  if (config.corsOrigins.length > 0) {
    app.addHook('onRequest', async (request, reply) => {
      const origin = request.headers.origin;
      if (origin && config.corsOrigins.includes(origin.toLowerCase())) {
        reply.header('Access-Control-Allow-Origin', origin).header('Vary', 'Origin');
        reply.header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, If-Match, X-Device-Id');
        reply.header('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE');
        // A phone served from another origin reads how long the server asks it to wait (429, 503),
        // and the version of what it reads to change (ETag, sent back as If-Match).
        reply.header('Access-Control-Expose-Headers', 'Retry-After, ETag, X-Has-More');
        if (request.method === 'OPTIONS') return reply.status(204).send();
      }
    });
  }
  // The limit guards the services; the app's own files (shell, screens, icons) are not counted.
  // One hook on the root, not one per route: a route's hooks run after the service's own, so a
  // per-route limit would come after authentication and never count calls refused with a 401.
  // With REDIS_URL the counters live in Redis, so N replicas enforce one limit per client together
  // (ARCHITECTURE §4); without it, in this process. Should Redis stop answering, calls go through
  // uncounted (and it is logged) rather than failing: the limit protects the service, not the reverse.
  const redis = config.redisUrl ? new Redis(config.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 }) : null;
  if (redis) {
    let unavailable = false;
    redis.on('error', (error: Error) => {
      if (!unavailable) app.log.warn({ err: error }, 'rate-limit store (Redis) unavailable: calls are not counted until it answers');
      unavailable = true;
    });
    redis.on('ready', () => {
      if (unavailable) app.log.info('rate-limit store (Redis) answers again');
      unavailable = false;
    });
    app.addHook('onClose', async () => {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    max: config.rateLimitPerMinute,
    timeWindow: '1 minute',
    // Judged on the matched route, not the raw URL: `/%75ser_api/…` reaches /user_api/… too.
    allowList: (request) => !isApiCall(request),
    ...(redis ? { redis, nameSpace: 'partstrack-rate-limit:', skipOnError: true } : {}),
    // The plugin's English "Rate limit exceeded, retry in 1 minute" stays the message; the code and
    // the seconds to wait (as Retry-After) let the app say it in the user's language (decision 0055).
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new HttpError(context.statusCode, `Rate limit exceeded, retry in ${context.after}`, context.statusCode === 429 ? { code: 'tooManyRequests', params: { count: seconds } } : {});
    },
  });
  // A route with a limit of its own (config.rateLimit: the demo sign-in's 120 a minute; false: none)
  // is counted by that limit alone. The plugin applies one limit per request, the first hook's: this
  // root hook ran first and counted it under the general limit, so its own limit never applied.
  const generalLimit = app.rateLimit();
  app.addHook('onRequest', async function (request, reply) {
    if (request.routeOptions.config?.rateLimit !== undefined) return;
    await generalLimit.call(this, request, reply);
  });
  await app.register(compress, { threshold: 1024 });
  // The OpenAPI document and its viewer; off in production unless DOCS_ENABLED says otherwise.
  if (config.docsEnabled) await registerDocs(app);

  // App
  const verifyIdToken = createTokenVerifier(buildTrustedIssuers(config, localIssuer?.publicKey ?? null));
  const authOptions: AuthOptions = {
    db,
    verifyIdToken,
    allowedDomains: config.allowedDomains,
    supportEmail: config.supportEmail,
    caches,
  };

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  await app.register(authRoutes, { db, localIssuer, allowedDomains: config.allowedDomains });

  // Routes per service, each behind authentication
  await app.register(
    async (userApi) => {
      authenticateAll(userApi, authOptions);
      await userApi.register(profileRoutes, { db });
      await userApi.register(constantsRoutes, { db });
      await userApi.register(priorityRoutes, { db });
      await userApi.register(priorityEditRoutes, { db });
      await userApi.register(dashboardRoutes, { db, schedule: config.ingestion.schedule });
      await userApi.register(fileUploadRoutes, { db, onFileQueued: () => deps.ingestion?.wake() });
      await userApi.register(feedbackRoutes, { db });
      await userApi.register(usersRoutes, { db });
      await userApi.register(approvalRequestRoutes, { db });
      await userApi.register(auditLogRoutes, { db });
      await userApi.register(notificationRoutes, { db });
      await userApi.register(notificationSettingsRoutes, { db, allowedDomains: config.allowedDomains });
    },
    { prefix: '/user_api/v1' },
  );
  await app.register(
    async (parts) => {
      authenticateAll(parts, authOptions);
      await parts.register(trackingStatusRoutes, { db });
      await parts.register(importantMessageRoutes, { db });
    },
    { prefix: '/parts/v1' },
  );
  await app.register(
    async (stock) => {
      authenticateAll(stock, authOptions);
      await stock.register(stockCountRoutes, { db, erp });
      await stock.register(materialCountRoutes, { db });
      await stock.register(stockRoutes, { db });
      await stock.register(stockCountManagementRoutes, { db });
      await stock.register(stockCountPartRoutes, { db });
      await stock.register(relationshipRoutes, { db });
      await stock.register(transferRoutes, { db });
    },
    { prefix: '/api/v2' },
  );

  await registerStatic(app, config.publicDir);
  return app;
}
