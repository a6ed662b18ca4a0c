/**
 * Barcodes on the printed count sheet (#17, decision 0030): a Code 128 of each line's material
 * code, which any scanner and our camera sheet read back as the material, and a QR of the count's
 * address, which opens the count (in the app, or from a phone's camera app). Drawn by bwip-js
 * (only the two encoders are bundled) as SVG, shown as images: vector-sharp on paper and inert
 * (an image cannot run anything, whatever the code holds).
 */
import { memo, useMemo } from 'react';
import { code128, drawingSVG, qrcode } from 'bwip-js/browser';

const asImage = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
/** The SVG's own size in CSS pixels (bwip-js: 1 module × scale = 1 px). */
const sizeOf = (svg: string) => {
  const [, width = '0', height = '0'] = /viewBox="0 0 (\d+) (\d+)"/.exec(svg) ?? [];
  return { width: Number(width), height: Number(height) };
};

function Code128View({ text, label }: { text: string; label: string }) {
  const svg = useMemo(() => {
    try {
      return code128({ bcid: 'code128', text, scale: 1, height: 9, paddingwidth: 4 }, drawingSVG());
    } catch {
      return null; // a code Code 128 cannot hold: the printed text stays
    }
  }, [text]);
  if (!svg) return null;
  const { width, height } = sizeOf(svg);
  return <img className="print-barcode" src={asImage(svg)} alt={label} width={width * 2} height={height * 2} />;
}
export const Code128 = memo(Code128View);

export function QrCode({ text, label, size = 112 }: { text: string; label: string; size?: number }) {
  const svg = useMemo(() => qrcode({ bcid: 'qrcode', text, scale: 1, paddingwidth: 2, paddingheight: 2 }, drawingSVG()), [text]);
  return <img className="print-qr" src={asImage(svg)} alt={label} width={size} height={size} />;
}
