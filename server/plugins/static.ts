/**
 * The built PWA: hashed assets cached for a year, the service worker and the pages never (so an
 * update is seen at once), and a page for every navigation that is not an API call: index.html at
 * `/` (the landing page of a signed-out start), elsewhere the same page naming the first wave a
 * start there loads (src/contract/pages.ts, #22).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { pageFor } from '../../src/contract/pages';

const API_PREFIXES = ['/user_api/', '/parts/', '/api/', '/auth/', '/docs'];

/**
 * Whether a request calls the services (counted by the rate limit; a 404 in JSON, never the app).
 * Decided on the path the router matched, not on the raw URL: the router decodes %xx first, so
 * `/%75ser_api/v1/user/profile` reaches /user_api/v1/user/profile, and a raw-URL test let it
 * through uncounted. A request no route matched is judged by its decoded path; one that cannot be
 * decoded counts as a call (the safe side for a limit).
 */
export function isApiCall(request: FastifyRequest): boolean {
  const path = request.routeOptions.url ?? decodedPath(request.url);
  return path === null || API_PREFIXES.some((prefix) => path.startsWith(prefix));
}

function decodedPath(url: string): string | null {
  try {
    return decodeURIComponent(url.split(/[?#]/, 1)[0] ?? '/');
  } catch {
    return null;
  }
}

/**
 * Whether a request not answered by a file gets the app (#19 item 27): any request that accepts
 * HTML, the wildcard `*` + `/*` included (curl, scripts, monitors), or with no Accept at all. A path that names a
 * file (`/assets/app-1a2b.js`) gets the app only when HTML is asked for by name: a missing
 * script must be a 404, or the page would run HTML as code instead of reporting the missing chunk.
 */
export function servesPage(path: string, accept: string | undefined): boolean {
  const ranges = (accept ?? '*/*').split(',').flatMap((part) => {
    const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return q && Number(q.slice(2)) === 0 ? [] : [type];
  });
  if (ranges.includes('text/html')) return true;
  const namesFile = /\.[a-z0-9]+$/i.test(path.slice(path.lastIndexOf('/') + 1));
  return !namesFile && (ranges.includes('*/*') || ranges.includes('text/*'));
}

export async function registerStatic(app: FastifyInstance, publicDir: string): Promise<void> {
  const root = resolve(publicDir);
  const hasApp = existsSync(resolve(root, 'index.html'));
  // The pages this build has (one built before them, or elsewhere, has index.html only).
  const pages = new Map<string, boolean>();
  const has = (file: string) => pages.get(file) ?? pages.set(file, existsSync(resolve(root, file))).get(file)!;
  if (hasApp) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build's .br and .gz of each file (vite.config.ts), sent as they are for the encoding
      // asked for; @fastify/compress leaves an answer that already has an encoding alone.
      preCompressed: true,
      // setHeaders decides; send's own default (`public, max-age=0`) would overwrite it.
      cacheControl: false,
      setHeaders(res, path) {
        if (/\/assets\//.test(path)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        else res.setHeader('Cache-Control', 'no-cache');
        // The same URL has a .br, a .gz and a plain body: a shared cache must keep them apart.
        res.setHeader('Vary', 'Accept-Encoding');
        if (path.endsWith('.webmanifest')) res.setHeader('Content-Type', 'application/manifest+json');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = isApiCall(request);
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && servesPage(path, request.headers.accept);
    if (!isApi && wantsPage && hasApp) {
      return reply.header('Cache-Control', 'no-cache').sendFile(pageFor(path, has));
    }
    return reply.status(404).send({ message: `No route for ${request.method} ${path}` });
  });
  if (!hasApp) app.log.warn(`No built app in ${root}: run "npm run build" (npm start does it for you)`);
}
