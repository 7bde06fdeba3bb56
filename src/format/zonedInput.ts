/**
 * datetime-local inputs hold a wall-clock time in the selected time zone (whole hours from UTC);
 * the API takes and gives instants in ISO UTC.
 */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

export function isoToLocalInput(iso: string | null | undefined, timeZone: number): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return '';
  const d = new Date(ms + timeZone * 3_600_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The input value of an instant given in milliseconds. */
export const msToLocalInput = (ms: number, timeZone: number): string => isoToLocalInput(new Date(ms).toISOString(), timeZone);

/** The instant of a wall-clock input; empty stays empty (required), anything unreadable is kept (format message). */
export function localInputToIso(local: string, timeZone: number): string {
  const m = LOCAL.exec(local ?? '');
  if (!m) return local ?? '';
  const [, y, mo, d, h, mi] = m.map(Number) as number[];
  return new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!) - timeZone * 3_600_000).toISOString();
}

/** The instant of a wall-clock input, or undefined when it is not a complete date and time. */
export const localInputToIsoOrUndefined = (local: string, timeZone: number): string | undefined =>
  LOCAL.test(local ?? '') ? localInputToIso(local, timeZone) : undefined;
