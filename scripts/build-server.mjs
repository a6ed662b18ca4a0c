// Compiles the server to JavaScript once, at build time (#16 "Start fast"), so `npm run serve`
// starts Node on ready JavaScript instead of compiling TypeScript with tsx at every start.
//
// dist-server/
//   main.js, main.js.map          server/main.ts with our own modules (server/, src/domain,
//                                 src/contract, locales/en-US.json) bundled; packages stay imports
//                                 of node_modules
//   parse-worker.js, .map         the ERP parse worker thread (server/ingestion/parse.ts starts
//                                 `./parse-worker.js` beside the running module)
//   migrations/                   server/db/migrations (server/db/client.ts reads `./migrations`
//                                 beside the running module)
//
// The tests, the benchmarks and `npm run seed` keep running the TypeScript through tsx.
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist-server`;
const startedAt = performance.now();

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['server/main.ts', 'server/ingestion/parse-worker.ts'],
  entryNames: '[name]',
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
cpSync(`${root}server/db/migrations`, `${outdir}/migrations`, { recursive: true });
console.info(`Server built into dist-server/ in ${Math.round(performance.now() - startedAt)} ms`);
