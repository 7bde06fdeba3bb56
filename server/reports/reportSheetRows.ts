import type { Language } from '../../src/domain/constants';
import { translateDomain } from '../../src/domain/messages';
import type { ReportRange } from '../../src/domain/reports';
import type { PortCall, VesselDataUsage, VesselLinkTime } from './reportQueries';

/**
 * The cells of a report's workbook (server/reports/reportWorkbook.ts): their types and number
 * formats, and the rows of the data usage and port calls sheets.
 */

/** A value, or a value with its number format (when its column has none). */
export type Cell = string | number | Date | null | { value: number | Date; numFmt: string };
export type Row = Cell[];

export const PERCENT = '0.0%';
export const HOURS = '0.0';
export const DATE_TIME = 'yyyy-mm-dd hh:mm';
export const DATE = 'yyyy-mm-dd';
export const GB = '0.00';

export const hours = (seconds: number | null) => (seconds === null ? null : Math.round(seconds / 360) / 10);

export interface Context {
  lang: Language;
  offsetHours: number;
}

/** The wall-clock time at the offset, as a Date whose UTC fields read it (what a cell shows). */
export const atZone = (ms: number, offsetHours: number) => new Date(ms + offsetHours * 3_600_000);

const gb = (bytes: number | null) => (bytes === null ? null : bytes / 1e9);

/** Per vessel: its monthly quota, what it used in the period, the share of the quota, and how far over it. */
export function dataUsageRows(c: Context, usage: VesselDataUsage[]): Row[] {
  const t = (key: string) => translateDomain(c.lang, key);
  const over = (v: { quotaBytes: number | null; usedBytes: number }) =>
    v.quotaBytes === null ? null : Math.max(0, v.usedBytes - v.quotaBytes);
  const rows: Row[] = [
    [
      t('report.dataUsage.vessel'),
      t('report.dataUsage.deviceNum'),
      t('report.dataUsage.quota'),
      t('report.dataUsage.used'),
      t('report.dataUsage.share'),
      t('report.dataUsage.over'),
    ],
    ...usage.map((v): Row => [
      v.name,
      v.deviceNum,
      v.quotaBytes === null ? t('report.dataUsage.noPlan') : gb(v.quotaBytes),
      gb(v.usedBytes),
      v.quotaBytes ? v.usedBytes / v.quotaBytes : null,
      gb(over(v)),
    ]),
  ];
  const planned = usage.filter((v) => v.quotaBytes !== null);
  rows.push([
    t('report.dataUsage.total'),
    null,
    gb(planned.reduce((s, v) => s + v.quotaBytes!, 0)),
    gb(usage.reduce((s, v) => s + v.usedBytes, 0)),
    null,
    gb(planned.reduce((s, v) => s + over(v)!, 0)),
  ]);
  return rows;
}

/** Each call: vessel, port, arrival and departure at the zone (date cells), hours in port up to the departure or the range's end. */
export function portCallRows(c: Context, calls: PortCall[], range: ReportRange): Row[] {
  const t = (key: string) => translateDomain(c.lang, key);
  return [
    [
      t('report.portCalls.vessel'),
      t('report.portCalls.port'),
      t('report.portCalls.arrived'),
      t('report.portCalls.departed'),
      t('report.portCalls.hours'),
    ],
    ...calls.map((p): Row => {
      const end = p.departedAt?.getTime() ?? range.toMs;
      return [
        p.name,
        p.port,
        atZone(p.arrivedAt.getTime(), c.offsetHours),
        p.departedAt ? atZone(p.departedAt.getTime(), c.offsetHours) : t('report.portCalls.inPort'),
        hours(Math.max(0, (end - p.arrivedAt.getTime()) / 1000)),
      ];
    }),
  ];
}

/**
 * Per vessel and link, under the availability sheet's columns (hours at 3, 4 and 6, a share at 5):
 * time up, carrying the traffic, share up of the time its links were reported, down, failovers away from it.
 */
export function linkRows(c: Context, links: VesselLinkTime[]): Row[] {
  const t = (key: string) => translateDomain(c.lang, key);
  return [
    [
      t('report.links.vessel'),
      t('report.links.link'),
      t('report.links.kind'),
      t('report.links.up'),
      t('report.links.active'),
      t('report.links.upShare'),
      t('report.links.down'),
      t('report.links.failovers'),
    ],
    ...links.map((l): Row => [
      l.name,
      l.linkId,
      t(`report.links.kind.${l.kind}`),
      hours(l.upSeconds),
      hours(l.activeSeconds),
      l.countedSeconds > 0 ? l.upSeconds / l.countedSeconds : null,
      hours(l.downSeconds),
      l.failovers,
    ]),
  ];
}
