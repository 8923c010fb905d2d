import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';

// Scanners and phone "scan to PDF" apps store each page as one full-page image. We take that
// image out as-is (JPEG bytes, or deflated raw pixels) rather than rasterising the PDF, which
// needs no renderer and loses nothing. A PDF page of vector content (e.g. our own printable
// answer sheet, not a scan of it) has no such image and is reported as such.

export type PdfPage = { page: number; image: Buffer } | { page: number; error: string };

function name(dict: PDFDict, key: string): string | undefined {
  const v = dict.lookup(PDFName.of(key));
  if (v instanceof PDFName) return v.asString();
  if (v instanceof PDFArray && v.size() > 0) {
    const first = v.lookup(0);
    return first instanceof PDFName ? first.asString() : undefined;
  }
  return undefined;
}

function num(dict: PDFDict, key: string): number {
  const v = dict.lookup(PDFName.of(key));
  return v instanceof PDFNumber ? v.asNumber() : 0;
}

async function imageBytes(stream: PDFRawStream): Promise<Buffer | string> {
  const d = stream.dict;
  const filter = name(d, 'Filter');
  if (filter === '/DCTDecode') return Buffer.from(stream.contents);
  if (filter === '/FlateDecode') {
    const width = num(d, 'Width');
    const height = num(d, 'Height');
    if (num(d, 'BitsPerComponent') !== 8) return '仅支持 8 位灰度或彩色的扫描图像';
    const cs = name(d, 'ColorSpace');
    const channels = cs === '/DeviceGray' ? 1 : cs === '/DeviceRGB' ? 3 : 0;
    if (!channels) return `不支持的颜色空间 ${cs ?? ''}`;
    const raw = inflateSync(Buffer.from(stream.contents));
    if (raw.length < width * height * channels) return '扫描图像数据不完整';
    return sharp(raw, { raw: { width, height, channels } }).png({ compressionLevel: 1 }).toBuffer();
  }
  return `不支持的图像压缩格式 ${filter ?? '（无）'}`;
}

export async function pdfPageImages(bytes: Uint8Array): Promise<PdfPage[]> {
  const doc = await PDFDocument.load(bytes, { ignoreEncryption: true });
  const out: PdfPage[] = [];
  for (const [i, page] of doc.getPages().entries()) {
    const xobjects = page.node.Resources()?.lookup(PDFName.of('XObject'));
    let best: PDFRawStream | null = null;
    let bestArea = 0;
    if (xobjects instanceof PDFDict) {
      for (const [, ref] of xobjects.entries()) {
        const obj = doc.context.lookup(ref);
        if (!(obj instanceof PDFRawStream) || name(obj.dict, 'Subtype') !== '/Image') continue;
        const area = num(obj.dict, 'Width') * num(obj.dict, 'Height');
        if (area > bestArea) {
          best = obj;
          bestArea = area;
        }
      }
    }
    if (!best) {
      out.push({ page: i + 1, error: `PDF 第 ${i + 1} 页不是扫描图像，请上传扫描件或照片` });
      continue;
    }
    const img = await imageBytes(best);
    out.push(typeof img === 'string' ? { page: i + 1, error: `PDF 第 ${i + 1} 页：${img}` } : { page: i + 1, image: img });
  }
  return out;
}
