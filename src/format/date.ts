/**
 * The one date formatter of the console: every date is shown in the selected time zone
 * (whole hours from UTC, docs/requirements.md §9). Times are stored in UTC on the server.
 */
const pad = (n: number) => String(n).padStart(2, '0');

export function formatDate(value: string | number | Date | null | undefined, timeZone: number, withTime = true): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const shifted = new Date(date.getTime() + timeZone * 3_600_000);
  const day = `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
  return withTime ? `${day} ${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}` : day;
}

export const timeZoneLabel = (hours: number): string => (hours === 0 ? 'UTC' : `UTC${hours > 0 ? '+' : ''}${hours}`);
