/**
 * The error handler's answers for database errors that are not the request's fault: a deadlock or
 * a serialization failure ended the transaction (nothing written) and the same request may be sent
 * again: 503 with Retry-After, never a 500. A value the database refuses stays a 400.
 */
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../../server/plugins/errors';

/** What Drizzle throws: its own error with the driver's (SQLSTATE in `code`) as the cause. */
const wrapped = (code: string, message: string) => Object.assign(new Error('Failed query: update …'), { cause: Object.assign(new Error(message), { code }) });

describe('database errors the request did not cause', () => {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.get('/deadlock', async () => {
    throw wrapped('40P01', 'deadlock detected');
  });
  app.get('/serialization', async () => {
    throw wrapped('40001', 'could not serialize access due to concurrent update');
  });
  app.get('/restarting', async () => {
    throw wrapped('57P01', 'terminating connection due to administrator command');
  });
  app.get('/refused', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  });
  app.get('/nul', async () => {
    throw wrapped('22021', 'invalid byte sequence for encoding "UTF8": 0x00');
  });
  app.get('/other', async () => {
    throw wrapped('XX000', 'internal error');
  });
  afterAll(() => app.close());

  it('answers a deadlock and a serialization failure with 503 and Retry-After, saying to send it again', async () => {
    for (const url of ['/deadlock', '/serialization']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json().message).toContain('nothing was written');
    }
  });

  it('answers a database that is away (restarting, connection refused) with 503: phones wait it out, they do not set changes aside', async () => {
    for (const url of ['/restarting', '/refused']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json().message).toContain('cannot be reached');
    }
  });

  it('keeps a refused value a 400 and anything else a 500 that leaks nothing', async () => {
    expect((await app.inject({ method: 'GET', url: '/nul' })).statusCode).toBe(400);
    const other = await app.inject({ method: 'GET', url: '/other' });
    expect(other.statusCode).toBe(500);
    expect(other.json()).toEqual({ message: 'Internal server error' });
  });
});
