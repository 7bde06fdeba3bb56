/** datetime-local values read and written in the selected time zone (whole hours from UTC). */
const HOUR_MS = 3_600_000;

export const toZoneInput = (ms: number, timeZone: number): string =>
  new Date(ms + timeZone * HOUR_MS).toISOString().slice(0, 16);

export function fromZoneInput(value: string, timeZone: number): string | undefined {
  const ms = Date.parse(`${value}:00Z`);
  return Number.isNaN(ms) ? undefined : new Date(ms - timeZone * HOUR_MS).toISOString();
}
