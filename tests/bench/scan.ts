/**
 * Scan-to-count figures (#17), for `npm run bench` (or alone: `npx tsx tests/bench/scan.ts`):
 *  - the scanner's chunks in the build (gzip): what the first press of Scan loads, wasm included;
 *  - the decode time per camera frame of the ZXing WebAssembly ponyfill in headless Chromium
 *    (p50 / p95): a 1280×720 frame holding a Code 128 (our print sheets) and one holding a QR.
 * The page gets the package's own files through routes, so it needs no server and no network.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import bwipjs from 'bwip-js/node';

const require = createRequire(import.meta.url);

export interface ScanFigures {
  chunks: Array<{ file: string; gzip: number }>;
  decode: Array<{ symbol: string; frames: number; found: number; p50: number; p95: number }>;
}

const SCANNER_CHUNKS = /^(scanner-sheet|ponyfill|scan-button|count-scanner|scan-codes|zxing_reader)-.*\.(js|css|wasm)$/;

export function scannerChunks(dist: string): ScanFigures['chunks'] {
  const assets = join(dist, 'assets');
  if (!existsSync(assets)) return [];
  return readdirSync(assets)
    .filter((file) => SCANNER_CHUNKS.test(file))
    .map((file) => ({ file, gzip: gzipSync(readFileSync(join(assets, file)), { level: 9 }).length }));
}

/** Nearest rank, as ./scaled.ts `percentile` (of 100 frames, p95 is the 95th fastest); NaN of none. */
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;

export async function decodeFigures(frames = 60): Promise<ScanFigures['decode']> {
  // The ES build (require.resolve finds the CommonJS one beside it).
  const ponyfillDir = dirname(require.resolve('barcode-detector/ponyfill')).replace(/[/\\]cjs$/, '/es');
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  const images = {
    code128: await bwipjs.toBuffer({ bcid: 'code128', text: 'KM123456', scale: 3, height: 14 }),
    qrcode: await bwipjs.toBuffer({ bcid: 'qrcode', text: 'https://partstrack.example.com/mechanic-view/27', scale: 5 }),
  };
  const browser = await chromium.launch({
    executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.route('http://bench.local/**', async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/') return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>scan bench</title>' });
      if (path === '/zxing_reader.wasm') return route.fulfill({ contentType: 'application/wasm', body: wasm });
      if (path.startsWith('/img/')) return route.fulfill({ contentType: 'image/png', body: images[path.slice(5) as keyof typeof images] });
      const file = join(ponyfillDir, path.slice(1));
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(file) });
    });
    await page.goto('http://bench.local/');
    const results: ScanFigures['decode'] = [];
    for (const symbol of Object.keys(images)) {
      // A string, not a function: tsx would wrap a function's names in a helper the page lacks.
      const times = (await page.evaluate(`(async () => {
        const { BarcodeDetector, prepareZXingModule } = await import('/ponyfill.js');
        await prepareZXingModule({ overrides: { locateFile: () => '/zxing_reader.wasm' }, fireImmediately: true });
        const detector = new BarcodeDetector({ formats: ['ean_13', 'ean_8', 'upc_a', 'upc_e', 'code_128', 'code_39', 'qr_code', 'data_matrix'] });
        const image = new Image();
        image.src = '/img/${symbol}';
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = 1280;
        canvas.height = 720;
        const context = canvas.getContext('2d');
        context.fillStyle = '#fff';
        context.fillRect(0, 0, 1280, 720);
        context.drawImage(image, (1280 - image.width) / 2, (720 - image.height) / 2);
        const frame = context.getImageData(0, 0, 1280, 720);
        await detector.detect(frame); // warm-up
        const out = [];
        for (let i = 0; i < ${frames}; i += 1) {
          const started = performance.now();
          const found = await detector.detect(frame);
          out.push({ ms: performance.now() - started, found: found.length > 0 });
        }
        return out;
      })()`)) as Array<{ ms: number; found: boolean }>;
      const sorted = times.map((time) => time.ms).sort((a, b) => a - b);
      results.push({ symbol, frames, found: times.filter((time) => time.found).length, p50: percentile(sorted, 50), p95: percentile(sorted, 95) });
    }
    return results;
  } finally {
    await browser.close();
  }
}

export function printScanFigures(figures: ScanFigures) {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const total = figures.chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);
  console.log(`scanner chunks, loaded on the first Scan (gzip): ${kb(total)} — ${figures.chunks.map((chunk) => `${chunk.file} ${kb(chunk.gzip)}`).join(', ')}`);
  for (const row of figures.decode) {
    console.log(
      `ZXing wasm decode per 1280×720 frame (${row.symbol}, ${row.frames} frames, read in ${row.found}): p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printScanFigures({ chunks: scannerChunks(process.env.PUBLIC_DIR ?? 'dist'), decode: await decodeFigures() });
}
