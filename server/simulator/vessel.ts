import type { DeviceReport } from '../../src/domain/reportSchema';
import { FAULT_CODES } from '../../src/domain/faultCodes';
import { between, pick, vesselRng, type Rng } from './prng';
import { positionAt, routeGeometry, SEA_ROUTES, type RouteGeometry } from './seaRoutes';
import { bestSatellite } from './satellites';

const GEOMETRIES = SEA_ROUTES.map(routeGeometry);
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

/** Rates per hour of the events a vessel goes through. */
const RATES = { lockLoss: 0.5, fault: 0.15, offline: 0.05 } as const;
const MAX_BUFFERED = 100;

/**
 * One simulated vessel: sails its route back and forth at 10-22 kn, now and then loses modem
 * lock, raises a fault (cleared some minutes later) or goes silent (it buffers its reports and
 * sends them as a batch when it comes back). Everything comes from its own seeded PRNG.
 */
export class SimVessel {
  private readonly rng: Rng;
  private readonly geo: RouteGeometry;
  private distance: number;
  private direction: 1 | -1;
  private speed: number;
  private readonly cruise: number;
  private lockLostUntil = 0;
  private faults = new Map<string, number>();
  private offlineUntil = 0;
  private buffer: DeviceReport[] = [];
  private readonly firmware: { adu: string; bdu: string };

  /**
   * `at` places the vessel on its route instead of its PRNG (the history backfill, which sails a
   * vessel backwards from where the live simulator will start it); it uses its own PRNG stream.
   */
  constructor(readonly index: number, seed: number, private last: number, at?: { distance: number; direction: 1 | -1; stream?: number }) {
    this.rng = vesselRng(seed + (at?.stream ?? 0), index);
    this.geo = GEOMETRIES[index % GEOMETRIES.length]!;
    this.distance = between(this.rng, 0, this.geo.lengthNm);
    this.direction = this.rng() < 0.5 ? 1 : -1;
    if (at) {
      this.distance = at.distance;
      this.direction = at.direction;
    }
    this.cruise = between(this.rng, 11, 21);
    this.speed = this.cruise;
    // Some vessels are already in trouble when the simulation starts, so the demo shows alarms at once.
    if (this.rng() < 0.12) this.faults.set(pick(this.rng, FAULT_CODES).code, last + between(this.rng, 5, 40) * 60_000);
    if (this.rng() < 0.05) this.lockLostUntil = last + between(this.rng, 20_000, 180_000);
    this.firmware = { adu: `V2.${Math.floor(this.rng() * 4)}.${Math.floor(this.rng() * 10)}`, bdu: `V1.${Math.floor(this.rng() * 3)}.${Math.floor(this.rng() * 10)}` };
  }

  /** Where it is on its route and which way it sails. */
  get place(): { distance: number; direction: 1 | -1 } {
    return { distance: this.distance, direction: this.direction };
  }

  get routeName() {
    return this.geo.route.name;
  }

  /** Advances to `now` (ms) and answers the reports to send now (none while offline). */
  tick(now: number): DeviceReport[] {
    const hours = Math.max(0, now - this.last) / 3_600_000;
    this.last = now;
    this.speed = clamp(this.speed + between(this.rng, -0.4, 0.4) + (this.cruise - this.speed) * 0.05, 10, 22);
    this.sail(this.speed * hours);
    this.events(now, hours);
    const report = this.report(now);
    if (now < this.offlineUntil) {
      this.buffer.push(report);
      if (this.buffer.length > MAX_BUFFERED) this.buffer.shift();
      return [];
    }
    const out = [...this.buffer, report];
    this.buffer = [];
    return out;
  }

  private sail(nm: number) {
    let d = this.distance + this.direction * nm;
    if (d > this.geo.lengthNm || d < 0) {
      this.direction = this.direction === 1 ? -1 : 1;
      d = d > this.geo.lengthNm ? 2 * this.geo.lengthNm - d : -d;
    }
    this.distance = clamp(d, 0, this.geo.lengthNm);
  }

  private events(now: number, hours: number) {
    const happens = (perHour: number) => this.rng() < 1 - Math.exp(-perHour * hours);
    if (happens(RATES.lockLoss)) this.lockLostUntil = now + between(this.rng, 20_000, 180_000);
    if (happens(RATES.fault)) this.faults.set(pick(this.rng, FAULT_CODES).code, now + between(this.rng, 2, 30) * 60_000);
    if (happens(RATES.offline)) this.offlineUntil = now + between(this.rng, 12, 40) * 60_000;
    for (const [code, until] of this.faults) if (now >= until) this.faults.delete(code);
  }

  private report(now: number): DeviceReport {
    const { position, course } = positionAt(this.geo, this.distance);
    const heading = this.direction === 1 ? course : (course + 180) % 360;
    const sat = bestSatellite(position);
    const lock = now >= this.lockLostUntil && sat.elevation > 5;
    const distanceToPort = Math.min(this.distance, this.geo.lengthNm - this.distance);
    return {
      deviceTime: new Date(Math.floor(now / 1000) * 1000).toISOString(),
      lat: round(position[0], 5), lon: round(position[1], 5), speed: round(this.speed, 1),
      heading: round(clamp(heading + between(this.rng, -2, 2), 0, 359.9), 1),
      azimuth: round(sat.azimuth, 1), elevation: round(sat.elevation, 1), skew: round(sat.skew, 1),
      satellite: { name: sat.name, longitude: sat.longitude },
      signalLevel: round(clamp(lock ? 35 + sat.elevation * 0.7 + between(this.rng, -5, 5) : between(this.rng, 0, 15), 0, 100), 1),
      snr: round(clamp(lock ? 3 + sat.elevation * 0.15 + between(this.rng, -1, 1) : between(this.rng, -5, 1), -20, 50), 1),
      modemLock: lock, txOn: lock,
      lteSignal: distanceToPort < 15 ? Math.round(between(this.rng, -110, -65)) : null,
      faults: [...this.faults.keys()].sort(),
      firmware: this.firmware,
    };
  }
}
