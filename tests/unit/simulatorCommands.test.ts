import { describe, expect, it } from 'vitest';
import { SimFleet } from '../../server/simulator/fleet';
import { lookAngles } from '../../server/simulator/satellites';
import { skyAt } from '../../server/simulator/sky';
import { SATELLITES } from '../../src/domain/satellites';

const T0 = Date.UTC(2026, 10, 23, 12);
const NUM = 'A0000001';
/** A fleet of one vessel (index 0: Shanghai - Singapore), advanced in 10 s rounds from T0. */
function oneVessel() {
  const fleet = new SimFleet([{ deviceNum: NUM, secret: 's' }], 7, T0);
  let now = T0;
  const round = (seconds = 10) => {
    now += seconds * 1000;
    return fleet.tick(now).find((r) => r.device.deviceNum === NUM)?.reports ?? [];
  };
  return { fleet, round, now: () => now };
}

describe('simulated vessels obey commands', () => {
  it('acknowledges a reboot, goes silent for 30-90 s, then reports again', () => {
    const { fleet, round, now } = oneVessel();
    expect(round()).toHaveLength(1);
    const ack = fleet.obey(NUM, { id: 1, kind: 'reboot' }, now());
    expect(ack).toMatchObject({ id: 1, ok: true });
    const downFor = (ack.data as { downForS: number }).downForS;
    expect(downFor).toBeGreaterThanOrEqual(30);
    expect(downFor).toBeLessThanOrEqual(90);
    expect(fleet.isSilent(NUM, now() + 1000)).toBe(true);
    // Delivered twice (QoS 1 is at least once): answered the same, not rebooted again.
    expect(fleet.obey(NUM, { id: 1, kind: 'reboot' }, now() + 5000)).toEqual(ack);
    let silentRounds = 0;
    while (round().length === 0) silentRounds += 1;
    expect(silentRounds).toBe(Math.ceil(downFor / 10) - 1);
    expect(fleet.isSilent(NUM, now())).toBe(false);
  });

  it('re-points to a named satellite above the horizon: the reports carry it and a signal that follows its elevation', () => {
    const { fleet, round, now } = oneVessel();
    const [before] = round();
    const here = [before!.lat, before!.lon] as const;
    const target = SATELLITES.filter((s) => s.name !== before!.satellite!.name)
      .map((s) => ({ ...s, elevation: lookAngles(here, s.longitude).elevation }))
      // Above 15° and a clear sky there (well inside a beam, no rain, not behind the mast: server/simulator/sky.ts), so the signal follows the elevation alone.
      .filter((s) => s.elevation > 15 && skyAt(s, here, { t: now(), heading: before!.heading, vesselIndex: 0 }).cause === 'clear')
      .sort((a, b) => a.elevation - b.elevation)[0]!;
    expect(target).toBeDefined();
    const ack = fleet.obey(NUM, { id: 2, kind: 'repoint', params: { satellite: target.name } }, now());
    expect(ack).toMatchObject({ id: 2, ok: true, data: { satellite: target.name } });
    const [reacquiring] = round();
    expect(reacquiring!.satellite!.name).toBe(target.name);
    expect(reacquiring!.modemLock).toBe(false);
    let report = reacquiring!;
    for (let i = 0; i < 6; i += 1) report = round()[0]!;
    expect(report.satellite!.name).toBe(target.name);
    expect(report.modemLock).toBe(true);
    expect(report.elevation).toBeCloseTo(lookAngles([report.lat, report.lon], target.longitude).elevation, 0);
    expect(report.signalLevel).toBeGreaterThanOrEqual(35 + report.elevation! * 0.7 - 5.1);
    expect(report.signalLevel).toBeLessThanOrEqual(35 + report.elevation! * 0.7 + 5.1);
  });

  it('refuses a re-point to an unknown satellite or one below the horizon, and keeps its satellite', () => {
    const { fleet, round, now } = oneVessel();
    const [before] = round();
    const here = [before!.lat, before!.lon] as const;
    const below = SATELLITES.find((s) => lookAngles(here, s.longitude).elevation < 0)!;
    expect(fleet.obey(NUM, { id: 3, kind: 'repoint', params: { satellite: 'Sputnik 1' } }, now())).toMatchObject({
      ok: false,
      message: 'unknown satellite Sputnik 1',
    });
    const refused = fleet.obey(NUM, { id: 4, kind: 'repoint', params: { satellite: below.name } }, now());
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/below the horizon/);
    expect(round()[0]!.satellite!.name).toBe(before!.satellite!.name);
  });

  it('reports at the interval it is set to, and answers diagnostics and a firmware check', () => {
    const { fleet, round, now } = oneVessel();
    const [first] = round();
    expect(fleet.obey(NUM, { id: 5, kind: 'setInterval', params: { seconds: 60 } }, now())).toMatchObject({
      ok: true,
      data: { seconds: 60 },
    });
    const reporting = Array.from({ length: 18 }, () => round().length > 0);
    expect(reporting.filter(Boolean)).toHaveLength(3);
    expect(fleet.obey(NUM, { id: 6, kind: 'setInterval', params: { seconds: 1 } }, now()).ok).toBe(false);

    const diagnostics = fleet.obey(NUM, { id: 7, kind: 'diagnostics' }, now());
    expect(diagnostics.ok).toBe(true);
    expect(diagnostics.data).toMatchObject({
      pointing: 'auto',
      reportIntervalS: 60,
      satellite: expect.any(String),
      uptimeS: expect.any(Number),
      faults: expect.any(Array),
    });
    expect(fleet.obey(NUM, { id: 8, kind: 'firmwareCheck' }, now())).toEqual({ id: 8, ok: true, data: first!.firmware });
    expect(fleet.obey(NUM, { id: 9, kind: 'selfDestruct' }, now()).ok).toBe(false);
    expect(fleet.obey('FFFFFFFF', { id: 10, kind: 'reboot' }, now())).toMatchObject({ ok: false, message: 'unknown device' });
  });
});
