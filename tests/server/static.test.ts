/** The built app is served to every request that accepts HTML, curl's `*` + `/*` included (#19 item 27). */
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerStatic, servesPage } from '../../server/plugins/static';

let app: FastifyInstance;
let dir: string;
const APP_PAGE = '<!doctype html><title>PartsTrack</title><link rel="modulepreload" crossorigin href="/assets/app-1a2b.js">';
const COUNT_PAGE = `${APP_PAGE}<link rel="modulepreload" crossorigin href="/assets/mechanic-view-page-5e6f.js">`;
const LONG = Array.from({ length: 400 }, (_, i) => `console.log('line ${i}');`).join('\n');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'static-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>PartsTrack</title>');
  // As the build writes them (vite.config.ts firstWavePages): index.html naming a start's first wave.
  writeFileSync(join(dir, 'app.html'), APP_PAGE);
  writeFileSync(join(dir, 'count.html'), COUNT_PAGE);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log(1)');
  // As the build writes them (vite.config.ts): a long script with its .br and .gz beside it.
  writeFileSync(join(dir, 'assets', 'long-3c4d.js'), LONG);
  writeFileSync(join(dir, 'assets', 'long-3c4d.js.br'), brotliCompressSync(LONG));
  writeFileSync(join(dir, 'assets', 'long-3c4d.js.gz'), gzipSync(LONG, { level: 1 }));
  app = Fastify();
  // As in server/app.ts: compression for everything, registered before the files.
  await app.register(compress, { threshold: 1024 });
  await registerStatic(app, dir);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, accept?: string) => app.inject({ method: 'GET', url, headers: accept === undefined ? {} : { accept } });

describe('static app', () => {
  it.each([
    ['curl', '*/*'],
    ['a browser navigation', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
    ['no Accept header', undefined],
    ['text/*', 'text/*'],
  ])('serves index.html at / and at app routes to %s', async (_who, accept) => {
    for (const url of ['/', '/stock-count', '/order-details/4500111273?tab=items']) {
      const res = await get(url, accept);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<title>PartsTrack</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers / with index.html and every other navigation with the page naming its first wave (#22)', async () => {
    const landing = await get('/', 'text/html');
    expect(landing.body).toBe('<!doctype html><title>PartsTrack</title>');
    expect((await get('/?lang=de', 'text/html')).body).not.toContain('modulepreload');
    for (const [url, body] of [
      ['/status-monitor', APP_PAGE],
      ['/user-expired', APP_PAGE],
      ['/mechanic-view/42?tab=lines', COUNT_PAGE],
      ['/mechanic-view/42/', COUNT_PAGE],
      ['/mechanic-view', APP_PAGE],
    ]) {
      const page = await get(url!, 'text/html');
      expect(page.body, url).toBe(body);
      expect(page.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers every navigation with index.html where the build has no other page (a PWA built before them)', async () => {
    const old = mkdtempSync(join(tmpdir(), 'static-old-'));
    writeFileSync(join(old, 'index.html'), '<!doctype html><title>Old</title>');
    const server = Fastify();
    try {
      await registerStatic(server, old);
      for (const url of ['/', '/status-monitor']) expect((await server.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body).toContain('<title>Old</title>');
    } finally {
      await server.close();
      rmSync(old, { recursive: true, force: true });
    }
  });

  it('serves files as themselves, and a missing file as 404 unless HTML is asked for by name', async () => {
    const asset = await get('/assets/app-1a2b.js', '*/*');
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/assets/missing-9z9z.js', '*/*')).statusCode).toBe(404);
    expect((await get('/assets/missing-9z9z.js', 'text/html')).statusCode).toBe(200);
  });

  it('sends the build\'s .br or .gz for the encoding asked for, as it is, and says it varies', async () => {
    const send = (encoding?: string) =>
      app.inject({ method: 'GET', url: '/assets/long-3c4d.js', headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });
    const br = await send('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(LONG);
    // The build's bytes, not a compression made for this request (quality 11 here, 4 on the fly).
    expect(br.rawPayload.equals(readFileSync(join(dir, 'assets', 'long-3c4d.js.br')))).toBe(true);
    const gz = await send('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(LONG);
    expect(gz.rawPayload.equals(readFileSync(join(dir, 'assets', 'long-3c4d.js.gz')))).toBe(true);
    const plain = await send('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(LONG);
    for (const answer of [br, gz, plain]) {
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.headers['content-type']).toMatch(/javascript/);
    }
  });

  it('never answers API paths or non-HTML requests with the app', async () => {
    const api = await get('/api/v2/nope', '*/*');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'No route for GET /api/v2/nope' });
    expect((await get('/stock-count', 'application/json')).statusCode).toBe(404);
    expect((await get('/stock-count', 'text/html;q=0, application/json')).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/stock-count', headers: { accept: '*/*' } })).statusCode).toBe(404);
  });

  it('reads q=0 as a refusal', () => {
    expect(servesPage('/', '*/*;q=0')).toBe(false);
    expect(servesPage('/', 'application/json, */*;q=0.1')).toBe(true);
  });
});
