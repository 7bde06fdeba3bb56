import type { Queryable } from '../db/connection';
import type { Principal } from '../../src/domain/levels';
import type { ReportKind, ReportRange } from '../../src/domain/reports';
import { DAY_MS, fleetStatistics, type StatisticsWindow } from '../modules/vessel/statisticsQueries';
import {
  alarmCounts,
  alarmsByVessel,
  alarmTimes,
  commandCounts,
  dataUsageByVessel,
  linkTimesByVessel,
  portCalls,
  rollupFigures,
  visibleVesselCount,
  type AlarmCount,
  type AlarmTimes,
  type CommandCounts,
  type VesselAlarms,
  type VesselDataUsage,
  type PortCall,
  type VesselLinkTime,
} from './reportQueries';

/** What a report shows, read once and written to the workbook and the mail (server/reports/buildReport.ts). */

/** A statistics page that holds the whole fleet. */
const EVERY_VESSEL = 2 ** 31 - 1;

export interface VesselAvailability {
  id: number;
  name: string;
  deviceNum: string | null;
  /** The statistics feature is not the caller's for this vessel: no figures. */
  locked: boolean;
  onlineSeconds: number | null;
  warnSeconds: number | null;
  availability: number | null;
  longestOutageSeconds: number | null;
}

export interface DayAvailability {
  /** The local day number (days since 1970-01-01 at the offset). */
  day: number;
  onlineSeconds: number;
  warnSeconds: number;
  /** The day's seconds times the vessels counted. */
  periodSeconds: number;
}

export interface AvailabilityFigures {
  periodSeconds: number;
  vessels: VesselAvailability[];
  /** Vessels with figures (not locked). */
  counted: number;
  onlineSeconds: number;
  warnSeconds: number;
  /** Fleet online / (vessels counted x period); null when none is counted. */
  availability: number | null;
  days: DayAvailability[];
  /** Per vessel and link, for the vessels that report their links. */
  links: VesselLinkTime[];
}

export interface AlarmFigures {
  counts: AlarmCount[];
  /** Per severity, and in all (severity null). */
  times: AlarmTimes[];
  byVessel: VesselAlarms[];
}

export interface ReportFigures {
  vessels: number;
  availability?: AvailabilityFigures;
  alarms?: AlarmFigures;
  commands?: CommandCounts[];
  dataUsage?: VesselDataUsage[];
  portCalls?: PortCall[];
}

/** The local day numbers the range covers at the offset. */
export function dayNumbersOf(range: ReportRange, offsetHours: number): number[] {
  const offsetMs = offsetHours * 3_600_000;
  const first = Math.floor((range.fromMs + offsetMs) / DAY_MS);
  const last = Math.ceil((range.toMs + offsetMs) / DAY_MS) - 1;
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
}

async function availabilityFigures(
  db: Queryable,
  caller: Principal,
  range: ReportRange,
  offsetHours: number,
): Promise<AvailabilityFigures> {
  const dayNumbers = dayNumbersOf(range, offsetHours);
  const window: StatisticsWindow = { days: dayNumbers.length, utcOffset: offsetHours, dayNumbers, fromMs: range.fromMs, toMs: range.toMs };
  // Every vessel in one statement (one page as large as the fleet), which reads the rollups once:
  // at 10,000 vessels 20 pages of 500 took 7-9 s, the one statement 0.8-0.9 s (docs/architecture.md, "Scheduled reports: figures").
  const all = await fleetStatistics(db, caller, window, {
    pageIndex: 1,
    pageSize: EVERY_VESSEL,
    sort: 'name',
    order: 'asc',
  });
  const vessels: VesselAvailability[] = all.list.map((r) => ({
    id: r.deviceId,
    name: r.name,
    deviceNum: r.deviceNum,
    locked: r.locked,
    onlineSeconds: r.onlineSeconds,
    warnSeconds: r.warnSeconds,
    availability: (r as { availability?: number | null }).availability ?? null,
    longestOutageSeconds: null,
  }));
  const periodSeconds = (range.toMs - range.fromMs) / 1000;
  const counted = vessels.filter((v) => !v.locked);
  const locked = new Set(vessels.filter((v) => v.locked).map((v) => v.id));
  const rollups = await rollupFigures(
    db,
    caller,
    range,
    offsetHours,
    counted.map((v) => v.id),
  );
  const outages = new Map(rollups.outages.map((o) => [o.id, o.seconds]));
  for (const v of counted) v.longestOutageSeconds = Math.min(periodSeconds, Math.round(outages.get(v.id) ?? 0));
  const byDay = new Map(rollups.days.map((d) => [d.k, d]));
  const offsetMs = offsetHours * 3_600_000;
  const days = dayNumbers.map((day) => {
    const start = Math.max(range.fromMs, day * DAY_MS - offsetMs);
    const end = Math.min(range.toMs, (day + 1) * DAY_MS - offsetMs);
    const row = byDay.get(day);
    return {
      day,
      onlineSeconds: Math.round(row?.online ?? 0),
      warnSeconds: Math.round(row?.warn ?? 0),
      periodSeconds: (Math.max(0, end - start) / 1000) * counted.length,
    };
  });
  const onlineSeconds = counted.reduce((sum, v) => sum + (v.onlineSeconds ?? 0), 0);
  const warnSeconds = counted.reduce((sum, v) => sum + (v.warnSeconds ?? 0), 0);
  return {
    periodSeconds,
    vessels,
    counted: counted.length,
    onlineSeconds,
    warnSeconds,
    availability: counted.length && periodSeconds > 0 ? Math.min(1, onlineSeconds / (periodSeconds * counted.length)) : null,
    days,
    // Statistics locked for a vessel: its links are left out too.
    links: (await linkTimesByVessel(db, caller, range)).filter((l) => !locked.has(l.id)),
  };
}

/** Reads the figures of the requested kinds for the caller's visible vessels over the range. */
export async function reportFigures(
  db: Queryable,
  caller: Principal,
  kinds: readonly ReportKind[],
  range: ReportRange,
  offsetHours: number,
): Promise<ReportFigures> {
  const figures: ReportFigures = { vessels: 0 };
  if (kinds.includes('availability')) {
    figures.availability = await availabilityFigures(db, caller, range, offsetHours);
    figures.vessels = figures.availability.vessels.length;
  } else figures.vessels = await visibleVesselCount(db, caller);
  if (kinds.includes('alarms'))
    figures.alarms = {
      counts: await alarmCounts(db, caller, range),
      times: await alarmTimes(db, caller, range),
      byVessel: await alarmsByVessel(db, caller, range),
    };
  if (kinds.includes('commands')) figures.commands = await commandCounts(db, caller, range);
  if (kinds.includes('dataUsage')) figures.dataUsage = await dataUsageByVessel(db, caller, range, offsetHours);
  if (kinds.includes('portCalls')) figures.portCalls = await portCalls(db, caller, range);
  return figures;
}
