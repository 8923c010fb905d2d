import { inflateSync } from 'node:zlib';
import { PDFArray, PDFContext, PDFDict, PDFDocument, PDFName, PDFNumber, PDFObjectStreamParser, PDFRawStream, PDFXRefStreamParser } from 'pdf-lib';
import sharp from 'sharp';
import { checkImageSize, ImageTooLarge, MAX_IMAGE_PIXELS } from './gray.js';

// Scanners and phone "scan to PDF" apps store each page as one full-page image. We take that
// image out as-is (JPEG bytes, or deflated raw pixels) rather than rasterising the PDF, which
// needs no renderer and loses nothing. A PDF page of vector content (e.g. our own printable
// answer sheet, not a scan of it) has no such image and is reported as such.
//
// A PDF is also a set of compressed streams a few bytes can expand into gigabytes: every
// decompression here is bounded, and so are the pages and the pixels of each page.

export type PdfPage = { page: number; image: Buffer } | { page: number; error: string };

/** Pages of one uploaded PDF: a class set of two-page sheets, with room to spare. */
export const MAX_PDF_PAGES = 100;
/** Object and cross-reference streams of a scan are kilobytes; pdf-lib unpacks them while loading. */
const MAX_STRUCTURE_BYTES = 16 * 1024 * 1024;

/** A PDF refused as a whole, with the reason to show the teacher. */
export class PdfRefused extends Error {}

function name(dict: PDFDict, key: string): string | undefined {
  const v = dict.lookup(PDFName.of(key));
  if (v instanceof PDFName) return v.asString();
  if (v instanceof PDFArray && v.size() > 0) {
    const first = v.lookup(0);
    return first instanceof PDFName ? first.asString() : undefined;
  }
  return undefined;
}

function filters(dict: PDFDict): string[] {
  const v = dict.lookup(PDFName.of('Filter'));
  if (v instanceof PDFName) return [v.asString()];
  if (v instanceof PDFArray) return v.asArray().map((f) => (f instanceof PDFName ? f.asString() : '?'));
  return [];
}

function num(dict: PDFDict, key: string): number {
  const v = dict.lookup(PDFName.of(key));
  return v instanceof PDFNumber ? v.asNumber() : 0;
}

const isTooLarge = (error: unknown) => (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';

/** Why a document being loaded is refused, noted by the stream guard below. */
const refusedWhileLoading = new WeakMap<PDFContext, string>();

/**
 * pdf-lib inflates object and cross-reference streams as it loads a document, with no limit of its
 * own; each is inflated here first, within a bound. pdf-lib treats a stream the guard throws on as
 * an invalid object and goes on loading, so the refusal is also noted for loadPdf to act on.
 */
function checkStructureStream(raw: PDFRawStream): void {
  const applied = filters(raw.dict);
  if (!applied.length) return;
  let refusal: string | undefined;
  if (applied.length > 1 || applied[0] !== '/FlateDecode') refusal = '不支持该 PDF 的压缩方式，请使用扫描仪或手机扫描生成的 PDF';
  else {
    try {
      inflateSync(raw.contents, { maxOutputLength: MAX_STRUCTURE_BYTES });
    } catch (error) {
      // A damaged stream is pdf-lib's to judge: it reads what it can.
      if (isTooLarge(error)) refusal = 'PDF 文件内容异常（解压后过大），无法读取';
    }
  }
  if (refusal) {
    refusedWhileLoading.set(raw.dict.context, refusal);
    throw new PdfRefused(refusal);
  }
}

for (const Parser of [PDFObjectStreamParser, PDFXRefStreamParser] as { forStream: (raw: PDFRawStream, ...rest: never[]) => unknown }[]) {
  const forStream = Parser.forStream;
  Parser.forStream = (raw, ...rest) => {
    checkStructureStream(raw);
    return forStream(raw, ...rest);
  };
}

async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true });
  } catch (error) {
    if (error instanceof PdfRefused) throw error;
    throw new PdfRefused('无法读取 PDF 文件，文件可能已损坏或加密');
  }
  const refusal = refusedWhileLoading.get(doc.context);
  if (refusal) throw new PdfRefused(refusal);
  if (doc.getPageCount() > MAX_PDF_PAGES) throw new PdfRefused(`PDF 页数过多（${doc.getPageCount()} 页），单个文件最多 ${MAX_PDF_PAGES} 页，请分成几个文件上传`);
  return doc;
}

/** The largest image of each page (a scanned page is one image), or null for a page without one. */
function pageScans(doc: PDFDocument): (PDFRawStream | null)[] {
  return doc.getPages().map((page) => {
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
    return best;
  });
}

/**
 * A page image's bytes as an image file (JPEG as stored, raw pixels as PNG; with `encode` false,
 * only checked), or why the page cannot be read. An image over the pixel limit, or whose pixels
 * unpack to more than its size, refuses the whole file: that is a bomb, not a bad page.
 */
async function imageBytes(stream: PDFRawStream, page: number, encode: boolean): Promise<Buffer | string> {
  const d = stream.dict;
  const filter = name(d, 'Filter');
  const width = num(d, 'Width');
  const height = num(d, 'Height');
  const refuse = (reason: string) => new PdfRefused(`PDF 第 ${page} 页：${reason}`);
  if (width * height > MAX_IMAGE_PIXELS) throw refuse(new ImageTooLarge(width, height).message);
  if (filter === '/DCTDecode') {
    const jpeg = Buffer.from(stream.contents.buffer, stream.contents.byteOffset, stream.contents.byteLength);
    try {
      await checkImageSize(jpeg);
    } catch (error) {
      if (error instanceof ImageTooLarge) throw refuse(error.message);
      return '扫描图像已损坏';
    }
    return jpeg;
  }
  if (filter === '/FlateDecode') {
    if (num(d, 'BitsPerComponent') !== 8) return '仅支持 8 位灰度或彩色的扫描图像';
    const cs = name(d, 'ColorSpace');
    const channels = cs === '/DeviceGray' ? 1 : cs === '/DeviceRGB' ? 3 : 0;
    if (!channels) return `不支持的颜色空间 ${cs ?? ''}`;
    const expected = width * height * channels;
    let raw: Buffer;
    try {
      // Room for a predictor byte per row; anything beyond the image's own size is refused.
      raw = inflateSync(stream.contents, { maxOutputLength: expected + height + 1024 });
    } catch (error) {
      if (isTooLarge(error)) throw refuse('扫描图像数据异常（解压后远大于图像尺寸），请重新扫描后上传');
      return '扫描图像数据已损坏';
    }
    if (raw.length < expected) return '扫描图像数据不完整';
    if (!encode) return raw.subarray(0, 0);
    return sharp(raw, { raw: { width, height, channels }, limitInputPixels: MAX_IMAGE_PIXELS }).png({ compressionLevel: 1 }).toBuffer();
  }
  return `不支持的图像压缩格式 ${filter ?? '（无）'}`;
}

/**
 * Each page's scanned image; a page that cannot be read is reported on its own. A PdfRefused is
 * thrown when the file as a whole cannot be read. Pages showing the same image share its bytes.
 */
export async function pdfPageImages(bytes: Uint8Array): Promise<PdfPage[]> {
  const doc = await loadPdf(bytes);
  const decoded = new Map<PDFRawStream, Buffer | string>();
  const out: PdfPage[] = [];
  for (const [i, scan] of pageScans(doc).entries()) {
    const page = i + 1;
    if (!scan) {
      out.push({ page, error: `PDF 第 ${page} 页不是扫描图像，请上传扫描件或照片` });
      continue;
    }
    if (!decoded.has(scan)) decoded.set(scan, await imageBytes(scan, page, true));
    const img = decoded.get(scan)!;
    out.push(typeof img === 'string' ? { page, error: `PDF 第 ${page} 页：${img}` } : { page, image: img });
  }
  return out;
}

/**
 * The whole-file checks of pdfPageImages without producing any image, to refuse an upload at
 * once: the reason, or null. Pages that merely cannot be read are left to grading to report.
 */
export async function checkPdf(bytes: Uint8Array): Promise<string | null> {
  try {
    const doc = await loadPdf(bytes);
    const seen = new Set<PDFRawStream>();
    for (const [i, scan] of pageScans(doc).entries()) {
      if (!scan || seen.has(scan)) continue;
      seen.add(scan);
      await imageBytes(scan, i + 1, false);
    }
    return null;
  } catch (error) {
    if (error instanceof PdfRefused) return error.message;
    // pdf-lib trusts the file's structure: a catalog without pages, a page tree that loops or a
    // number where a dictionary belongs throws from deep inside it. That is the file's fault.
    return '无法读取 PDF 文件，文件可能已损坏或加密';
  }
}
