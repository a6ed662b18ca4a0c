import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isChunkLoadError } from './chunk-load';
import { parseWith } from './lazy-schema';

const schema = z.object({ id: z.number().int() });

describe('parseWith (#22: a schema that loads with its call)', () => {
  it('parses the answer with the loaded schema: validation stays', async () => {
    await expect(parseWith(async () => schema, Promise.resolve({ id: 3, extra: 'dropped' }))).resolves.toEqual({ id: 3 });
    await expect(parseWith(async () => schema, Promise.resolve({ id: 'three' }))).rejects.toBeInstanceOf(z.ZodError);
  });

  it('fails with the call when the call fails, and as a missing chunk when the schema cannot load', async () => {
    const refused = new Error('HTTP 500');
    await expect(parseWith(async () => schema, Promise.reject(refused))).rejects.toBe(refused);
    const failed = parseWith(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://x/assets/notifications-1.js')), Promise.resolve({ id: 1 }));
    await expect(failed).rejects.toSatisfy((error) => isChunkLoadError(error) && error.kind === 'missing' && error.detail === 'http://x/assets/notifications-1.js');
  });

  it('asks the schema once per call and starts the call without waiting for it', async () => {
    const order: string[] = [];
    let release!: () => void;
    const loading = new Promise<void>((resolve) => (release = resolve));
    const parsed = parseWith(
      async () => {
        order.push('schema asked');
        await loading;
        return schema;
      },
      (async () => {
        order.push('call made');
        return { id: 7 };
      })(),
    );
    order.push('returned');
    release();
    await expect(parsed).resolves.toEqual({ id: 7 });
    expect(order).toEqual(['call made', 'schema asked', 'returned']);
  });
});
