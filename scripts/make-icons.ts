/**
 * Renders the PartsTrack app icons (PNG) from their SVG sources with headless Chromium.
 *
 *   npx tsx scripts/make-icons.ts
 *
 * Sources:
 *   public/favicon.svg        rounded tile with transparent corners (favicon, "any" purpose icons)
 *   public/icons/maskable.svg full-bleed tile, pictogram inside the central 80 % safe zone
 *
 * Outputs (committed artefacts, re-run after editing an SVG):
 *   public/icons/favicon-32.png        32x32   transparent corners
 *   public/icons/icon-192.png          192x192 transparent corners
 *   public/icons/icon-512.png          512x512 transparent corners
 *   public/icons/maskable-512.png      512x512 opaque
 *   public/icons/apple-touch-icon.png  180x180 opaque (iOS applies its own corner mask)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, inflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const publicDir = join(root, 'public');
const iconsDir = join(publicDir, 'icons');

/** Page colour behind opaque icons; equals the tile's bottom colour, never visible in practice. */
const THEME_COLOR = '#0b3d91';

interface IconJob {
  source: string;
  out: string;
  size: number;
  /** Keep the alpha channel (rounded corners) or flatten to an opaque RGB PNG. */
  transparent: boolean;
}

const jobs: IconJob[] = [
  { source: join(publicDir, 'favicon.svg'), out: join(iconsDir, 'favicon-32.png'), size: 32, transparent: true },
  { source: join(publicDir, 'favicon.svg'), out: join(iconsDir, 'icon-192.png'), size: 192, transparent: true },
  { source: join(publicDir, 'favicon.svg'), out: join(iconsDir, 'icon-512.png'), size: 512, transparent: true },
  { source: join(iconsDir, 'maskable.svg'), out: join(iconsDir, 'maskable-512.png'), size: 512, transparent: false },
  { source: join(iconsDir, 'maskable.svg'), out: join(iconsDir, 'apple-touch-icon.png'), size: 180, transparent: false },
];

function pageHtml(svg: string, size: number, background: string): string {
  const src = `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
  return `<!doctype html><html><head><style>
html,body{margin:0;padding:0;width:${size}px;height:${size}px;overflow:hidden;background:${background}}
img{display:block;width:${size}px;height:${size}px}
</style></head><body><img id="icon" src="${src}" alt=""></body></html>`;
}

// ---------------------------------------------------------------------------------------------
// Minimal PNG handling: read the header, and flatten an 8-bit RGBA PNG to an opaque RGB PNG so
// that "no transparency" icons carry no alpha channel at all.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface PngChunk {
  type: string;
  data: Buffer;
}

function readChunks(png: Buffer): PngChunk[] {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG');
  const chunks: PngChunk[] = [];
  let pos = 8;
  while (pos < png.length) {
    const length = png.readUInt32BE(pos);
    const type = png.toString('latin1', pos + 4, pos + 8);
    chunks.push({ type, data: png.subarray(pos + 8, pos + 8 + length) });
    pos += 12 + length;
  }
  return chunks;
}

interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
}

function readHeader(png: Buffer): PngHeader {
  const ihdr = readChunks(png).find((c) => c.type === 'IHDR');
  if (!ihdr) throw new Error('PNG without IHDR');
  return {
    width: ihdr.data.readUInt32BE(0),
    height: ihdr.data.readUInt32BE(4),
    bitDepth: ihdr.data.readUInt8(8),
    colorType: ihdr.data.readUInt8(9),
    interlace: ihdr.data.readUInt8(12),
  };
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Undo PNG scanline filters (8-bit samples, non-interlaced). */
function unfilter(raw: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const cur = out.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? out.subarray((y - 1) * stride, y * stride) : Buffer.alloc(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? (cur[x - bpp] ?? 0) : 0;
      const b = prev[x] ?? 0;
      const c = x >= bpp ? (prev[x - bpp] ?? 0) : 0;
      const v = line[x] ?? 0;
      let predictor: number;
      switch (filter) {
        case 0:
          predictor = 0;
          break;
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = (a + b) >> 1;
          break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          throw new Error(`unknown PNG filter ${String(filter)}`);
      }
      cur[x] = (v + predictor) & 0xff;
    }
  }
  return out;
}

/** Decode an 8-bit RGB/RGBA PNG into RGBA pixels. */
function decodeRgba(png: Buffer): { width: number; height: number; rgba: Buffer } {
  const h = readHeader(png);
  if (h.bitDepth !== 8 || h.interlace !== 0 || (h.colorType !== 2 && h.colorType !== 6)) {
    throw new Error(`unsupported PNG (bit depth ${h.bitDepth}, colour type ${h.colorType}, interlace ${h.interlace})`);
  }
  const bpp = h.colorType === 6 ? 4 : 3;
  const idat = Buffer.concat(readChunks(png).filter((c) => c.type === 'IDAT').map((c) => c.data));
  const pixels = unfilter(inflateSync(idat), h.width, h.height, bpp);
  if (bpp === 4) return { width: h.width, height: h.height, rgba: pixels };
  const rgba = Buffer.alloc(h.width * h.height * 4);
  for (let i = 0, j = 0; i < pixels.length; i += 3, j += 4) {
    rgba[j] = pixels[i] ?? 0;
    rgba[j + 1] = pixels[i + 1] ?? 0;
    rgba[j + 2] = pixels[i + 2] ?? 0;
    rgba[j + 3] = 255;
  }
  return { width: h.width, height: h.height, rgba };
}

/** Re-encode as an opaque 8-bit RGB PNG; fails if any pixel is not fully opaque. */
function toOpaqueRgbPng(png: Buffer): Buffer {
  const { width, height, rgba } = decodeRgba(png);
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const s = (y * width + x) * 4;
      if (rgba[s + 3] !== 255) throw new Error(`pixel ${x},${y} is not opaque`);
      const d = y * (stride + 1) + 1 + x * 3;
      raw[d] = rgba[s] ?? 0;
      raw[d + 1] = rgba[s + 1] ?? 0;
      raw[d + 2] = rgba[s + 2] ?? 0;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // colour type: truecolour
  ihdr.writeUInt8(0, 10); // compression
  ihdr.writeUInt8(0, 11); // filter method
  ihdr.writeUInt8(0, 12); // no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Alpha of the top-left pixel, to confirm rounded corners really are transparent. */
function cornerAlpha(png: Buffer): number {
  const { rgba } = decodeRgba(png);
  return rgba[3] ?? 255;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const sources = new Map<string, string>();
    for (const job of jobs) {
      let svg = sources.get(job.source);
      if (svg === undefined) {
        svg = await readFile(job.source, 'utf8');
        sources.set(job.source, svg);
      }

      const context = await browser.newContext({
        viewport: { width: job.size, height: job.size },
        deviceScaleFactor: 1,
      });
      try {
        const page = await context.newPage();
        await page.setContent(pageHtml(svg, job.size, job.transparent ? 'transparent' : THEME_COLOR));
        await page.waitForFunction(() => {
          const img = document.getElementById('icon');
          return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
        });
        const shot = await page.screenshot({
          type: 'png',
          omitBackground: job.transparent,
          clip: { x: 0, y: 0, width: job.size, height: job.size },
        });

        const png = job.transparent ? shot : toOpaqueRgbPng(shot);
        const header = readHeader(png);
        if (header.width !== job.size || header.height !== job.size) {
          throw new Error(`${job.out}: got ${header.width}x${header.height}, expected ${job.size}x${job.size}`);
        }
        if (job.transparent && cornerAlpha(png) !== 0) {
          throw new Error(`${job.out}: expected transparent corners`);
        }
        await writeFile(job.out, png);
        console.log(
          `${relative(root, job.out)}  ${header.width}x${header.height}  ${job.transparent ? 'RGBA' : 'RGB'}  ${png.length} B`,
        );
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
