/**
 * Quiet hours (docs/api.md, "Notifications"): a recipient's daily window (a contact point's, or a
 * user's own), in its zone, in which what is not critical waits. Pure: the end of the window that
 * holds `at`, or `at` itself.
 */
const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** The wall-clock minute of the day at `at` in `timeZone`. */
function minuteOfDay(at: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return Number(parts.hour) * 60 + Number(parts.minute);
}

export function afterQuietHours(at: Date, quiet: { from: string | null; to: string | null; timeZone: string }): Date {
  if (!quiet.from || !quiet.to) return at;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  const now = minuteOfDay(at, quiet.timeZone);
  const inside = from < to ? now >= from && now < to : now >= from || now < to;
  if (!inside) return at;
  // Whole minutes to the window's end, from the start of the current minute.
  const wait = (to - now + 1440) % 1440;
  const start = new Date(at);
  start.setUTCSeconds(0, 0);
  return new Date(start.getTime() + wait * 60_000);
}

/**
 * A user's zone: the whole-hour UTC offset of its last login as an IANA zone (Etc/GMT signs are
 * inverted: UTC+8 is Etc/GMT-8); UTC+8 when it never said.
 */
export const userZone = (offsetHours: number | null): string => {
  const hours = offsetHours ?? 8;
  return hours === 0 ? 'UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
};
