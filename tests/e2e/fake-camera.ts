/**
 * A camera for Chromium's `--use-file-for-fake-video-capture`: a Y4M video of a barcode rendered
 * by bwip-js, rasterized by the browser (no image library needed), shown for `on` frames then a
 * blank page for `off` frames, looped by Chromium. Greyscale, so the chroma planes are flat.
 */
import { writeFileSync } from 'node:fs';
import type { Browser } from '@playwright/test';
import bwipjs from 'bwip-js/node';

export interface FakeVideo {
  text: string;
  bcid?: 'code128' | 'qrcode';
  /** Frames with the code, then frames without it (10 frames a second). */
  on?: number;
  off?: number;
  width?: number;
  height?: number;
}

export async function writeBarcodeVideo(browser: Browser, file: string, { text, bcid = 'code128', on = 30, off = 0, width = 640, height = 480 }: FakeVideo) {
  const png = await bwipjs.toBuffer({ bcid, text, scale: bcid === 'qrcode' ? 6 : 3, height: 16, paddingwidth: 10, paddingheight: 10 });
  const page = await browser.newPage();
  try {
    await page.setContent('<!doctype html><title>frame</title>');
    // A string, not a function: tsx would wrap a function's names in a helper the page lacks.
    const luma = (await page.evaluate(`(async () => {
      const image = new Image();
      image.src = 'data:image/png;base64,${png.toString('base64')}';
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = ${width};
      canvas.height = ${height};
      const context = canvas.getContext('2d');
      context.fillStyle = '#fff';
      context.fillRect(0, 0, ${width}, ${height});
      const scale = Math.min(1, (${width} * 0.8) / image.width, (${height} * 0.8) / image.height);
      const w = image.width * scale, h = image.height * scale;
      context.imageSmoothingEnabled = false;
      context.drawImage(image, (${width} - w) / 2, (${height} - h) / 2, w, h);
      const { data } = context.getImageData(0, 0, ${width}, ${height});
      const y = new Array(${width} * ${height});
      for (let i = 0; i < y.length; i += 1) y[i] = Math.round(0.299 * data[i * 4] + 0.587 * data[i * 4 + 1] + 0.114 * data[i * 4 + 2]);
      return y;
    })()`)) as number[];
    const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
    const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
    const frame = (y: Buffer) => Buffer.concat([Buffer.from('FRAME\n'), y, chroma]);
    const withCode = frame(Buffer.from(luma));
    const blank = frame(Buffer.alloc(width * height, 255));
    writeFileSync(file, Buffer.concat([header, ...Array<Buffer>(on).fill(withCode), ...Array<Buffer>(off).fill(blank)]));
  } finally {
    await page.close();
  }
}
