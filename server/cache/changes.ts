/**
 * Hearing about changes made anywhere: migration 0010 makes every statement that writes a table
 * behind a cached answer NOTIFY `partstrack_changed` with its topic, at commit. Each process
 * LISTENs and moves the matching generation (generations.ts).
 *
 * - PGlite runs in this process on one connection; its `listen` delivers a notification before
 *   the writing statement's (or COMMIT's) promise resolves, so every write is heard at once.
 * - PostgreSQL: one dedicated client (a pooled connection may be handed to a query at any time and
 *   LISTEN belongs to a session). While it is not connected and listening, the caches serve
 *   nothing; it reconnects with a growing pause (0.25 s … 5 s), and a ping every second that
 *   must be answered before the next one notices a connection that died without a word.
 */
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeSource } from '../db/client';
import { topicOf, type CacheGenerations } from './generations';

export const CHANGE_CHANNEL = 'partstrack_changed';

export interface ChangeListener {
  close(): Promise<void>;
}

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;

export async function listenForChanges(source: ChangeSource, generations: CacheGenerations, log: Log): Promise<ChangeListener> {
  if ('listen' in source) {
    const unlisten = await source.listen(CHANGE_CHANNEL, (payload) => generations.bump(topicOf(payload)));
    generations.setListening(true);
    return {
      async close() {
        generations.setListening(false);
        await unlisten();
      },
    };
  }
  return listenOnPostgres(source.connectionString, generations, log);
}

const PING_MS = 1_000;
const MAX_PAUSE_MS = 5_000;

async function listenOnPostgres(connectionString: string, generations: CacheGenerations, log: Log): Promise<ChangeListener> {
  let client: pg.Client | null = null;
  let closed = false;
  let pause = 250;
  let retry: NodeJS.Timeout | undefined;

  const lost = (lostClient: pg.Client, error?: unknown) => {
    if (client !== lostClient) return;
    client = null;
    generations.setListening(false);
    lostClient.end().catch(() => undefined);
    if (closed) return;
    log.warn({ err: error }, `change notifications lost: caches off until listening again (retry in ${pause} ms)`);
    retry = setTimeout(() => void connect(), pause);
    retry.unref();
    pause = Math.min(pause * 2, MAX_PAUSE_MS);
  };

  const connect = async () => {
    const candidate = new pg.Client({
      connectionString,
      keepAlive: true,
      keepAliveInitialDelayMillis: 5_000,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
      application_name: 'partstrack-cache-listener',
    });
    client = candidate;
    candidate.on('notification', (message) => {
      if (message.channel === CHANGE_CHANNEL) generations.bump(topicOf(message.payload ?? ''));
    });
    candidate.on('error', (error) => lost(candidate, error));
    candidate.on('end', () => lost(candidate));
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      lost(candidate, error);
      return;
    }
    if (client !== candidate || closed) {
      // Lost meanwhile (already ended) or closed while connecting: this client is not ours to keep.
      if (client === candidate) client = null;
      await candidate.end().catch(() => undefined);
      return;
    }
    pause = 250;
    generations.setListening(true);
  };

  // A heartbeat: a connection that died without a word (a dropped NAT entry, a failover) would
  // otherwise look alive for as long as TCP takes to notice, while its notifications are lost. A
  // ping not answered by the next tick counts as a lost connection, so at most about two ticks
  // pass between a change missed and the caches turned off. Notifications travel on the same
  // connection ahead of the ping's answer: an answered ping means none were missed before it.
  let pingInFlight: pg.Client | null = null;
  const ping = setInterval(() => {
    const current = client;
    if (!current || !generations.listening) return;
    if (pingInFlight === current) {
      pingInFlight = null;
      lost(current, new Error(`no answer to a ping within ${PING_MS} ms`));
      return;
    }
    pingInFlight = current;
    current.query('SELECT 1').then(
      () => {
        if (pingInFlight === current) pingInFlight = null;
      },
      (error: unknown) => {
        if (pingInFlight === current) pingInFlight = null;
        lost(current, error);
      },
    );
  }, PING_MS);
  ping.unref();

  await connect();
  return {
    async close() {
      closed = true;
      clearInterval(ping);
      clearTimeout(retry);
      const current = client;
      client = null;
      generations.setListening(false);
      await current?.end().catch(() => undefined);
    },
  };
}
