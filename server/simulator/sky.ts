import { mulberry32, between, type Rng } from './prng';
import { bestSatellite, lookAngles, SATELLITES } from './satellites';
import type { LatLon } from './seaRoutes';
import { wrapLongitude } from '../../src/domain/greatCircle';

/**
 * The simulated sky's geography (docs/architecture.md, "Coverage"), seeded and deterministic like
 * the rest of the simulator: the ground truth the demo's coverage map shows and bench:predict
 * scores against.
 * - **Beams**: each satellite lights two regions of the earth (ellipses in degrees); over the outer
 *   fifth of a beam the signal weakens by up to EDGE_MAX_DB, and outside every beam there is none.
 * - **Rain**: rain cells form, drift and die (Ku band fades up to 14 dB at a cell's centre),
 *   drawn per 8° tile and 3-hour slot, so any point and time is answered without a list.
 * - **Mast shadow**: each vessel has a sector of relative bearing behind its mast; a satellite low
 *   enough (under 35°) and seen through it is blocked.
 * - A satellite under 5° of elevation cannot be held; under 15° it loses a little more.
 * 4G near harbours and LEO obstruction stay with the vBox's links (vesselLinks.ts).
 */

/** A terminal keeps lock while its SNR stays at or above this (dB). */
export const LOCK_SNR_DB = 2;
/** Below this elevation (degrees) a terminal cannot hold a satellite: it refuses a re-point to it, and drops one it tracks. */
export const MIN_ELEVATION = 5;
/** The beam's outer part, as a share of its radius, over which the signal weakens. */
const EDGE_FROM = 0.8;
const EDGE_MAX_DB = 9;
const TILE_DEG = 8;
const SLOT_MS = 3 * 3_600_000;
/** Share of tile × slot pairs that grow a rain cell. */
const RAIN_ODDS = 0.1;
const KM_PER_DEG = 111.2;

export type SkyCause = 'clear' | 'beamEdge' | 'outsideBeam' | 'rain' | 'blockage' | 'belowHorizon';

export interface Beam {
  lat: number;
  lon: number;
  rLat: number;
  rLon: number;
}

const rngOf = (...parts: number[]): Rng => {
  let h = 0x811c9dc5;
  for (const p of parts) h = Math.imul(h ^ (p | 0), 0x01000193) ^ (h >>> 13);
  return mulberry32(h);
};
const nameKey = (name: string) => [...name].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 0x01000193), 0x811c9dc5);

const beamCache = new Map<string, Beam[]>();
/** A satellite's two beams: one north and one south of the equator, near its orbital longitude. */
export function beamsOf(sat: { name: string; longitude: number }, seed = 1): Beam[] {
  const key = `${seed}|${sat.name}`;
  let beams = beamCache.get(key);
  if (!beams) {
    const rng = rngOf(seed, nameKey(sat.name));
    beams = [
      {
        lat: between(rng, 12, 32),
        lon: wrapLongitude(sat.longitude + between(rng, -25, 25)),
        rLat: between(rng, 28, 38),
        rLon: between(rng, 40, 56),
      },
      {
        lat: between(rng, -28, -8),
        lon: wrapLongitude(sat.longitude + between(rng, -30, 30)),
        rLat: between(rng, 24, 34),
        rLon: between(rng, 36, 50),
      },
    ];
    beamCache.set(key, beams);
  }
  return beams;
}

/** How far into its best beam a position is: 0 at a beam's centre, 1 at its rim, above 1 outside. */
export function beamDistance(sat: { name: string; longitude: number }, [lat, lon]: LatLon, seed = 1): number {
  let best = Infinity;
  for (const b of beamsOf(sat, seed)) {
    const d = Math.hypot((lat - b.lat) / b.rLat, wrapLongitude(lon - b.lon) / b.rLon);
    if (d < best) best = d;
  }
  return best;
}

/** The beam's loss (dB) at a position: none inside, rising over the edge; null outside every beam. */
export function beamLossDb(sat: { name: string; longitude: number }, position: LatLon, seed = 1): number | null {
  const d = beamDistance(sat, position, seed);
  if (d > 1) return null;
  return d <= EDGE_FROM ? 0 : EDGE_MAX_DB * ((d - EDGE_FROM) / (1 - EDGE_FROM)) ** 1.5;
}

/** The rain fade (dB) at a position and time: the rain cells of the tiles around it that live then. */
export function rainFadeDb([lat, lon]: LatLon, t: number, seed = 1): number {
  const tx = Math.floor((lon + 180) / TILE_DEG);
  const ty = Math.floor((lat + 90) / TILE_DEG);
  const slot = Math.floor(t / SLOT_MS);
  let fade = 0;
  for (let dx = -1; dx <= 1; dx++)
    for (let dy = -1; dy <= 1; dy++)
      for (let ds = -2; ds <= 0; ds++) {
        const x = (tx + dx + 45) % 45;
        const rng = rngOf(seed, 0x5eed, x, ty + dy, slot + ds);
        if (rng() >= RAIN_ODDS) continue;
        const born = (slot + ds) * SLOT_MS + rng() * SLOT_MS;
        const life = between(rng, 1.5, 5) * 3_600_000;
        if (t < born || t > born + life) continue;
        const startLat = (ty + dy) * TILE_DEG - 90 + rng() * TILE_DEG;
        const startLon = x * TILE_DEG - 180 + rng() * TILE_DEG;
        const speedKmh = between(rng, 15, 40);
        const course = rng() * 2 * Math.PI;
        const radiusKm = between(rng, 40, 140);
        const peak = between(rng, 4, 14);
        const hours = (t - born) / 3_600_000;
        const cLat = startLat + (Math.cos(course) * speedKmh * hours) / KM_PER_DEG;
        const cLon = startLon + (Math.sin(course) * speedKmh * hours) / (KM_PER_DEG * Math.max(0.2, Math.cos((cLat * Math.PI) / 180)));
        const dKm = Math.hypot((lat - cLat) * KM_PER_DEG, wrapLongitude(lon - cLon) * KM_PER_DEG * Math.cos((lat * Math.PI) / 180));
        if (dKm >= radiusKm) continue;
        // It grows over its first fifth and fades over its last.
        const age = (t - born) / life;
        const strength = Math.min(1, age / 0.2, (1 - age) / 0.2);
        fade = Math.max(fade, peak * strength * (1 - (dKm / radiusKm) ** 2));
      }
  return fade;
}

/** A vessel's mast shadow: the centre and width (degrees) of the relative bearings it blocks. */
export function mastShadow(vesselIndex: number, seed = 1): { centre: number; width: number } {
  const rng = rngOf(seed, 0x3a57, vesselIndex);
  return { centre: 180 + between(rng, -25, 25), width: between(rng, 10, 22) };
}
/** A satellite this high clears the mast. */
const SHADOW_BELOW_ELEVATION = 35;

/** The SNR (dB) towards a satellite at this elevation under a clear sky, well inside its beam. */
export const clearSkySnr = (elevation: number) => 7 + elevation * 0.15;

export interface SkyAnswer {
  /** The satellite's look angles from the position. */
  azimuth: number;
  elevation: number;
  skew: number;
  /** The SNR (dB) the terminal sees before noise; -Infinity with no signal. */
  snr: number;
  locked: boolean;
  /** What limits the link here and now ('clear' when nothing does). */
  cause: SkyCause;
}

/** The link to one satellite from a vessel at a position, heading and time. */
export function skyAt(
  sat: { name: string; longitude: number },
  position: LatLon,
  { t, heading, vesselIndex, seed = 1 }: { t: number; heading: number; vesselIndex: number; seed?: number },
): SkyAnswer {
  const look = lookAngles(position, sat.longitude);
  const none = (cause: SkyCause): SkyAnswer => ({ ...look, snr: -Infinity, locked: false, cause });
  if (look.elevation <= MIN_ELEVATION) return none('belowHorizon');
  const beam = beamLossDb(sat, position, seed);
  if (beam === null) return none('outsideBeam');
  const shadow = mastShadow(vesselIndex, seed);
  const relative = wrapLongitude(look.azimuth - heading - shadow.centre);
  if (look.elevation < SHADOW_BELOW_ELEVATION && Math.abs(relative) < shadow.width / 2) return none('blockage');
  const rain = rainFadeDb(position, t, seed);
  const low = look.elevation < 15 ? (15 - look.elevation) * 0.2 : 0;
  const snr = clearSkySnr(look.elevation) - beam - rain - low;
  const cause: SkyCause = beam === 0 && rain < 1 ? 'clear' : rain >= beam ? 'rain' : 'beamEdge';
  return { ...look, snr, locked: snr >= LOCK_SNR_DB, cause };
}

/** The satellite a terminal picks where it is: the best SNR among those it can lock; null when none can. */
export function bestInSky(position: LatLon, at: { t: number; heading: number; vesselIndex: number; seed?: number }) {
  let best: ({ name: string; longitude: number } & SkyAnswer) | null = null;
  for (const sat of SATELLITES) {
    const answer = skyAt(sat, position, at);
    if (answer.locked && (!best || answer.snr > best.snr)) best = { ...sat, ...answer };
  }
  return best;
}

type Satellite = { name: string; longitude: number };

/**
 * The satellite a terminal points at: the one an operator re-pointed it to while that stays above
 * the horizon; else the one it picked, until it sails out of that satellite's beam or below its
 * horizon, or loses it at the beam's edge or behind the mast while another could be locked: then
 * it picks the best one it can lock (`lost`: it must re-acquire). Rain costs it the lock, not the
 * satellite.
 */
export function chooseSatellite(
  state: { pointedAt: string | null; tracking: string | null },
  position: LatLon,
  at: { t: number; heading: number; vesselIndex: number; seed?: number },
): { sat: Satellite & SkyAnswer; pointedAt: string | null; tracking: string | null; lost: boolean } {
  const named = (name: string | null) => (name === null ? undefined : SATELLITES.find((s) => s.name === name));
  const pointed = named(state.pointedAt);
  if (pointed && lookAngles(position, pointed.longitude).elevation > MIN_ELEVATION)
    return { sat: { ...pointed, ...skyAt(pointed, position, at) }, pointedAt: pointed.name, tracking: state.tracking, lost: false };
  const current = named(state.tracking);
  const sky = current && skyAt(current, position, at);
  const keep = (sat: Satellite & SkyAnswer) => ({ sat, pointedAt: null, tracking: sat.name, lost: false });
  if (current && sky && (sky.locked || sky.cause === 'rain')) return keep({ ...current, ...sky });
  const best = bestInSky(position, at);
  if (current && sky && !best && sky.cause !== 'outsideBeam' && sky.cause !== 'belowHorizon') return keep({ ...current, ...sky });
  const highest = bestSatellite(position);
  const next = best ?? { ...highest, ...skyAt(highest, position, at) };
  return { sat: next, pointedAt: null, tracking: next.name, lost: !!current && next.name !== current.name };
}
