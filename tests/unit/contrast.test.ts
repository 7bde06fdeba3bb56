import { describe, expect, it } from 'vitest';
import { AA_TEXT, contrastRatio, readableTextOn, relativeLuminance } from '../../src/theme/contrast';
import { PALETTES } from '../../src/theme/palettes';
import { STATE_COLOURS } from '../../src/map/vesselStyle';

/** Text drawn on a palette's or a state's colour meets WCAG 2.1 AA (4.5:1). */
describe('colour contrast (WCAG 2.1)', () => {
  it('computes relative luminance and contrast as WCAG defines them', () => {
    expect(relativeLuminance('#000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 10);
    // WebAIM's checker: #767676 on white is 4.54:1, the lightest grey that passes AA.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(() => relativeLuminance('teal')).toThrow(/not a #rrggbb colour/);
  });

  it('picks black or white, whichever reads better, and it always passes AA', () => {
    expect(readableTextOn('#ffffff')).toBe('#000000');
    expect(readableTextOn('#0b2a45')).toBe('#ffffff');
    expect(readableTextOn('#13a8a8')).toBe('#000000'); // white on it is 2.9:1
    for (let v = 0; v < 256; v += 5) {
      const hex = `#${[v, 255 - v, (v * 7) % 256].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
      expect(contrastRatio(hex, readableTextOn(hex)), hex).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });

  it('every preset palette and every state colour has readable text', () => {
    for (const colour of [...PALETTES.map((p) => p.primary), ...Object.values(STATE_COLOURS)]) {
      expect(contrastRatio(colour, readableTextOn(colour)), colour).toBeGreaterThanOrEqual(AA_TEXT);
    }
  });
});
