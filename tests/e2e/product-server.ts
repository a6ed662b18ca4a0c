/**
 * A server of our own for tests that must cut the network: stopping it makes every request
 * fail at the connection, from the page and from the service worker alike, like a basement.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';

export interface ProductServer {
  origin: string;
  dataDir: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** `env`: settings of this server beside the tests' own (e.g. PUBLIC_DIR, a copy of the build a test changes). */
export async function productServer(port: number, env: Record<string, string> = {}): Promise<ProductServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'partstrack-offline-'));
  const origin = `http://localhost:${port}`;
  let child: ChildProcess | null = null;
  const server: ProductServer = {
    origin,
    dataDir,
    async start() {
      child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: { ...process.env, PORT: String(port), HOST: 'localhost', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'test', DATABASE_URL: '', ...env },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      // Up to 5 minutes: a fresh database is migrated and seeded first, slow on a loaded machine.
      for (let i = 0; i < 3000; i += 1) {
        try {
          if ((await fetch(`${origin}/healthz`)).ok) return;
        } catch {
          // not yet
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('server did not start');
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      await new Promise((resolve) => {
        running.once('exit', resolve);
        running.kill('SIGTERM');
      });
    },
  };
  await server.start();
  return server;
}

/** An id token of the server's local demo issuer for `email`. */
export async function localToken(request: APIRequestContext, origin: string, email: string): Promise<string> {
  const res = await request.post(`${origin}/auth/local/token`, { data: { email } });
  return ((await res.json()) as { idToken: string }).idToken;
}

export interface ServerCountLine {
  id: number;
  material_code: string;
  quantity: number | null;
  version: number;
  unit: string;
}

/** A count's lines as the server holds them (what reached it, and once). */
export async function serverCountLines(request: APIRequestContext, origin: string, token: string, countId: number): Promise<ServerCountLine[]> {
  const res = await request.get(`${origin}/api/v2/my_material_count?stockCountId=${countId}&maxResults=500&page=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).material_counts as ServerCountLine[];
}

