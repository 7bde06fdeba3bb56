import type { DeviceReport } from '../../../src/domain/reportSchema';

export interface ActiveAlarm {
  id: number;
  code: string;
}

export interface AlarmChanges {
  /** Alarms already stored: their new last_seen_at, and cleared_at when the fault went away. */
  updates: { id: number; lastSeenAt: string | null; clearedAt: string | null }[];
  /** Alarms raised by these reports (cleared_at set when they also went away within them). */
  inserts: { code: string; raisedAt: string; lastSeenAt: string; clearedAt: string | null }[];
}

/**
 * Walks reports newer than the device's latest state, oldest first: a code that appears raises an
 * alarm (or refreshes the active one), a code that disappears clears it at that report's time.
 */
export function alarmTransitions(active: readonly ActiveAlarm[], reports: readonly DeviceReport[]): AlarmChanges {
  type Open = { id?: number; code: string; raisedAt: string; lastSeenAt: string | null; clearedAt: string | null };
  const open = new Map<string, Open>(
    active.map((a) => [a.code, { id: a.id, code: a.code, raisedAt: '', lastSeenAt: null, clearedAt: null }]),
  );
  const closed: Open[] = [];
  for (const report of reports) {
    const now = new Set(report.faults);
    for (const code of now) {
      const alarm = open.get(code);
      if (alarm) alarm.lastSeenAt = report.deviceTime;
      else open.set(code, { code, raisedAt: report.deviceTime, lastSeenAt: report.deviceTime, clearedAt: null });
    }
    for (const [code, alarm] of open) {
      if (now.has(code)) continue;
      alarm.clearedAt = report.deviceTime;
      closed.push(alarm);
      open.delete(code);
    }
  }
  const all = [...closed, ...open.values()];
  return {
    updates: all
      .filter((a) => a.id !== undefined && (a.lastSeenAt || a.clearedAt))
      .map((a) => ({ id: a.id!, lastSeenAt: a.lastSeenAt, clearedAt: a.clearedAt })),
    inserts: all
      .filter((a) => a.id === undefined)
      .map((a) => ({ code: a.code, raisedAt: a.raisedAt, lastSeenAt: a.lastSeenAt!, clearedAt: a.clearedAt })),
  };
}
