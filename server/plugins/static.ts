/**
 * The built PWA: hashed assets cached for a year, the service worker and index.html never
 * (so an update is seen at once), and index.html for every navigation that is not an API call.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

export const API_PREFIXES = ['/user_api/', '/parts/', '/api/', '/auth/', '/docs'];

export async function registerStatic(app: FastifyInstance, publicDir: string): Promise<void> {
  const root = resolve(publicDir);
  const hasApp = existsSync(resolve(root, 'index.html'));
  if (hasApp) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        if (/\/assets\//.test(path)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        else res.setHeader('Cache-Control', 'no-cache');
        if (path.endsWith('.webmanifest')) res.setHeader('Content-Type', 'application/manifest+json');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((prefix) => path.startsWith(prefix));
    const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (!isApi && wantsPage && hasApp) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ message: `No route for ${request.method} ${path}` });
  });
  if (!hasApp) app.log.warn(`No built app in ${root}: run "npm run build" (npm start does it for you)`);
}
