/**
 * A report's signal level is a percentage, 0..100 (docs/api.md, "POST /ingest/report"). Wherever
 * it is shown or exported it is rounded one way: to a whole percent.
 */
export const SIGNAL_UNIT = '%';

export const roundSignal = (level: number): number => Math.round(level);
