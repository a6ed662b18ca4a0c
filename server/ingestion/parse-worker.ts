/**
 * The parse worker thread (#16): reads an ERP file piece by piece off the server's event loop,
 * so a 30 MB file never stalls other calls. Protocol (parse.ts): `{ options }` once, then
 * `{ text }` per piece, answered with `{ copy }` (the staging rows it completed), and `{ end }`,
 * answered with `{ copy, outcome }`.
 */
import { parentPort } from 'node:worker_threads';
import { createErpParser, type ErpParseOptions, type ErpParser } from './erp-parser';

type Message = { options: ErpParseOptions } | { text: string } | { end: true };

let parser: ErpParser | null = null;
parentPort!.on('message', (message: Message) => {
  try {
    if ('options' in message) parser = createErpParser(message.options);
    else if ('text' in message) parentPort!.postMessage({ copy: parser!.push(message.text) });
    else parentPort!.postMessage(parser!.end());
  } catch (error) {
    parentPort!.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  }
});
