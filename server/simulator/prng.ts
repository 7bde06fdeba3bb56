/** mulberry32: a small, fast, seeded PRNG; the same seed gives the same sequence everywhere. */
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stream of its own per vessel, so one vessel's draws never depend on another's. */
export const vesselRng = (seed: number, index: number): Rng =>
  mulberry32(Math.imul(seed ^ 0x9e3779b9, 2654435761) ^ Math.imul(index + 1, 0x85ebca6b));

export const between = (rng: Rng, min: number, max: number) => min + rng() * (max - min);
export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
