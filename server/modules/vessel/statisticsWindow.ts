/** The statistics window: the last days at a client's UTC offset (docs/architecture.md, "Vessel history: online time"). */

export const DAY_MS = 86_400_000;

/** The last `days` calendar days at a UTC offset (hours), today included, up to now. */
export interface StatisticsWindow {
  days: number;
  utcOffset: number;
  /** Local day numbers (days since 1970-01-01 at the offset), oldest first. */
  dayNumbers: number[];
  fromMs: number;
  toMs: number;
}

export function statisticsWindow(days: number, utcOffset: number, now = Date.now()): StatisticsWindow {
  const offsetMs = utcOffset * 3_600_000;
  const today = Math.floor((now + offsetMs) / DAY_MS);
  const dayNumbers = Array.from({ length: days }, (_, i) => today - days + 1 + i);
  return { days, utcOffset, dayNumbers, fromMs: dayNumbers[0]! * DAY_MS - offsetMs, toMs: now };
}

/** The local calendar date of a day number: YYYY-MM-DD, and the MM-DD label docs/requirements.md §9 asks for. */
export const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const labelOfDay = (day: number) => dateOfDay(day).slice(5);
