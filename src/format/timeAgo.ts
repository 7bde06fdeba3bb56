/** "n minutes ago": the unit and count a past time is said in, from now. */
export type AgoUnit = 'justNow' | 'minutes' | 'hours' | 'days';

export function timeAgo(
  value: string | number | Date | null | undefined,
  now: number = Date.now(),
): { unit: AgoUnit; count: number } | null {
  if (value === null || value === undefined || value === '') return null;
  const at = value instanceof Date ? value.getTime() : new Date(value).getTime();
  if (Number.isNaN(at)) return null;
  const minutes = Math.floor(Math.max(0, now - at) / 60_000);
  if (minutes < 1) return { unit: 'justNow', count: 0 };
  if (minutes < 60) return { unit: 'minutes', count: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: 'hours', count: hours };
  return { unit: 'days', count: Math.floor(hours / 24) };
}
