import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import type { Font } from '@pdf-lib/fontkit';

// Noto Sans SC covers far beyond GB2312, so rare name characters (喆 堃 昇 玥) print. The kai-style
// Ma Shan Zheng font stands in for a child's handwriting in the test corpus and benchmark.
const require = createRequire(import.meta.url);

function fontFile(pkg: string, file: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), file);
}

export const FONT_FILES = {
  sans: () => fontFile('@expo-google-fonts/noto-sans-sc', '400Regular/NotoSansSC_400Regular.ttf'),
  kai: () => fontFile('@expo-google-fonts/ma-shan-zheng', '400Regular/MaShanZheng_400Regular.ttf'),
};
export type FontName = keyof typeof FONT_FILES;

const bytesCache = new Map<FontName, Uint8Array>();
const fontCache = new Map<FontName, Font>();

export function fontBytes(name: FontName): Uint8Array {
  let b = bytesCache.get(name);
  if (!b) {
    b = readFileSync(FONT_FILES[name]());
    bytesCache.set(name, b);
  }
  return b;
}

export function loadFont(name: FontName): Font {
  let f = fontCache.get(name);
  if (!f) {
    f = fontkit.create(fontBytes(name));
    fontCache.set(name, f);
  }
  return f;
}

/** Characters of `text` the font cannot draw (they would print as empty boxes). */
export function missingGlyphs(text: string, name: FontName = 'sans'): string[] {
  const font = loadFont(name);
  return [...new Set([...text])].filter((ch) => !/\s/.test(ch) && !font.hasGlyphForCodePoint(ch.codePointAt(0)!));
}

const pathCache = new Map<string, { d: string; advance: number }>();

function glyphPath(name: FontName, ch: string): { d: string; advance: number } {
  const key = name + ch;
  let g = pathCache.get(key);
  if (!g) {
    const font = loadFont(name);
    const glyph = font.glyphForCodePoint(ch.codePointAt(0)!);
    g = { d: glyph.path.toSVG(), advance: glyph.advanceWidth };
    pathCache.set(key, g);
  }
  return g;
}

/** Width of `text` at `size` (same unit as size). */
export function textWidth(text: string, size: number, name: FontName = 'sans'): number {
  const upm = loadFont(name).unitsPerEm;
  let w = 0;
  for (const ch of text) w += glyphPath(name, ch).advance;
  return (w * size) / upm;
}

/**
 * SVG for `text` as glyph outlines, baseline at (x, y). Outlines rather than <text> so that
 * rasterising never depends on which fonts the machine happens to have.
 */
export function textToSvg(
  text: string,
  x: number,
  y: number,
  size: number,
  opts: { font?: FontName; anchor?: 'start' | 'middle'; fill?: string } = {},
): string {
  const name = opts.font ?? 'sans';
  const scale = size / loadFont(name).unitsPerEm;
  let pen = opts.anchor === 'middle' ? x - textWidth(text, size, name) / 2 : x;
  const parts: string[] = [];
  for (const ch of text) {
    const g = glyphPath(name, ch);
    if (g.d) parts.push(`<path transform="translate(${pen.toFixed(3)} ${y.toFixed(3)}) scale(${scale.toFixed(6)} ${(-scale).toFixed(6)})" d="${g.d}"/>`);
    pen += g.advance * scale;
  }
  return `<g fill="${opts.fill ?? '#000'}">${parts.join('')}</g>`;
}
