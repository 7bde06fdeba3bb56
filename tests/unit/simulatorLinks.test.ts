import { describe, expect, it } from 'vitest';
import { SimVessel } from '../../server/simulator/vessel';
import { hasLeo, vboxLinks } from '../../server/simulator/vesselLinks';
import { trackLinks } from '../../server/modules/monitoring/linkTracker';
import { reportSchema } from '../../src/domain/reportSchema';

const locked = { lock: true, signal: 70, snr: 11 };
const lost = { lock: false, signal: 5, snr: -2 };
const active = (links: { id: string; active: boolean }[]) => links.filter((l) => l.active).map((l) => l.id);

describe("the simulator's vBox links", () => {
  it('sends the traffic over GEO while it holds lock, else LEO unless obstructed, else 4G near the coast', () => {
    const index = 1;
    expect(hasLeo(index)).toBe(true);
    const at = Date.UTC(2026, 10, 1, 12);
    // A time whose 5-minute slot is not obstructed, and one that is.
    const slots = Array.from({ length: 400 }, (_, i) => at + i * 5 * 60_000);
    const clear = slots.find((t) => vboxLinks(index, t, lost, null).find((l) => l.id === 'leo1')!.state !== 'down')!;
    const blocked = slots.find((t) => vboxLinks(index, t, lost, null).find((l) => l.id === 'leo1')!.state === 'down')!;
    expect(blocked).toBeDefined();
    expect(active(vboxLinks(index, clear, locked, null))).toEqual(['vsat1']);
    expect(active(vboxLinks(index, clear, lost, null))).toEqual(['leo1']);
    expect(active(vboxLinks(index, blocked, lost, -80))).toEqual(['lte1']);
    expect(vboxLinks(index, blocked, lost, null).find((l) => l.id === 'leo1')!.obstructionPct).toBeGreaterThanOrEqual(25);
    // GEO lost, LEO obstructed, at sea: no link carries the traffic.
    expect(active(vboxLinks(index, blocked, lost, null))).toEqual([]);
    // A vBox without a LEO terminal reports two links.
    expect(hasLeo(0)).toBe(false);
    expect(vboxLinks(0, clear, locked, -80).map((l) => [l.id, l.kind])).toEqual([
      ['vsat1', 'geo'],
      ['lte1', 'cellular'],
    ]);
  });

  it('reports valid links from a vBox only, and fails over and back over a simulated day', () => {
    const start = Date.UTC(2026, 10, 1);
    const reasons = new Set<string>();
    let failovers = 0;
    for (let index = 0; index < 6; index++) {
      const vessel = new SimVessel(index, 1, start, undefined, 'vbox');
      const reports = [];
      for (let n = 1; n <= 8640; n++) reports.push(...vessel.tick(start + n * 10_000));
      for (const r of reports.slice(0, 50)) expect(reportSchema.validateSync(r, { strict: true })).toBeTruthy();
      expect(reports.every((r) => r.links && r.links.length === (hasLeo(index) ? 3 : 2))).toBe(true);
      const update = trackLinks(
        [],
        reports.map((r) => ({ ms: Date.parse(r.deviceTime), links: r.links })),
      );
      failovers += update.failovers.length;
      for (const f of update.failovers) reasons.add(f.reason);
    }
    expect(failovers).toBeGreaterThan(10);
    expect([...reasons].sort()).toEqual(expect.arrayContaining(['lockLost', 'restored']));
    const vsat = new SimVessel(0, 1, start, undefined, 'vsat');
    expect(vsat.tick(start + 10_000)[0]!.links).toBeUndefined();
  });
});
