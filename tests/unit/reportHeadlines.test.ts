import { describe, expect, it } from 'vitest';
import { headlines } from '../../server/reports/reportHeadlines';
import type { ReportFigures } from '../../server/reports/reportFigures';

const figures: ReportFigures = {
  vessels: 10_000,
  availability: {
    periodSeconds: 31 * 86_400,
    vessels: [],
    counted: 10_000,
    onlineSeconds: 7_333_980 * 3600,
    warnSeconds: 0,
    availability: 0.9857,
    days: [],
    links: [],
  },
};

describe('report headlines', () => {
  it('write large figures with their thousands grouped, in both languages, and the availability as a percentage', () => {
    for (const lang of ['en', 'zh'] as const) {
      const [vessels, availability, online] = headlines(lang, figures);
      expect(vessels!.text).toBe('10,000');
      expect(vessels!.value).toBe(10_000);
      expect(availability!.text).toBe('98.6%');
      expect(online!.text).toBe('7,333,980');
    }
  });
});
