/**
 * Colour contrast by WCAG 2.1 (relative luminance, contrast ratio), so text drawn on a colour the
 * user picks or the data gives (a palette swatch, a state colour) stays readable: AA asks 4.5:1
 * for normal text.
 */

/** WCAG 2.1 AA for normal text. */
export const AA_TEXT = 4.5;

export const TEXT_ON_LIGHT = '#000000';
export const TEXT_ON_DARK = '#ffffff';

/** #rgb or #rrggbb as [r, g, b] in 0-255. */
function rgb(hex: string): [number, number, number] {
  const h = hex.trim().replace(/^#/, '');
  const full =
    h.length === 3
      ? h
          .split('')
          .map((c) => c + c)
          .join('')
      : h;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** Relative luminance (WCAG 2.1, 0 black to 1 white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Black or white, whichever reads better on `background`. Every colour has at least 4.58:1 with
 * one of the two, so the choice always meets AA for normal text.
 */
export function readableTextOn(background: string): string {
  return contrastRatio(background, TEXT_ON_LIGHT) >= contrastRatio(background, TEXT_ON_DARK) ? TEXT_ON_LIGHT : TEXT_ON_DARK;
}
