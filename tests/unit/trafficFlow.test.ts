import { describe, expect, it } from 'vitest';
import { latLngToCell } from 'h3-js';
import { DEGRADE_RES, degradeAhead, projectPath, type CellFigures } from '../../src/domain/degradeAhead';
import { FLOW_MIN_SAMPLES, flowCell, flowHeading, flowSector, headingVector, type FlowFigures } from '../../src/domain/trafficFlow';

// A lane in the South China Sea: east along the equator from 100° E for half a degree, then
// bending 40° to the north-east. Sailed both ways, 10 reports every 0.02° of it.
const traffic = new Map<string, FlowFigures>();
const add = (lat: number, lon: number, heading: number, n = 10) => {
  const key = `${flowCell(lat, lon)}|${flowSector(heading)}`;
  const f = traffic.get(key) ?? { samples: 0, east: 0, north: 0 };
  const v = headingVector(heading);
  traffic.set(key, { samples: f.samples + n, east: f.east + n * v.east, north: f.north + n * v.north });
};
for (let x = 0; x <= 0.5; x += 0.02) [90, 270].forEach((h) => add(0, 100 + x, h));
const NE = (50 * Math.PI) / 180;
for (let d = 0; d <= 3; d += 0.02) [50, 230].forEach((h) => add(d * Math.cos(NE), 100.5 + d * Math.sin(NE), h));
const flow = (cell: string, sector: number) => traffic.get(`${cell}|${sector}`);
const VESSEL = { lat: 0, lon: 100.02, heading: 90, speedKn: 15, satellite: 'AsiaSat 7', hasBackup: false };

describe("the fleet's lanes", () => {
  it('follows the traffic going its way, not the other way, and says nothing on too few reports', () => {
    expect(flowHeading(flow, flowCell(0, 100.1), 95)).toBeCloseTo(90, 5);
    expect(flowHeading(flow, flowCell(0, 100.1), 265)).toBeCloseTo(270, 5);
    // Nobody sails that way here: straight on.
    expect(flowHeading(flow, flowCell(0, 100.1), 0)).toBeNull();
    const few = (cell: string, sector: number) => {
      const f = flow(cell, sector);
      return f && { samples: FLOW_MIN_SAMPLES - 1, east: f.east, north: f.north };
    };
    expect(flowHeading(few, flowCell(0, 100.1), 90)).toBeNull();
  });

  it("projects the path round the lane's bend, where a straight line goes on east", () => {
    const straight = projectPath(VESSEL.lat, VESSEL.lon, VESSEL.heading, VESSEL.speedKn).at(-1)!.at;
    const along = projectPath(VESSEL.lat, VESSEL.lon, VESSEL.heading, VESSEL.speedKn, flow).at(-1)!.at;
    // 15 kn for 6 h: 1.5° east on a straight line; on the lane, about 1° along its bend: 0.6° north.
    expect(straight[0]).toBeCloseTo(0, 1);
    expect(straight[1]).toBeCloseTo(101.52, 1);
    expect(along[0]).toBeGreaterThan(0.5);
    expect(along[1]).toBeLessThan(101.4);
  });

  it('warns of a poor cell on the lane past its bend, and not of one on the straight line it does not sail', () => {
    const at = (path: ReturnType<typeof projectPath>) => {
      const p = path.at(-2)!.at;
      return latLngToCell(p[0], p[1], DEGRADE_RES);
    };
    const onLane = at(projectPath(VESSEL.lat, VESSEL.lon, VESSEL.heading, VESSEL.speedKn, flow));
    const offLane = at(projectPath(VESSEL.lat, VESSEL.lon, VESSEL.heading, VESSEL.speedKn));
    const coverage =
      (poor: string) =>
      (satellite: string, cell: string): CellFigures | undefined =>
        satellite !== 'AsiaSat 7'
          ? undefined
          : cell === poor
            ? { samples: 200, lockedPct: 40, medianSnr: 3 }
            : { samples: 200, lockedPct: 99, medianSnr: 11 };
    expect(degradeAhead(VESSEL, coverage(onLane), undefined, flow)).toMatchObject({ cell: onLane });
    expect(degradeAhead(VESSEL, coverage(onLane))).toBeNull();
    expect(degradeAhead(VESSEL, coverage(offLane), undefined, flow)).toBeNull();
    expect(degradeAhead(VESSEL, coverage(offLane))).toMatchObject({ cell: offLane });
  });
});
