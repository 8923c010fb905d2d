// File types by their first bytes, never by the name a user gave: a renamed .exe stays an .exe.
export interface DetectedType {
  mime: string;
  /** The extension this content should carry. */
  ext: string;
  /** Shown inline by browsers (preview); everything else is download-only. */
  previewable: boolean;
}

const startsWith = (buf: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => buf[offset + i] === b);
const ascii = (buf: Buffer, text: string, offset = 0) => buf.subarray(offset, offset + text.length).toString('latin1') === text;

const OOXML: Record<string, { mime: string; dir: string }> = {
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', dir: 'word/' },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', dir: 'xl/' },
  pptx: { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', dir: 'ppt/' },
};
const OLE: Record<string, string> = { doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint' };

/** Names of the entries in a zip's local headers within `head` (enough to tell OOXML apart). */
function zipEntryNames(head: Buffer): string[] {
  const names: string[] = [];
  let at = 0;
  while (at + 30 <= head.length && head.readUInt32LE(at) === 0x04034b50) {
    const compressed = head.readUInt32LE(at + 18);
    const nameLength = head.readUInt16LE(at + 26);
    const extraLength = head.readUInt16LE(at + 28);
    names.push(head.subarray(at + 30, at + 30 + nameLength).toString('utf8'));
    const next = at + 30 + nameLength + extraLength + compressed;
    if (next <= at || head.readUInt16LE(at + 6) & 0x08) break; // sizes follow the data: stop here
    at = next;
  }
  return names;
}

/**
 * The type of a file from its first bytes. Container formats (zip, OLE) say only "an office
 * file", so the claimed extension picks which one, and only among the office family.
 */
export function detectType(head: Buffer, fileName = ''): DetectedType | undefined {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  if (ascii(head, '%PDF-')) return { mime: 'application/pdf', ext: 'pdf', previewable: true };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png', previewable: true };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg', previewable: true };
  if (ascii(head, 'GIF87a') || ascii(head, 'GIF89a')) return { mime: 'image/gif', ext: 'gif', previewable: true };
  if (ascii(head, 'RIFF') && ascii(head, 'WEBP', 8)) return { mime: 'image/webp', ext: 'webp', previewable: true };
  if (ascii(head, 'ftyp', 4) && ['isom', 'mp41', 'mp42', 'avc1', 'M4V '].some((brand) => ascii(head, brand, 8))) {
    return { mime: 'video/mp4', ext: 'mp4', previewable: false };
  }
  if (ascii(head, 'ID3') || startsWith(head, [0xff, 0xfb])) return { mime: 'audio/mpeg', ext: 'mp3', previewable: false };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    const kind = OOXML[ext];
    const names = zipEntryNames(head);
    const isOffice = names.some((n) => n === '[Content_Types].xml' || n.startsWith('_rels/') || n.startsWith('docProps/') || Object.values(OOXML).some((o) => n.startsWith(o.dir)));
    if (kind && isOffice) return { mime: kind.mime, ext, previewable: false };
    return undefined;
  }
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    return OLE[ext] ? { mime: OLE[ext], ext, previewable: false } : undefined;
  }
  return undefined;
}

export const ALLOWED_TYPES_TEXT = 'PDF、图片（PNG/JPG/GIF/WEBP）、Word、Excel、PowerPoint、MP4、MP3';
