/**
 * One barcode reader for the camera sheet: the browser's Barcode Detection API where it reads
 * our formats (Android Chrome, macOS), else the `barcode-detector` ponyfill running ZXing-C++ as
 * WebAssembly. The .wasm is OUR copy, emitted by Vite with a content hash and precached by the
 * service worker: the package's default is a CDN, which fails offline and tells a third party
 * who is scanning. This module is only reached through a dynamic import (the scanner sheet).
 */
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/** EAN-13, EAN-8, UPC-A/E, Code 128, Code 39, QR and DataMatrix (#17). */
export const SCAN_FORMATS = ['ean_13', 'ean_8', 'upc_a', 'upc_e', 'code_128', 'code_39', 'qr_code', 'data_matrix'] as const;

export interface BarcodeReader {
  /** 'native' or 'zxing-wasm': which engine reads (shown in tests and the bench). */
  engine: 'native' | 'zxing-wasm';
  detect(source: ImageBitmapSource): Promise<string[]>;
}

interface DetectorLike {
  detect(source: ImageBitmapSource): Promise<Array<{ rawValue: string }>>;
}
interface DetectorClass {
  new (options: { formats: string[] }): DetectorLike;
  getSupportedFormats(): Promise<readonly string[]>;
}

async function nativeDetector(): Promise<DetectorLike | null> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!Native) return null;
  try {
    const supported = await Native.getSupportedFormats();
    const formats = SCAN_FORMATS.filter((format) => supported.includes(format));
    // A native reader without Code 128 or QR misses our own sheets: use ZXing instead.
    if (!formats.includes('code_128') || !formats.includes('qr_code')) return null;
    return new Native({ formats });
  } catch {
    return null;
  }
}

/** Our copy of the reader's .wasm (absolute: the module resolves it against its own chunk). */
export const zxingWasmUrl = () => new URL(wasmUrl, location.href).href;

let zxingReady: Promise<unknown> | null = null;

async function zxingDetector(): Promise<DetectorLike> {
  const { BarcodeDetector, prepareZXingModule } = await import('barcode-detector/ponyfill');
  // Loaded once per page; a failed load (offline before the app was ever cached) is tried again next time.
  zxingReady ??= prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? zxingWasmUrl() : prefix + path) },
    fireImmediately: true,
  }).catch((error: unknown) => {
    zxingReady = null;
    throw error;
  });
  await zxingReady;
  return new BarcodeDetector({ formats: [...SCAN_FORMATS] });
}

export async function createBarcodeReader({ preferNative = true }: { preferNative?: boolean } = {}): Promise<BarcodeReader> {
  const native = preferNative ? await nativeDetector() : null;
  const detector = native ?? (await zxingDetector());
  return {
    engine: native ? 'native' : 'zxing-wasm',
    detect: async (source) => (await detector.detect(source)).map((found) => found.rawValue).filter(Boolean),
  };
}
