/**
 * The error handler's answers for database errors that are not the request's fault: a deadlock or
 * a serialization failure ended the transaction (nothing written) and the same request may be sent
 * again: 503 with Retry-After, never a 500. A value the database refuses stays a 400. A client that
 * drops its body mid-upload (ECONNRESET like a lost database socket) is a 400, not an outage.
 */
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  app.get('/gone', async () => {
    throw wrapped('23503', 'insert or update on table "user_grants" violates foreign key constraint');
  });
  app.get('/taken', async () => {
    throw wrapped('23505', 'duplicate key value violates unique constraint');
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

  it('answers a row gone or a key taken by a concurrent change with 409 and a code, not a 500', async () => {
    const gone = await app.inject({ method: 'GET', url: '/gone' });
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({ code: 'referenceGoneMeanwhile', message: expect.stringContaining('removed meanwhile; nothing was written') });
    const taken = await app.inject({ method: 'GET', url: '/taken' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'keyTakenMeanwhile', message: expect.stringContaining('nothing was written') });
  });

  it('keeps a refused value a 400 and anything else a 500 that leaks nothing', async () => {
    expect((await app.inject({ method: 'GET', url: '/nul' })).statusCode).toBe(400);
    const other = await app.inject({ method: 'GET', url: '/other' });
    expect(other.statusCode).toBe(500);
    expect(other.json()).toEqual({ message: 'Internal server error' });
  });
});

describe('a client that stops sending its body', () => {
  const logs: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream } });
  registerErrorHandler(app);
  const answered: number[] = [];
  app.addHook('onSend', async (_request, reply) => {
    answered.push(reply.statusCode);
  });
  // As the upload routes read text/csv: the stream to its end (received.ts, csv-body.ts).
  app.addContentTypeParser('text/csv', async (_request: unknown, payload: AsyncIterable<Buffer>) => {
    let size = 0;
    for await (const chunk of payload) size += chunk.length;
    return size;
  });
  app.post('/upload', async () => ({ ok: true }));
  app.post('/database-reset', async () => {
    throw wrapped('ECONNRESET', 'read ECONNRESET');
  });
  let port = 0;
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it('answers 400 and logs it as the client’s doing, not "the database is not reachable" with a 503', async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: text/csv\r\nContent-Length: 100000\r\n\r\nmaterial_code;unit\nMAT-1;PC\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await expect.poll(() => answered).toEqual([400]);
    const logged = logs.filter((entry) => entry.msg === 'the client stopped sending the request body');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.level).toBe(30); // info
    expect(logs.filter((entry) => entry.level >= 50)).toEqual([]);
  });

  it('still answers a database socket reset on a whole request with 503', async () => {
    const res = await app.inject({ method: 'POST', url: '/database-reset', headers: { 'content-type': 'text/csv' }, payload: 'a;b\n' });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toContain('cannot be reached');
  });
});
