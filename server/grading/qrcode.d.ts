// Minimal typing for the part of `qrcode` we use (the package ships no types).
declare module 'qrcode' {
  interface QRCodeModel {
    modules: { size: number; data: Uint8Array; get(row: number, col: number): number };
  }
  const QRCode: { create(text: string, options?: { errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' }): QRCodeModel };
  export default QRCode;
}
