/**
 * #20 point 4: a lone UTF-16 surrogate (`"\ud800"` in JSON) is not text PostgreSQL can store in
 * jsonb; every route refuses it at the contract boundary with a 400 naming the field, instead of a
 * 500 from the write. Surrogate pairs (emoji) are ordinary text and pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestProduct, ENGINES, type TestProduct } from './harness';

describe.each(ENGINES)('lone UTF-16 surrogates on %s', (engine) => {
  let product: TestProduct;
  const tokens = new Map<string, string>();
  /** Sends `json` as written: the escapes reach the server's JSON parser untouched. */
  const send = async (method: 'GET' | 'POST' | 'PUT', url: string, email: string, json?: string) => {
    if (!tokens.has(email)) tokens.set(email, await product.token(email));
    return product.app.inject({
      method,
      url,
      headers: { ...bearer(tokens.get(email)!), ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(json === undefined ? {} : { payload: json }),
    });
  };
  const feedbackCount = async () => (await send('GET', '/user_api/v1/feedback?maxResults=100', 'mechanic@example.com')).json().items.length as number;

  beforeAll(async () => {
    product = await createTestProduct(engine);
  });
  afterAll(async () => product?.close());

  it('refuses feedback whose text holds a lone surrogate with a 400 naming the field, and stores nothing', async () => {
    const before = await feedbackCount();
    for (const lone of ['\\ud800', '\\udfff', 'broken \\ud83d pair', '\\ude00 reversed \\ud83d']) {
      const res = await send('POST', '/user_api/v1/feedback', 'mechanic@example.com', `{"type":"Feedback","rating":4,"openFeedback":"${lone}"}`);
      expect(res.statusCode, lone).toBe(400);
      expect(res.json().message, lone).toContain('body.openFeedback');
      expect(res.json().message, lone).toContain('surrogate');
    }
    expect(await feedbackCount()).toBe(before);
  });

  it('refuses a lone surrogate deep in an array and in an object key', async () => {
    const messages = await send('PUT', '/parts/v1/users/important-message', 'manager@example.com', '{"important_messages":["Depot closed Friday","\\udc00"]}');
    expect(messages.statusCode).toBe(400);
    expect(messages.json().message).toContain('body.important_messages.1');
    const key = await send('POST', '/user_api/v1/feedback', 'mechanic@example.com', '{"type":"Feedback","rating":4,"\\ud800":"x"}');
    expect(key.statusCode).toBe(400);
    expect(key.json().message).toContain('body');
  });

  it('accepts surrogate pairs (emoji) as ordinary text', async () => {
    const res = await send('POST', '/user_api/v1/feedback', 'mechanic@example.com', '{"type":"Feedback","rating":5,"openFeedback":"Great \\ud83d\\ude00"}');
    expect(res.statusCode, res.body).toBe(201);
    const [latest] = (await send('GET', '/user_api/v1/feedback?maxResults=1', 'mechanic@example.com')).json().items;
    expect(latest.payload.openFeedback).toBe('Great 😀');
  });

  it('never answers 500 for an ill-formed percent-encoded query or path', async () => {
    // %ED%A0%80 is a surrogate encoded as UTF-8 bytes: not valid UTF-8, so never a lone surrogate.
    for (const url of ['/user_api/v1/feedback?query=%ED%A0%80', '/parts/v1/users/me/tracking-status?query=%ED%A0%80&page=1&status=all&myOrders=false&maxResults=20', '/parts/v1/users/me/tracking-status/%ED%A0%80']) {
      const res = await send('GET', url, 'mechanic@example.com');
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(500);
    }
  });
});
