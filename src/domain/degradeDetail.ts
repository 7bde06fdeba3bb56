/**
 * The "degradation ahead" alarm (src/domain/degradeAhead.ts): its code and its detail, kept apart
 * from the predictor so the console's alarm list reads them without the H3 library.
 */

/** The alarm the prediction raises (minor): cleared when the vessel leaves the path or has passed the zone. */
export const DEGRADE_ALARM_CODE = 'DEGRADE_AHEAD';

/** What the detail says: the satellite, the minutes to the zone, the locked share there, and the suggestion. */
export interface DegradeSummary {
  satellite: string;
  minutes: number;
  lockedPct: number;
  suggestion: string | null;
  useBackup: boolean;
}

/**
 * The alarm's detail, in no language (names and figures only): "AsiaSat 7 · 80 min · 42 % · →
 * APSTAR 6D" (or "→ backup"); the console reads it back with degradeDetailOf to offer the re-point.
 */
export function degradeDetail(w: DegradeSummary): string {
  const to = w.suggestion ? ` · → ${w.suggestion}` : w.useBackup ? ' · → backup' : '';
  return `${w.satellite} · ${w.minutes} min · ${w.lockedPct} %${to}`;
}

export function degradeDetailOf(detail: string | null | undefined): DegradeSummary | null {
  const m = /^(.+) · (\d+) min · (\d+) %(?: · → (.+))?$/.exec(detail ?? '');
  if (!m) return null;
  const backup = m[4] === 'backup';
  return { satellite: m[1]!, minutes: Number(m[2]), lockedPct: Number(m[3]), suggestion: m[4] && !backup ? m[4] : null, useBackup: backup };
}
