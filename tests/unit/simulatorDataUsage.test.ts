import { describe, expect, it } from 'vitest';
import { SimVessel } from '../../server/simulator/vessel';
import { backfillReports } from '../../server/simulator/backfill';
import { reportSchema } from '../../src/domain/reportSchema';
import { MAX_BYTES_PER_REPORT, MB } from '../../src/domain/dataPlans';

describe("the simulator's data usage", () => {
  it("reports the bytes of each 10 s: a valid whole number, up to 30 MB (20 MB/10 s near port, times a heavy user's 1.5)", () => {
    const start = Date.UTC(2026, 10, 1);
    const all: number[] = [];
    for (let index = 0; index < 20; index++) {
      const vessel = new SimVessel(index, 1, start);
      for (let n = 1; n <= 30; n++) {
        for (const r of vessel.tick(start + n * 10_000)) {
          expect(reportSchema.isValidSync(r)).toBe(true);
          expect(Number.isInteger(r.bytesUsed)).toBe(true);
          all.push(r.bytesUsed!);
        }
      }
    }
    expect(Math.max(...all)).toBeLessThanOrEqual(30 * MB);
    const mean = all.reduce((a, b) => a + b, 0) / all.length;
    expect(mean).toBeGreaterThan(0.2 * MB);
    expect(mean).toBeLessThan(20 * MB);
  });

  it('gives the month of history the bytes of each step, never over the per-report bound', () => {
    const reports = backfillReports(0, {
      seed: 1,
      end: Date.UTC(2026, 10, 20),
      days: 3,
      stepMinutes: 10,
      denseDays: 1,
      sparseStepMinutes: 60,
    });
    const bytes = reports.map((r) => r.bytesUsed ?? 0);
    expect(bytes.every((b) => b >= 0 && b <= MAX_BYTES_PER_REPORT)).toBe(true);
    // About a GB a day or more: an hour's step carries an hour of traffic.
    expect(bytes.reduce((a, b) => a + b, 0)).toBeGreaterThan(1e9);
  });
});
