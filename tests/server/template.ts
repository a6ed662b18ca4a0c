/**
 * Template databases for the server tests (#16): migrating and seeding took most of every test
 * file's setup (tens of seconds per file and engine under load), so a run does it once per engine,
 * in vitest's globalSetup (tests/server/global-setup.ts), and every file starts from a copy of the
 * result: PGlite from a tarball of the seeded data directory (`loadDataDir`), PostgreSQL by
 * `CREATE DATABASE … TEMPLATE`. Each file still has a database of its own.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Db } from '../../server/db/client';
import { seedDatabase } from '../../server/db/seed';

/** A fixed clock for the seed, so data-dependent assertions never drift. */
export const SEED_NOW = new Date('2026-11-20T09:00:00Z');

/** The data every test database starts with (the template's, or a fresh seed's without one). */
export const seedTestData = (db: Db) => seedDatabase(db, { now: SEED_NOW, supportEmail: 'support@example.com' });

/** What globalSetup built this run: the PGlite tarball's path, the PostgreSQL template's name. */
export interface ServerTemplates {
  pglite: string | null;
  postgres: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverTemplates: ServerTemplates;
  }
}

/** This run's templates, or none outside vitest (the benchmarks) or without the globalSetup. */
export async function providedTemplates(): Promise<ServerTemplates | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject('serverTemplates');
}

const adminClient = async (adminUrl: string) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  return client;
};

const urlOf = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * Creates a database named `<prefix>_<random>` on the PostgreSQL server of `adminUrl`, empty or as
 * a copy of `template`; `drop()` removes it again (forcing out open connections). Used by the tests
 * and the benchmarks.
 */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = await adminClient(adminUrl);
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  return {
    url: urlOf(adminUrl, name),
    drop: async () => {
      const client = await adminClient(adminUrl);
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

// Named per run: this machine (several may share one PostgreSQL) and the process running vitest.
// A run that died leaves its template behind; the next run on this machine removes it.
const HOST = createHash('sha1').update(hostname()).digest('hex').slice(0, 8);
const TEMPLATE_PREFIX = `pt_tpl_${HOST}_`;
const TARBALL_PREFIX = 'partstrack-pglite-template-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function dropTemplate(admin: pg.Client, name: string): Promise<void> {
  await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`);
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * Migrates and seeds a PostgreSQL template database for this run. It accepts no connections once
 * built (not even autovacuum's), so `CREATE DATABASE … TEMPLATE` never finds it busy.
 */
export async function buildPostgresTemplate(adminUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `${TEMPLATE_PREFIX}${process.pid}`;
  const admin = await adminClient(adminUrl);
  try {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [TEMPLATE_PREFIX]);
    for (const { datname } of rows) {
      const pid = Number(datname.slice(TEMPLATE_PREFIX.length));
      if (datname === name || !alive(pid)) await dropTemplate(admin, datname);
    }
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const drop = async () => {
    const client = await adminClient(adminUrl);
    try {
      await dropTemplate(client, name);
    } finally {
      await client.end();
    }
  };
  try {
    const database = await openDatabase({ databaseUrl: urlOf(adminUrl, name) });
    try {
      await database.migrate();
      await seedTestData(database.db);
    } finally {
      await database.close();
    }
    const client = await adminClient(adminUrl);
    try {
      await client.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    } finally {
      await client.end();
    }
  } catch (error) {
    await drop().catch(() => {});
    throw error;
  }
  return { name, drop };
}

/** Migrates and seeds an in-memory PGlite and writes its data directory to a tarball for this run. */
export async function buildPgliteTemplate(): Promise<{ path: string; remove: () => Promise<void> }> {
  const folder = tmpdir();
  for (const entry of await readdir(folder)) {
    const match = entry.startsWith(TARBALL_PREFIX) ? /^(\d+)\.tar$/.exec(entry.slice(TARBALL_PREFIX.length)) : null;
    if (match && !alive(Number(match[1]))) await rm(join(folder, entry), { force: true });
  }
  const path = join(folder, `${TARBALL_PREFIX}${process.pid}.tar`);
  const database = await openDatabase({ memory: true });
  try {
    await database.migrate();
    await seedTestData(database.db);
    await writeFile(path, Buffer.from(await (await database.snapshot!()).arrayBuffer()));
  } finally {
    await database.close();
  }
  return { path, remove: () => rm(path, { force: true }) };
}

/** A PGlite in memory starting as a copy of the template tarball at `path`. */
export async function openPgliteCopy(path: string) {
  return openDatabase({ memory: true, from: new Blob([await readFile(path)]) });
}
