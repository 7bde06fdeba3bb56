import { describe, expect, it } from 'vitest';
import { trackLinks } from '../../server/modules/monitoring/linkTracker';
import type { ReportLink } from '../../src/domain/links';

const HOUR = 3_600_000;
const geo: ReportLink = { id: 'vsat1', kind: 'geo', state: 'up', active: true, latencyMs: 600 };
const lte: ReportLink = { id: 'lte1', kind: 'cellular', state: 'standby', active: false };

describe('the link tracker', () => {
  it('ends an hour once per link, also when a link is gone and back within it (one statement writes each hour row once)', () => {
    const t0 = 10 * HOUR;
    const at = (m: number) => t0 + m * 60_000;
    // 4G is listed, missing from one report, listed again, then the hour ends.
    const update = trackLinks(
      [],
      [
        { ms: at(0), links: [geo, lte] },
        { ms: at(5), links: [geo] },
        { ms: at(10), links: [geo, lte] },
        { ms: at(15), links: [geo, lte] },
        { ms: at(65), links: [geo, lte] },
      ],
    );
    const ended = update.hours.map((h) => `${h.hourStart / HOUR}:${h.linkId}`);
    expect(new Set(ended).size).toBe(ended.length);
    const lteHour = update.hours.find((h) => h.linkId === 'lte1' && h.hourStart === t0)!;
    // Standby 0-5 (gone 5-10: its time there is no link's) and 10-15 (then a 50-minute silence counts to none).
    expect(lteHour).toMatchObject({ standby: 600, samples: 3 });
    const geoHour = update.hours.find((h) => h.linkId === 'vsat1' && h.hourStart === t0)!;
    expect(geoHour).toMatchObject({ up: 900, active: 900, samples: 4, latency: [4, 2400] });
    // The new hour is in progress, carried on the current links.
    expect(update.current.map((l) => [l.linkId, l.acc?.hourStart, l.acc?.samples])).toEqual([
      ['vsat1', t0 + HOUR, 1],
      ['lte1', t0 + HOUR, 1],
    ]);
  });
});
