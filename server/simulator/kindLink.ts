import { clearSkySnr } from './sky';
import { between, mulberry32, type Rng } from './prng';
import { MAX_BYTES_PER_REPORT, MB } from '../../src/domain/dataPlans';
import { FAULT_CODES, type FaultCodeInfo } from '../../src/domain/faultCodes';

/** What a kind has (src/domain/deviceKinds.ts, KIND_REPORTS). */
export interface KindHas {
  satellite: boolean;
  lte: boolean;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

/**
 * The 4G signal (dBm) a vessel reports, or null: a 4G router's link is its 4G modem, strong near
 * port and fading offshore (never below -115 dBm here: the demo keeps its routers reachable); a vBox
 * has 4G within 15 nm of a port; the others have no 4G modem.
 */
export function lteSignal(has: KindHas, distanceToPort: number, rng: Rng): number | null {
  if (!has.lte) return null;
  if (has.satellite) return distanceToPort < 15 ? Math.round(between(rng, -110, -65)) : null;
  return Math.round(clamp(-68 - Math.min(distanceToPort, 400) / 10 + between(rng, -4, 4), -115, -60));
}

/**
 * The link's quality when locked, before noise: signal level (0..100) and SNR (dB). A satellite's
 * is the sky's SNR towards it (sky.ts: elevation, beam edge, rain), its signal level falling 3 a dB
 * below the clear sky's; 4G's follows its signal.
 */
export function linkQuality(has: KindHas, sky: { elevation: number; snr: number }, lte: number | null): { signal: number; snr: number } {
  if (has.satellite) return { signal: 35 + sky.elevation * 0.7 - (clearSkySnr(sky.elevation) - sky.snr) * 3, snr: sky.snr };
  const signal = ((lte ?? -120) + 120) / 0.55; // -120..-65 dBm as 0..100
  return { signal, snr: 2 + signal * 0.2 };
}

/**
 * The fault codes a kind raises, and how often against a satellite terminal: the terminal's codes
 * (antenna, motors, BDU) with a satellite link; without one only the mainboard's firmware (E90), a
 * fifth as often.
 */
export function faultPool(has: KindHas): { codes: readonly FaultCodeInfo[]; rate: number } {
  return has.satellite ? { codes: FAULT_CODES, rate: 1 } : { codes: FAULT_CODES.filter((f) => f.code === 'E90'), rate: 0.2 };
}

/** A report's satellite pointing: the tracked satellite's angles, or nothing at all for a kind without a satellite link. */
export function pointingFields(
  has: KindHas,
  sat: { azimuth: number; elevation: number; skew: number; name: string; longitude: number },
): { azimuth?: number; elevation?: number; skew?: number; satellite?: { name: string; longitude: number } } {
  if (!has.satellite) return {};
  return {
    azimuth: round1(sat.azimuth),
    elevation: round1(sat.elevation),
    skew: round1(sat.skew),
    satellite: { name: sat.name, longitude: sat.longitude },
  };
}

/**
 * Data used over `seconds` since the previous report: 0.05-0.3 MB/s over the satellite at sea
 * (0.5-3 MB per 10 s), 0.5-2 MB/s near port where LTE takes over (5-20 MB per 10 s), a trickle
 * without a link; some vessels use more than others. Drawn from a PRNG of its own (vessel, time),
 * so the vessel's own stream (route, faults, signal) is the same with or without it.
 */
export function bytesSince(index: number, now: number, seconds: number, nearPort: boolean, lock: boolean): number {
  const noise = mulberry32(Math.imul(index + 1, 0x9e3779b1) ^ Math.floor(now / 1000));
  const appetite = 0.6 + ((index * 37) % 10) / 10;
  const rate = nearPort ? between(noise, 0.5, 2) : lock ? between(noise, 0.05, 0.3) : between(noise, 0, 0.002);
  return Math.min(MAX_BYTES_PER_REPORT, Math.round(rate * appetite * MB * seconds));
}
