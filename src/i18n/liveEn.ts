import type { DeepStrings } from './raZh';
import type { liveZh } from './liveZh';

/** Strings of the live push (docs/architecture.md, "Live push"), in English. */
export const liveEn: DeepStrings<typeof liveZh> = {
  on: 'Live updates on: alarms and state changes show at once',
};
