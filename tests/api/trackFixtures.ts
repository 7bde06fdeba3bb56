import type { Queryable } from '../../server/db/connection';

export interface SeedPoint {
  at: Date;
  lat: number;
  lon: number;
  speed?: number;
  heading?: number;
  signal?: number;
  /** Warn state: a fault is reported. */
  warn?: boolean;
}

/** Writes reports straight into the history (the ingest path is covered by the monitoring tests). */
export async function seedReports(db: Queryable, deviceId: number, points: readonly SeedPoint[]): Promise<void> {
  for (let i = 0; i < points.length; i += 5000) {
    const chunk = points.slice(i, i + 5000);
    await db.query(
      `INSERT INTO device_reports (device_id, device_time, received_at, lat, lon, speed, heading, azimuth, elevation, skew,
              satellite_name, satellite_longitude, signal_level, snr, modem_lock, tx_on, faults)
       SELECT $1::int, t, t, lat, lon, speed, heading, 180, 45, 0, 'AsiaSat 7', 105.5, sig, 11, true, true,
              CASE WHEN warn THEN ARRAY['E05'] ELSE '{}'::text[] END
         FROM unnest($2::timestamptz[], $3::float8[], $4::float8[], $5::real[], $6::real[], $7::real[], $8::boolean[])
              AS u(t, lat, lon, speed, heading, sig, warn)
       ON CONFLICT DO NOTHING`,
      [
        deviceId,
        chunk.map((p) => p.at.toISOString()),
        chunk.map((p) => p.lat),
        chunk.map((p) => p.lon),
        chunk.map((p) => p.speed ?? 12),
        chunk.map((p) => p.heading ?? 0),
        chunk.map((p) => p.signal ?? 70),
        chunk.map((p) => p.warn ?? false),
      ],
    );
  }
}

/** One report a minute for `minutes`, ending `endMinutesAgo` before now, along `path(i)`. */
export function minutely(minutes: number, endMinutesAgo: number, path: (i: number) => Omit<SeedPoint, 'at'>): SeedPoint[] {
  const end = Math.floor(Date.now() / 60_000) * 60_000 - endMinutesAgo * 60_000;
  return Array.from({ length: minutes }, (_, i) => ({ at: new Date(end - (minutes - 1 - i) * 60_000), ...path(i) }));
}
