import type { DeviceReport } from '../../src/domain/reportSchema';
import { between, pick, vesselRng, type Rng } from './prng';
import { positionAt, routeGeometry, SEA_ROUTES, type LatLon, type RouteGeometry } from './seaRoutes';
import { lookAngles, SATELLITES } from './satellites';
import { chooseSatellite, MIN_ELEVATION, type SkyAnswer } from './sky';
import type { CommandAck } from '../link/deviceLink';
import { REPORT_INTERVAL_MAX_S, REPORT_INTERVAL_MIN_S } from '../../src/domain/commands';
import { isDeviceKind, KIND_REPORTS } from '../../src/domain/deviceKinds';
import { bytesSince, faultPool, linkQuality, lteSignal, pointingFields, type KindHas } from './kindLink';
import { vboxLinks } from './vesselLinks';
import { heldSatellite } from './opening';

const GEOMETRIES = SEA_ROUTES.map(routeGeometry);
const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

/** Rates per hour of the events a vessel goes through. */
const RATES = { lockLoss: 0.5, fault: 0.15, offline: 0.05 } as const;
const MAX_BUFFERED = 100;
const GOLDEN_RATIO = 0.618_033_988_75;
/** Commands whose answers it remembers, so a duplicate delivery is answered the same. */
const ANSWERS_KEPT = 64;

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
  /** The satellite an operator pointed it at (a re-point command); null: it picks one itself. */
  private pointedAt: string | null = null;
  /** The satellite it picked itself, kept while it stays in that satellite's beam and above the horizon (at the start: the one held since its port, opening.ts). */
  private tracking: string | null = null;
  /** Its report interval set by command (ms); null: every round of the simulator. */
  private reportIntervalMs: number | null = null;
  private bootedAt: number;
  private readonly answered = new Map<number, CommandAck>();
  /** When the previous report was made (its bytesUsed counts from there); NaN before the first. */
  private bytesFrom = Number.NaN;
  /** What its kind has (src/domain/deviceKinds.ts): satellite pointing, a 4G modem. */
  private readonly has: KindHas;
  /** A vBox (an on-board router): it reports its WAN links (src/domain/links.ts). */
  private readonly router: boolean;

  /**
   * `at` places the vessel on its route instead of its PRNG (the history backfill, which sails a
   * vessel backwards from where the live simulator will start it); it uses its own PRNG stream.
   * `kind` (src/domain/deviceKinds.ts; a VSAT terminal when unknown) is what it reports.
   */
  constructor(
    readonly index: number,
    seed: number,
    private last: number,
    at?: { distance: number; direction: 1 | -1; stream?: number; tracking?: string | null },
    kind?: string,
  ) {
    this.has = KIND_REPORTS[isDeviceKind(kind) ? kind : 'vsat'];
    this.router = kind === 'vbox';
    this.rng = vesselRng(seed + (at?.stream ?? 0), index);
    this.geo = GEOMETRIES[index % GEOMETRIES.length]!;
    // Spread along the route (the vessels of one route a golden-ratio step apart, off the ports),
    // so that no two start on the same spot and hide each other on the map.
    const slot = Math.floor(index / GEOMETRIES.length);
    this.distance = (0.05 + 0.9 * ((slot * GOLDEN_RATIO + between(this.rng, 0, 0.03)) % 1)) * this.geo.lengthNm;
    this.direction = this.rng() < 0.5 ? 1 : -1;
    if (at) ({ distance: this.distance, direction: this.direction } = at);
    this.cruise = between(this.rng, 11, 21);
    this.speed = this.cruise;
    this.tracking = at?.tracking !== undefined ? at.tracking : heldSatellite(this.geo, this.place, this.cruise, last, this.index);
    // Some vessels are already in trouble when the simulation starts, so the demo shows alarms at once.
    const faults = faultPool(this.has);
    if (this.rng() < 0.12 * faults.rate) this.faults.set(pick(this.rng, faults.codes).code, last + between(this.rng, 5, 40) * 60_000);
    if (this.rng() < 0.05) this.lockLostUntil = last + between(this.rng, 20_000, 180_000);
    this.bootedAt = last;
    this.firmware = {
      adu: `V2.${Math.floor(this.rng() * 4)}.${Math.floor(this.rng() * 10)}`,
      bdu: `V1.${Math.floor(this.rng() * 3)}.${Math.floor(this.rng() * 10)}`,
    };
  }

  /** Where it is on its route, which way it sails, and the satellite it holds. */
  get place(): { distance: number; direction: 1 | -1; tracking: string | null } {
    return { distance: this.distance, direction: this.direction, tracking: this.tracking };
  }

  get routeName() {
    return this.geo.route.name;
  }

  /** The port it sails from and to, the distance left along the route (nm) and its cruising speed (kn). */
  get voyage(): { origin: string; destination: string; remainingNm: number; cruiseKn: number } {
    const { from, to } = this.geo.route;
    const ahead = this.direction === 1;
    return {
      origin: ahead ? from : to,
      destination: ahead ? to : from,
      remainingNm: ahead ? this.geo.lengthNm - this.distance : this.distance,
      cruiseKn: this.cruise,
    };
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

  /** Its heading on the route's course at a point, given the way it sails. */
  private headingOn = (course: number) => (this.direction === 1 ? course : (course + 180) % 360);

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
    // A loss starts somewhere in the time that passed, so a report made after a long step (the history's) is rarely caught in one.
    if (happens(RATES.lockLoss))
      this.lockLostUntil = Math.max(this.lockLostUntil, now - this.rng() * hours * 3_600_000 + between(this.rng, 20_000, 180_000));
    const faults = faultPool(this.has);
    if (happens(RATES.fault * faults.rate)) this.faults.set(pick(this.rng, faults.codes).code, now + between(this.rng, 2, 30) * 60_000);
    if (happens(RATES.offline)) this.offlineUntil = now + between(this.rng, 12, 40) * 60_000;
    for (const [code, until] of this.faults) if (now >= until) this.faults.delete(code);
  }

  /** Whether it reports this round: always, unless a command set a slower interval that has not passed yet. */
  due(now: number): boolean {
    return this.reportIntervalMs === null || now - this.last >= this.reportIntervalMs - 1000;
  }

  /** Until when it is silent (an outage or a reboot); the MQTT transport disconnects it meanwhile. */
  silentUntil(): number {
    return this.offlineUntil;
  }

  /** The satellite it points at and the sky towards it (sky.ts, chooseSatellite); losing its own costs a re-acquisition of 5-12 minutes. */
  private trackedSatellite(position: LatLon, now: number, heading: number): { name: string; longitude: number } & SkyAnswer {
    const at = { t: now, heading, vesselIndex: this.index };
    const choice = chooseSatellite({ pointedAt: this.pointedAt, tracking: this.tracking }, position, at);
    this.pointedAt = choice.pointedAt;
    this.tracking = choice.tracking;
    if (choice.lost && this.has.satellite) this.lockLostUntil = Math.max(this.lockLostUntil, now + between(this.rng, 5, 12) * 60_000);
    return choice.sat;
  }

  /**
   * A command from the server, obeyed at `now`; the answer is its ack. A reboot is
   * acknowledged before the terminal goes silent for 30-90 s (and re-acquires the satellite after);
   * a re-point moves it to a named satellite above the horizon (the link drops for 15-45 s while it
   * re-acquires, then its signal follows the new elevation); setInterval paces its reports.
   */
  obey(command: { id: number; kind: string; params?: unknown }, now: number): CommandAck {
    // QoS 1 delivers at least once: a command seen again is answered again, not carried out twice.
    const seen = this.answered.get(command.id);
    if (seen) return seen;
    const ack = this.carryOut(command, now);
    this.answered.set(command.id, ack);
    if (this.answered.size > ANSWERS_KEPT) this.answered.delete(this.answered.keys().next().value!);
    return ack;
  }

  private carryOut(command: { id: number; kind: string; params?: unknown }, now: number): CommandAck {
    const params = (typeof command.params === 'object' && command.params !== null ? command.params : {}) as Record<string, unknown>;
    const { position, course } = positionAt(this.geo, this.distance);
    // The message is the terminal's own words; data.reason (and its values) let the console say it in the user's language.
    const fail = (message: string, data: Record<string, unknown>): CommandAck => ({ id: command.id, ok: false, message, data });
    switch (command.kind) {
      case 'reboot': {
        const back = now + between(this.rng, 30_000, 90_000);
        this.offlineUntil = Math.max(this.offlineUntil, back);
        this.bootedAt = back;
        this.lockLostUntil = Math.max(this.lockLostUntil, back + between(this.rng, 10_000, 30_000));
        return { id: command.id, ok: true, data: { downForS: Math.round((back - now) / 1000) } };
      }
      case 'repoint': {
        if (!this.has.satellite) return fail('no satellite antenna to point', { reason: 'unsupported' });
        const target = SATELLITES.find((s) => s.name === params.satellite);
        if (!target)
          return fail(`unknown satellite ${String(params.satellite)}`, { reason: 'unknownSatellite', satellite: String(params.satellite) });
        const look = lookAngles(position, target.longitude);
        if (look.elevation <= MIN_ELEVATION)
          return fail(`${target.name} is below the horizon here (elevation ${round(look.elevation, 1)}°)`, {
            reason: 'belowHorizon',
            satellite: target.name,
            elevation: round(look.elevation, 1),
          });
        this.pointedAt = target.name;
        this.lockLostUntil = Math.max(this.lockLostUntil, now + between(this.rng, 15_000, 45_000));
        return {
          id: command.id,
          ok: true,
          data: {
            satellite: target.name,
            longitude: target.longitude,
            azimuth: round(look.azimuth, 1),
            elevation: round(look.elevation, 1),
          },
        };
      }
      case 'setInterval': {
        const seconds = Number(params.seconds);
        if (!Number.isInteger(seconds) || seconds < REPORT_INTERVAL_MIN_S || seconds > REPORT_INTERVAL_MAX_S)
          return fail(`interval out of range: ${String(params.seconds)}`, {
            reason: 'intervalOutOfRange',
            seconds: String(params.seconds),
          });
        this.reportIntervalMs = seconds * 1000;
        return { id: command.id, ok: true, data: { seconds } };
      }
      case 'diagnostics': {
        const sat = this.trackedSatellite(position, now, this.headingOn(course));
        return {
          id: command.id,
          ok: true,
          data: {
            uptimeS: Math.max(0, Math.round((now - this.bootedAt) / 1000)),
            ...(this.has.satellite
              ? {
                  satellite: sat.name,
                  pointing: this.pointedAt ? 'manual' : 'auto',
                  azimuth: round(sat.azimuth, 1),
                  elevation: round(sat.elevation, 1),
                }
              : {}),
            modemLock: now >= this.lockLostUntil && (!this.has.satellite || sat.locked),
            faults: [...this.faults.keys()].sort(),
            reportIntervalS: this.reportIntervalMs === null ? null : this.reportIntervalMs / 1000,
            buffered: this.buffer.length,
            temperatureC: round(between(this.rng, 32, 48), 1),
          },
        };
      }
      case 'firmwareCheck':
        return { id: command.id, ok: true, data: { ...this.firmware } };
      default:
        return fail(`unsupported command ${command.kind}`, { reason: 'unsupported' });
    }
  }

  private report(now: number): DeviceReport {
    const { position, course } = positionAt(this.geo, this.distance);
    const heading = this.headingOn(course);
    const sat = this.trackedSatellite(position, now, heading);
    const distanceToPort = Math.min(this.distance, this.geo.lengthNm - this.distance);
    const lte = lteSignal(this.has, distanceToPort, this.rng);
    const lock = now >= this.lockLostUntil && (this.has.satellite ? sat.locked : true);
    const seconds = Number.isNaN(this.bytesFrom) ? 10 : Math.max(0, now - this.bytesFrom) / 1000;
    this.bytesFrom = now;
    const bytesUsed = bytesSince(this.index, now, seconds, distanceToPort < 15, lock);
    const quality = linkQuality(this.has, sat, lte);
    const signalLevel = round(clamp(lock ? quality.signal + between(this.rng, -5, 5) : between(this.rng, 0, 15), 0, 100), 1);
    const snr = round(clamp(lock ? quality.snr + between(this.rng, -1, 1) : between(this.rng, -5, 1), -20, 50), 1);
    return {
      deviceTime: new Date(Math.floor(now / 1000) * 1000).toISOString(),
      lat: round(position[0], 5),
      lon: round(position[1], 5),
      speed: round(this.speed, 1),
      heading: round(clamp(heading + between(this.rng, -2, 2), 0, 359.9), 1),
      ...pointingFields(this.has, sat),
      signalLevel,
      snr,
      modemLock: lock,
      txOn: lock,
      lteSignal: lte,
      faults: [...this.faults.keys()].sort(),
      firmware: this.firmware,
      bytesUsed,
      ...(this.router ? { links: vboxLinks(this.index, now, { lock, signal: signalLevel, snr }, lte) } : {}),
    };
  }
}
