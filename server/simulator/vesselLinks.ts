import type { ReportLink } from '../../src/domain/links';
import { between, mulberry32 } from './prng';

/** A LEO dish is obstructed (mast, cranes, a heading that puts the funnel in its view) in this share of 5-minute slots. */
const OBSTRUCTED_SHARE = 0.06;
const SLOT_MS = 5 * 60_000;

/** Which links a vBox vessel has: every one a GEO VSAT and 4G; two in three a LEO terminal too. */
export const hasLeo = (index: number) => index % 3 !== 0;

/**
 * The WAN links a simulated vBox reports at `now` (src/domain/links.ts), in its router's order of
 * preference: GEO VSAT first, then LEO, then 4G. The traffic goes over the first one up: GEO while
 * it holds lock, LEO when GEO lost it (unless the dish is obstructed now), 4G near the coast
 * (within 15 nm of a port, where `lte` is not null), and back to GEO when its lock returns.
 * Figures come from a PRNG of the vessel and the time, so the vessel's own stream is unchanged.
 */
export function vboxLinks(
  index: number,
  now: number,
  geo: { lock: boolean; signal: number; snr: number },
  lte: number | null,
): ReportLink[] {
  const noise = mulberry32(Math.imul(index + 7, 0x2c1b3c6d) ^ Math.floor(now / 1000));
  const slot = mulberry32(Math.imul(index + 11, 0x297a2d39) ^ Math.floor(now / SLOT_MS));
  const obstructed = slot() < OBSTRUCTED_SHARE;
  const links: ReportLink[] = [
    {
      id: 'vsat1',
      kind: 'geo',
      state: geo.lock ? 'up' : 'down',
      active: false,
      latencyMs: geo.lock ? Math.round(between(noise, 560, 700)) : null,
      downMbps: geo.lock ? Math.round(between(noise, 2, 10) * 10) / 10 : 0,
      upMbps: geo.lock ? Math.round(between(noise, 0.5, 2) * 10) / 10 : 0,
      signal: geo.signal,
      snr: geo.snr,
    },
  ];
  if (hasLeo(index))
    links.push({
      id: 'leo1',
      kind: 'leo',
      state: obstructed ? 'down' : 'standby',
      active: false,
      latencyMs: obstructed ? null : Math.round(between(noise, 25, 60)),
      downMbps: obstructed ? 0 : Math.round(between(noise, 80, 250)),
      upMbps: obstructed ? 0 : Math.round(between(noise, 10, 30)),
      obstructionPct: Math.round(obstructed ? between(slot, 25, 60) : between(noise, 0, 6)),
    });
  links.push({
    id: 'lte1',
    kind: 'cellular',
    state: lte === null ? 'down' : 'standby',
    active: false,
    latencyMs: lte === null ? null : Math.round(between(noise, 40, 90)),
    downMbps: lte === null ? 0 : Math.round(between(noise, 10, 80)),
    upMbps: lte === null ? 0 : Math.round(between(noise, 5, 30)),
    signal: lte === null ? null : Math.round(Math.max(0, Math.min(100, (lte + 120) / 0.55))),
  });
  // The router sends the traffic over its first link that is up (a standby link becomes up when it takes the traffic).
  const first = links.find((l) => l.state !== 'down');
  if (first) {
    first.state = 'up';
    first.active = true;
  }
  return links;
}
