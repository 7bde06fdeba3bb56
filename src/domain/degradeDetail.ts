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

const durationWords = (minutes: number, lang: 'zh' | 'en') => {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (lang === 'zh') return h ? `${h} 小时 ${m} 分钟` : `${m} 分钟`;
  return h ? `${h} h ${m} min` : `${m} min`;
};

/**
 * The detail in words (the alarm list, its exports and the notifications, through alarmMeaning):
 * which satellite, when the zone comes, how poor it is there, and what to do; null when the detail
 * cannot be read.
 */
export function degradeWords(detail: string | null | undefined, lang: 'zh' | 'en'): string | null {
  const d = degradeDetailOf(detail);
  if (!d) return null;
  const time = durationWords(d.minutes, lang);
  if (lang === 'zh') {
    const advice = d.suggestion ? ` · 建议改指 ${d.suggestion}` : d.useBackup ? ' · 建议切换到备用链路' : '';
    return `约 ${time}后，${d.satellite} 在该处的锁定率仅 ${d.lockedPct}%${advice}`;
  }
  const advice = d.suggestion ? ` · suggested: re-point to ${d.suggestion}` : d.useBackup ? ' · suggested: switch to the backup link' : '';
  return `${d.satellite} in about ${time}, locked ${d.lockedPct} % of the time there${advice}`;
}
