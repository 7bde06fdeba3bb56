/**
 * The benches' smoke mode, one convention for all of them: BENCH_SMOKE=1 runs a bench's same code
 * path end to end at small sizes, in a few seconds, and prints its figures, which then measure
 * nothing worth keeping. `npm test` runs every bench once so (tests/bench/smoke.test.ts), to know
 * they still run; it checks that each ends well and prints figures, never what they are.
 * Sizes, counts and engines given explicitly (env variables, flags) still win over the smoke ones.
 * A smoke run uses PGlite and the embedded MQTT broker unless told otherwise, and leaves out the
 * demo's month of history (SEED_STORY=0, as the tests do).
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** The value after `--name` on the command line, else `fallback`. */
export const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};

/** The full run's value, or the smoke run's under BENCH_SMOKE=1. */
export const sized = <T>(full: T, smoke: T): T => (SMOKE ? smoke : full);

if (SMOKE) {
  process.env.SEED_STORY ??= '0';
  console.log('BENCH_SMOKE=1: a smoke run (small sizes, PGlite and the embedded broker); its figures measure nothing');
}
