// Small files that unpack to enormous ones, made without ever holding the enormous one: the
// uploads a server must refuse without taking its memory or its event loop with them.
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';
import { zip } from './school';

const MB = 1024 * 1024;

/**
 * A raw deflate stream of `bytes` zero bytes, about 1 KB per MB: a flushed block of a megabyte
 * of zeros repeated (it refers back only to zeros), the remainder, then an empty final block.
 */
export function deflatedZeros(bytes: number): Buffer {
  const flush = { finishFlush: constants.Z_SYNC_FLUSH };
  const block = deflateRawSync(Buffer.alloc(MB), flush);
  const rest = bytes % MB ? [deflateRawSync(Buffer.alloc(bytes % MB), flush)] : [];
  return Buffer.concat([...Array.from({ length: Math.floor(bytes / MB) }, () => block), ...rest, Buffer.from([0x03, 0x00])]);
}

/** The same zeros in the zlib wrapper that PDF and PNG streams use. */
export function zlibZeros(bytes: number): Buffer {
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE((((bytes % 65521) << 16) | 1) >>> 0); // Adler-32 of zeros
  return Buffer.concat([Buffer.from([0x78, 0x9c]), deflatedZeros(bytes), trailer]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** A valid black greyscale PNG of any size, a few hundred KB even at 16000×16000. */
export function blackPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth; colour type 0 (grey), no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlibZeros(height * (width + 1))), // filter byte 0 and black pixels: all zeros
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A one-page "scan" whose image stream inflates to `megabytes` MB, declaring `width`×`height`
 * grey pixels; or, with `objectStream`, a tiny page plus an object stream that inflates to that
 * much as the PDF is loaded.
 */
export async function pdfBomb({ width, height, megabytes, objectStream = false }: { width: number; height: number; megabytes: number; objectStream?: boolean }): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const dict = (entries: Record<string, string | number>) =>
    doc.context.obj(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, typeof v === 'number' ? PDFNumber.of(v) : PDFName.of(v)])));
  const bomb = zlibZeros(megabytes * MB);
  const image = objectStream ? zlibZeros(width * height) : bomb;
  const imageRef = doc.context.register(
    PDFRawStream.of(dict({ Type: 'XObject', Subtype: 'Image', Width: width, Height: height, ColorSpace: 'DeviceGray', BitsPerComponent: 8, Filter: 'FlateDecode', Length: image.length }), image),
  );
  page.node.setXObject(PDFName.of('Im0'), imageRef);
  if (objectStream) doc.context.register(PDFRawStream.of(dict({ Type: 'ObjStm', N: 1, First: 10, Filter: 'FlateDecode', Length: bomb.length }), bomb));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/**
 * The import workbook of the incident: a valid xlsx of a few MB whose sheet holds `cells` cells,
 * `columns` per row, about 52 MB of XML at 1.9 million cells. `compact` writes the shortest cells
 * Excel reads (no reference, one digit), so 1.9 million of them stay under the unpacked-size limit.
 */
export function hugeWorkbook(cells: number, { columns = 380, compact = false } = {}): Buffer {
  const col = (i: number) => (i < 26 ? '' : String.fromCharCode(64 + Math.floor(i / 26))) + String.fromCharCode(65 + (i % 26));
  const header = ['姓名', '学号', '性别', '年级', '班级', '家长手机号'];
  const rows: string[] = [];
  for (let r = 1, n = 0; n < cells; r++) {
    const row: string[] = [];
    for (let c = 0; c < columns && n < cells; c++, n++) {
      const text = r === 1 ? (header[c] ?? `备注${c}`) : String((r * 7919 + c * 104729) % 1_000_000);
      if (r === 1) row.push(`<c r="${col(c)}${r}" t="inlineStr"><is><t>${text}</t></is></c>`);
      else row.push(compact ? `<c><v>${c % 10}</v></c>` : `<c r="${col(c)}${r}"><v>${text}</v></c>`);
    }
    rows.push(`<row r="${r}">${row.join('')}</row>`);
  }
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  return zip([
    { name: '[Content_Types].xml', data: Buffer.from('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>') },
    { name: 'xl/workbook.xml', data: Buffer.from(`<workbook ${ns} xmlns:r="${rel}"><sheets><sheet name="学生" sheetId="1" r:id="rId1"/></sheets></workbook>`) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`) },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(`<worksheet ${ns}><sheetData>${rows.join('')}</sheetData></worksheet>`) },
  ]);
}
