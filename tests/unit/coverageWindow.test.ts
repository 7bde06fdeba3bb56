import { describe, expect, it } from 'vitest';
import { windowRows } from '../../server/modules/vessel/coverageQueries';

describe('a coverage window read as whole weeks and the days either side', () => {
  it('takes the Monday-to-Sunday weeks inside the window from the weekly rows, the rest from the days', () => {
    // Wednesday 4 November to Wednesday 2 December 2026.
    expect(windowRows('$1', '2026-11-04', '2026-12-02', 2).params).toEqual([
      '2026-11-09', // first whole week's Monday
      '2026-11-23', // last whole week's Monday (its Sunday is 29 November)
      '2026-11-04',
      '2026-11-08',
      '2026-11-30',
      '2026-12-02',
    ]);
    // A window from a Monday to a Sunday is weeks alone: both day ranges are empty.
    const [, , c, d, e, f] = windowRows('$1', '2026-11-02', '2026-11-29', 2).params;
    expect(c! > d! && e! > f!).toBe(true);
  });

  it('reads a window without a whole week from the days alone', () => {
    const p = windowRows('$1', '2026-11-24', '2026-11-30', 7).params;
    expect(p[0]! > p[1]!).toBe(true);
    expect(p.slice(2, 4)).toEqual(['2026-11-24', '2026-11-30']);
    expect(windowRows('$1', '2026-11-24', '2026-11-30', 7).sql).toContain('$12::date');
  });
});
