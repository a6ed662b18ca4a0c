/**
 * An answer parsed by a schema whose module loads with the call (#22, decision 0034). Building a
 * zod schema costs main-thread time; the contract modules of calls the first screen does not
 * wait for (notification lists, notification types and settings, the sent-feedback and
 * stock-count sub-tabs) are not imported statically by the start, so their schemas are built when
 * the first such call is made — the module is fetched in parallel with the call (precached for
 * offline starts), and a module that cannot load fails as a chunk does (lib/chunk-load.ts).
 */
import { loadChunk } from './chunk-load';

interface Schema<T> {
  parse(value: unknown): T;
}

export async function parseWith<T>(schema: () => Promise<Schema<T>>, answer: Promise<unknown>): Promise<T> {
  const [loaded, body] = await Promise.all([loadChunk(schema), answer]);
  return loaded.parse(body);
}
