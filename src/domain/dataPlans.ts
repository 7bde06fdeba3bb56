import * as yup from 'yup';

/**
 * Data usage and monthly data plans (docs/api.md, "dataPlan"), shared by the server and the console.
 *
 * Bytes are counted as carriers bill them: 1 GB = 10^9 bytes (decimal), 1 MB = 10^6.
 * A plan's period starts on its reset day at 00:00 UTC and lasts one calendar month: every vessel
 * of a fleet crosses time zones, so one fixed zone keeps periods identical for every viewer and
 * aligned with the hourly rollups (whose hours are UTC), which is what makes a period's usage an
 * exact sum of rollup rows. Reset days stop at 28 so that every month has the day.
 */
export const GB = 1_000_000_000;
export const MB = 1_000_000;
/** A report's bytesUsed at most: 10 GB since the previous report (far above any VSAT or LTE link's 10 s). */
export const MAX_BYTES_PER_REPORT = 10 * GB;
/** A plan's quota at most: 1,000,000 GB (1 PB), far above any vessel plan, and safe in a JavaScript number. */
export const MAX_QUOTA_BYTES = 1_000_000 * GB;
export const MAX_QUOTA_GB = MAX_QUOTA_BYTES / GB;
export const RESET_DAY_MIN = 1;
export const RESET_DAY_MAX = 28;
/** Days of daily history the usage call answers at most. */
export const MAX_USAGE_DAYS = 93;

const int = (key: string) => yup.number().typeError(key).integer(key);

/** Set a vessel's plan (quota in bytes, reset day of month). */
export const dataPlanSchema = yup.object({
  deviceId: int('validation.integer').required('validation.required'),
  quotaBytes: int('validation.quotaBytes')
    .required('validation.required')
    .min(1, 'validation.quotaBytes')
    .max(MAX_QUOTA_BYTES, 'validation.quotaBytes'),
  resetDay: int('validation.resetDay')
    .required('validation.required')
    .min(RESET_DAY_MIN, 'validation.resetDay')
    .max(RESET_DAY_MAX, 'validation.resetDay'),
});
export type DataPlanInput = yup.InferType<typeof dataPlanSchema>;

/** Share of the quota used, in percent with one decimal (null without a plan). */
export const percentOf = (used: number, quota: number | null | undefined): number | null =>
  quota ? Math.round((used / quota) * 1000) / 10 : null;

/** Bytes as the console shows them (decimal units, like a carrier's bill). */
export function formatBytes(bytes: number | null | undefined, locale = 'en'): string {
  if (bytes === null || bytes === undefined) return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let v = bytes;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u += 1;
  }
  return `${v.toLocaleString(locale, { maximumFractionDigits: v >= 100 || u === 0 ? 0 : v >= 10 ? 1 : 2 })} ${units[u]}`;
}

/** A vessel's plan, as the API answers it. */
export interface DataPlan {
  deviceId: number;
  quotaBytes: number;
  resetDay: number;
  updatedAt: string;
  updatedBy: number | null;
  updatedByName: string | null;
}

/** A vessel's data usage, as the API answers it (deviceModule/dataPlan/getUsage). */
export interface DataUsage {
  deviceId: number;
  plan: DataPlan | null;
  periodStart: string;
  periodEnd: string;
  usedBytes: number;
  quotaBytes: number | null;
  /** Percent of the quota used, one decimal (null without a plan). */
  percent: number | null;
  /** The alarm share reached: 0, 80 or 100. */
  level: number;
  previous: { periodStart: string; periodEnd: string; usedBytes: number };
  /** Bytes per UTC day over the last `days` days, oldest first, today included (days without reports: 0). */
  daily: { date: string; bytes: number }[];
}
