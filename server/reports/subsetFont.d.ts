/** The part of subset-font (harfbuzz's hb-subset as wasm; it ships no types) that server/reports/reportPdfFonts.ts uses. */
declare module 'subset-font' {
  interface SubsetOptions {
    targetFormat?: 'sfnt' | 'woff' | 'woff2';
    noLayoutClosure?: boolean;
    /** OpenType table tags left out of the subset. */
    dropTables?: string[];
  }
  export default function subsetFont(font: Buffer, text: string, options?: SubsetOptions): Promise<Buffer>;
}
