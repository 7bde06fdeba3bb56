import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import subsetFont from 'subset-font';
import type { PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib';

/**
 * The fonts of a report's PDF (server/reports/reportPdf.ts): Noto Sans SC from @fontsource/noto-sans-sc,
 * which ships the font cut by unicode-range into about a hundred WOFF2 files (latin, latin-ext, one
 * file per slice of CJK, ...). Each character is drawn with the first file whose range holds it
 * (latin first, so an English report needs one file); a document embeds only the files its text
 * uses, each cut to the characters used by subset-font (harfbuzz) as TrueType first: pdf-lib's own
 * `subset: true` copies WOFF2's transformed glyf table as is and draws broken glyphs. The files'
 * bytes are read once per process; a character no file holds is written as "?".
 */

const require = createRequire(import.meta.url);
const PACKAGE_DIR = dirname(require.resolve('@fontsource/noto-sans-sc/package.json'));
const WEIGHT = 400;

interface Slice {
  key: string;
  ranges: [number, number][];
}

let slices: Slice[] | undefined;
const fileBytes = new Map<string, Buffer>();

/** The package's slices (unicode.json: "[12]" or "latin" to "U+4e00-4e0f,U+4e11,..."), latin first. */
function allSlices(): Slice[] {
  if (slices) return slices;
  const map = JSON.parse(readFileSync(join(PACKAGE_DIR, 'unicode.json'), 'utf8')) as Record<string, string>;
  const order = (key: string) => (key === 'latin' ? 0 : key === 'latin-ext' ? 1 : key.startsWith('[') ? 2 : 3);
  slices = Object.entries(map)
    .map(([key, text]) => ({
      key: key.replace(/[[\]]/g, ''),
      ranges: text.split(',').map((part): [number, number] => {
        const [lo, hi] = part.trim().replace(/^U\+/i, '').split('-');
        const from = parseInt(lo!, 16);
        return [from, hi ? parseInt(hi, 16) : from];
      }),
    }))
    .sort((a, b) => order(a.key) - order(b.key));
  return slices;
}

const sliceCache = new Map<number, string | null>();

/** The slice that draws a code point, or null when none holds it. */
export function sliceOf(codePoint: number): string | null {
  const cached = sliceCache.get(codePoint);
  if (cached !== undefined) return cached;
  const found = allSlices().find((s) => s.ranges.some(([lo, hi]) => codePoint >= lo && codePoint <= hi))?.key ?? null;
  sliceCache.set(codePoint, found);
  return found;
}

function bytesOf(key: string): Buffer {
  let bytes = fileBytes.get(key);
  if (!bytes) {
    bytes = readFileSync(join(PACKAGE_DIR, 'files', `noto-sans-sc-${key}-${WEIGHT}-normal.woff2`));
    fileBytes.set(key, bytes);
  }
  return bytes;
}

/** A piece of text drawn with one font. */
interface Run {
  text: string;
  key: string;
}

/** A document's text writer: it splits text into runs by slice, embeds the slices used, measures and draws. */
export class PdfText {
  private readonly fonts = new Map<string, PDFFont>();
  private readonly runCache = new Map<string, Run[]>();

  /** A writer for `doc` that can draw every character of `texts` (the slices they need are embedded now). */
  static async create(doc: PDFDocument, texts: Iterable<string>): Promise<PdfText> {
    doc.registerFontkit(fontkit);
    const writer = new PdfText();
    const chars = new Map<string, Set<string>>([['latin', new Set('?…')]]);
    for (const text of texts)
      for (const ch of text) {
        const key = sliceOf(ch.codePointAt(0)!);
        if (!key) continue;
        if (!chars.has(key)) chars.set(key, new Set());
        chars.get(key)!.add(ch);
      }
    for (const [key, used] of chars) {
      // Without the layout tables: our text needs no ligatures or contextual forms, and fontkit then
      // maps characters to glyphs directly instead of shaping each string (a 10,000-vessel PDF: 3.3-4.1 s -> 1.5-2.1 s).
      const cut = await subsetFont(bytesOf(key), [...used].join(''), {
        targetFormat: 'sfnt',
        noLayoutClosure: true,
        dropTables: ['GSUB', 'GPOS', 'GDEF'],
      });
      writer.fonts.set(key, await doc.embedFont(cut, { subset: true }));
    }
    return writer;
  }

  private runs(text: string): Run[] {
    const cached = this.runCache.get(text);
    if (cached) return cached;
    const runs: Run[] = [];
    for (const ch of text) {
      let key = sliceOf(ch.codePointAt(0)!);
      let piece = ch;
      if (!key || !this.fonts.has(key)) [key, piece] = ['latin', '?'];
      const last = runs[runs.length - 1];
      if (last && last.key === key) last.text += piece;
      else runs.push({ text: piece, key });
    }
    if (this.runCache.size < 50_000) this.runCache.set(text, runs);
    return runs;
  }

  width(text: string, size: number): number {
    return this.runs(text).reduce((sum, r) => sum + this.fonts.get(r.key)!.widthOfTextAtSize(r.text, size), 0);
  }

  /** The text cut with "…" to fit `maxWidth`. */
  fit(text: string, size: number, maxWidth: number): string {
    if (this.width(text, size) <= maxWidth) return text;
    const chars = [...text];
    while (chars.length && this.width(chars.join('') + '…', size) > maxWidth) chars.pop();
    return chars.join('') + '…';
  }

  draw(page: PDFPage, text: string, x: number, y: number, size: number, color: RGB, align: 'left' | 'right' | 'center' = 'left') {
    const width = align === 'left' ? 0 : this.width(text, size);
    let at = align === 'right' ? x - width : align === 'center' ? x - width / 2 : x;
    for (const r of this.runs(text)) {
      const font = this.fonts.get(r.key)!;
      page.drawText(r.text, { x: at, y, size, font, color });
      at += font.widthOfTextAtSize(r.text, size);
    }
  }
}
