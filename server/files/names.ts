// The names users give their files, made safe to store and to show: a name is displayed in lists
// and sent back in Content-Disposition, so it must not carry a path, control characters, or the
// invisible bidi controls that make `invoice\u202Efdp.exe` look like `invoiceexe.pdf`.

/** Control, format (bidi overrides, zero-width) and line/paragraph separator characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** Half of a surrogate pair on its own: no character at all, and not encodable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// A file's name is not refused for these (the file is what the user wants to upload): they are dropped.
export const withoutInvisible = (text: string) => text.replace(INVISIBLE, '').replace(LONE_SURROGATE, '');

/** A base name safe for headers, lists and disks: no path, no invisible or reserved characters, bounded length. */
export function safeFileName(raw: string, maxLength = 120): string {
  const base = withoutInvisible(raw).split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/["<>|:*?]/g, '').trim();
  return [...clean].slice(-maxLength).join('') || '未命名文件';
}

/** A name without its extension. */
export const stem = (fileName: string) => fileName.replace(/\.[^.]*$/, '');

/**
 * The name a stored upload keeps: the user's name, made safe, with the extension of what its bytes
 * are (a PNG sent as `x.html` is kept as `x.png`), so a download never carries a misleading type.
 */
export function storedFileName(raw: string, ext: string, maxLength = 120): string {
  return `${stem(safeFileName(raw, maxLength))}.${ext}`;
}
