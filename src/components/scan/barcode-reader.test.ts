import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ZXING_WASM_SHA256 } from 'barcode-detector/ponyfill';

const require = createRequire(import.meta.url);

describe('the ZXing .wasm we serve', () => {
  // The ponyfill bundles the JavaScript glue of one zxing-wasm version; the .wasm we emit comes
  // from node_modules/zxing-wasm. A different version there would load and then fail to decode.
  it('is the exact binary the bundled glue code expects', () => {
    const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
    expect(createHash('sha256').update(wasm).digest('hex')).toBe(ZXING_WASM_SHA256);
  });
});
