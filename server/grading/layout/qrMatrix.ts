import QRCode from 'qrcode';

/** QR modules as a boolean grid (true = dark), drawn identically by the SVG and PDF renderers. */
export function qrMatrix(text: string): boolean[][] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return Array.from({ length: modules.size }, (_, r) => Array.from({ length: modules.size }, (_, c) => modules.get(r, c) === 1));
}
