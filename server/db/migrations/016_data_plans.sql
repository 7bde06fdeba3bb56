-- Data usage and data plans (docs/api.md, "dataPlan").
--
-- A report may carry bytesUsed (bytes sent and received since the device's previous report): it is
-- kept in device_reports.bytes_used and summed per hour in report_hourly.bytes_used by the rollup
-- trigger of 013 (its two functions are replaced below with the same names and the new column).
-- A duplicated report (same device time) is never inserted, so never counted twice; an older
-- (out-of-order) report is inserted and counted like any other.
--
-- A vessel's plan: a quota in bytes and a reset day (1..28). Its period starts on the reset day at
-- 00:00 UTC and runs one calendar month (UTC, so that a period is a whole number of the rollups'
-- UTC hours and the same for every viewer; see src/domain/dataPlans.ts).
--
-- data_usage holds each device's usage in its current period, so reading it is one row: the ingest
-- writer adds a group's bytes in the group's transaction (one upsert for the group), and recomputes
-- it from report_hourly when a new period began, the plan changed, or the leader's minute sweep
-- finds the period over. A device without a plan is counted on a calendar month (reset day 1).
-- alerted is the highest alarm share (0, 80, 100) already raised in this period under this plan,
-- so each alarm is raised once per period even if a user clears it.
-- Function bodies stay on one line where a semicolon would end a line: migrations are split at semicolons that end a line.
ALTER TABLE device_reports ADD COLUMN bytes_used bigint;
ALTER TABLE report_hourly ADD COLUMN bytes_used bigint NOT NULL DEFAULT 0;

CREATE TABLE data_plans (
  device_id integer PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  quota_bytes bigint NOT NULL CHECK (quota_bytes > 0),
  reset_day smallint NOT NULL CHECK (reset_day BETWEEN 1 AND 28),
  updated_by integer REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE data_usage (
  device_id integer PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  period_start timestamptz NOT NULL,
  bytes bigint NOT NULL DEFAULT 0,
  alerted smallint NOT NULL DEFAULT 0
);

-- The start of the period holding p_at for a plan that resets on day p_reset_day, 00:00 UTC.
CREATE FUNCTION data_period_start(p_reset_day int, p_at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$ SELECT (CASE WHEN m + (p_reset_day - 1) * interval '1 day' <= (p_at AT TIME ZONE 'UTC') THEN m ELSE m - interval '1 month' END + (p_reset_day - 1) * interval '1 day') AT TIME ZONE 'UTC' FROM (SELECT date_trunc('month', p_at AT TIME ZONE 'UTC') AS m) x $$;

CREATE OR REPLACE FUNCTION report_hourly_rebuild(p_devices int[], p_hours timestamptz[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM report_hourly h USING unnest(p_devices, p_hours) AS k(d, hs) WHERE h.device_id = k.d AND h.hour_start = k.hs;
  INSERT INTO report_hourly (device_id, hour_start, reports, warn_reports, first_at, last_at, last_warn, covered_us, warn_covered_us,
         long_gaps_us, warn_long_gaps_us, signal_min, signal_max, signal_sum, snr_min, snr_max, snr_sum, azimuth_min, azimuth_max, azimuth_sum,
         elevation_min, elevation_max, elevation_sum, skew_min, skew_max, skew_sum, speed_min, speed_max, speed_sum, bytes_used)
  SELECT device_id, hs, count(*)::int, (count(*) FILTER (WHERE w))::int, min(t), max(t), (array_agg(w ORDER BY t DESC))[1],
         COALESCE(sum(gap) FILTER (WHERE gap <= 60000000), 0), COALESCE(sum(gap) FILTER (WHERE gap <= 60000000 AND pw), 0),
         COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000), '{}'), COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000 AND pw), '{}'),
         min(signal_level), max(signal_level), sum(signal_level), min(snr), max(snr), sum(snr), min(azimuth), max(azimuth), sum(azimuth),
         min(elevation), max(elevation), sum(elevation), min(skew), max(skew), sum(skew), min(speed), max(speed), sum(speed),
         COALESCE(sum(bytes_used), 0)::bigint
    FROM (SELECT r.device_id, k.hs, r.device_time AS t, (cardinality(r.faults) > 0 OR NOT r.modem_lock) AS w,
                 (extract(epoch FROM r.device_time - lag(r.device_time) OVER x) * 1000000)::bigint AS gap,
                 lag(cardinality(r.faults) > 0 OR NOT r.modem_lock) OVER x AS pw,
                 r.signal_level, r.snr, r.azimuth, r.elevation, r.skew, r.speed, r.bytes_used
            FROM unnest(p_devices, p_hours) AS k(d, hs)
            JOIN device_reports r ON r.device_id = k.d AND r.device_time >= k.hs AND r.device_time < k.hs + interval '1 hour'
          WINDOW x AS (PARTITION BY r.device_id, k.hs ORDER BY r.device_time)) s
   GROUP BY device_id, hs
$$;

CREATE OR REPLACE FUNCTION report_hourly_ingest() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rd int[];
  rh timestamptz[];
  nd int[];
  nh timestamptz[];
BEGIN
  WITH k AS (
    SELECT device_id, date_bin('1 hour', device_time, timestamptz '2000-01-01 00:00:00+00') AS hs, min(device_time) AS min_at
      FROM new_reports GROUP BY 1, 2
  ), late AS (
    SELECT k.device_id, k.hs FROM k JOIN report_hourly h ON h.device_id = k.device_id AND h.hour_start = k.hs WHERE h.last_at > k.min_at
  ), s AS (
    SELECT n.device_id, date_bin('1 hour', n.device_time, timestamptz '2000-01-01 00:00:00+00') AS hs, n.device_time AS t,
           (cardinality(n.faults) > 0 OR NOT n.modem_lock) AS w,
           (extract(epoch FROM n.device_time - lag(n.device_time) OVER x) * 1000000)::bigint AS gap,
           lag(cardinality(n.faults) > 0 OR NOT n.modem_lock) OVER x AS pw,
           n.signal_level, n.snr, n.azimuth, n.elevation, n.skew, n.speed, n.bytes_used
      FROM new_reports n
     WHERE NOT EXISTS (SELECT 1 FROM late WHERE late.device_id = n.device_id
                                                AND late.hs = date_bin('1 hour', n.device_time, timestamptz '2000-01-01 00:00:00+00'))
    WINDOW x AS (PARTITION BY n.device_id, date_bin('1 hour', n.device_time, timestamptz '2000-01-01 00:00:00+00') ORDER BY n.device_time)
  ), up AS (
    INSERT INTO report_hourly AS h (device_id, hour_start, reports, warn_reports, first_at, last_at, last_warn, covered_us, warn_covered_us,
           long_gaps_us, warn_long_gaps_us, signal_min, signal_max, signal_sum, snr_min, snr_max, snr_sum, azimuth_min, azimuth_max, azimuth_sum,
           elevation_min, elevation_max, elevation_sum, skew_min, skew_max, skew_sum, speed_min, speed_max, speed_sum, bytes_used)
    SELECT device_id, hs, count(*)::int, (count(*) FILTER (WHERE w))::int, min(t), max(t), (array_agg(w ORDER BY t DESC))[1],
           COALESCE(sum(gap) FILTER (WHERE gap <= 60000000), 0), COALESCE(sum(gap) FILTER (WHERE gap <= 60000000 AND pw), 0),
           COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000), '{}'), COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000 AND pw), '{}'),
           min(signal_level), max(signal_level), sum(signal_level), min(snr), max(snr), sum(snr), min(azimuth), max(azimuth), sum(azimuth),
           min(elevation), max(elevation), sum(elevation), min(skew), max(skew), sum(skew), min(speed), max(speed), sum(speed),
           COALESCE(sum(bytes_used), 0)::bigint
      FROM s GROUP BY device_id, hs
    ON CONFLICT (device_id, hour_start) DO UPDATE SET
      reports = h.reports + EXCLUDED.reports,
      warn_reports = h.warn_reports + EXCLUDED.warn_reports,
      last_at = EXCLUDED.last_at,
      last_warn = EXCLUDED.last_warn,
      covered_us = h.covered_us + EXCLUDED.covered_us
        + CASE WHEN (extract(epoch FROM EXCLUDED.first_at - h.last_at) * 1000000)::bigint <= 60000000
               THEN (extract(epoch FROM EXCLUDED.first_at - h.last_at) * 1000000)::bigint ELSE 0 END,
      warn_covered_us = h.warn_covered_us + EXCLUDED.warn_covered_us
        + CASE WHEN h.last_warn AND (extract(epoch FROM EXCLUDED.first_at - h.last_at) * 1000000)::bigint <= 60000000
               THEN (extract(epoch FROM EXCLUDED.first_at - h.last_at) * 1000000)::bigint ELSE 0 END,
      long_gaps_us = h.long_gaps_us || EXCLUDED.long_gaps_us
        || CASE WHEN (extract(epoch FROM EXCLUDED.first_at - h.last_at) * 1000000)::bigint > 60000000
                THEN ARRAY[(extract(epoch FROM EXCLUDED.first_at - h.last_at) * 1000000)::bigint] ELSE '{}'::bigint[] END,
      warn_long_gaps_us = h.warn_long_gaps_us || EXCLUDED.warn_long_gaps_us
        || CASE WHEN h.last_warn AND (extract(epoch FROM EXCLUDED.first_at - h.last_at) * 1000000)::bigint > 60000000
                THEN ARRAY[(extract(epoch FROM EXCLUDED.first_at - h.last_at) * 1000000)::bigint] ELSE '{}'::bigint[] END,
      signal_min = least(h.signal_min, EXCLUDED.signal_min), signal_max = greatest(h.signal_max, EXCLUDED.signal_max), signal_sum = h.signal_sum + EXCLUDED.signal_sum,
      snr_min = least(h.snr_min, EXCLUDED.snr_min), snr_max = greatest(h.snr_max, EXCLUDED.snr_max), snr_sum = h.snr_sum + EXCLUDED.snr_sum,
      azimuth_min = least(h.azimuth_min, EXCLUDED.azimuth_min), azimuth_max = greatest(h.azimuth_max, EXCLUDED.azimuth_max), azimuth_sum = h.azimuth_sum + EXCLUDED.azimuth_sum,
      elevation_min = least(h.elevation_min, EXCLUDED.elevation_min), elevation_max = greatest(h.elevation_max, EXCLUDED.elevation_max), elevation_sum = h.elevation_sum + EXCLUDED.elevation_sum,
      skew_min = least(h.skew_min, EXCLUDED.skew_min), skew_max = greatest(h.skew_max, EXCLUDED.skew_max), skew_sum = h.skew_sum + EXCLUDED.skew_sum,
      speed_min = least(h.speed_min, EXCLUDED.speed_min), speed_max = greatest(h.speed_max, EXCLUDED.speed_max), speed_sum = h.speed_sum + EXCLUDED.speed_sum,
      bytes_used = h.bytes_used + EXCLUDED.bytes_used
    RETURNING h.device_id, h.hour_start, (h.xmax = 0) AS created
  )
  SELECT (SELECT array_agg(device_id) FROM up WHERE created), (SELECT array_agg(hour_start) FROM up WHERE created),
         (SELECT array_agg(device_id) FROM late), (SELECT array_agg(hs) FROM late)
    INTO nd, nh, rd, rh;

  IF rd IS NOT NULL THEN
    PERFORM report_hourly_rebuild(rd, rh);
  END IF;
  IF rd IS NOT NULL OR nd IS NOT NULL THEN
    PERFORM report_hourly_link(COALESCE(rd, '{}') || COALESCE(nd, '{}'), COALESCE(rh, '{}') || COALESCE(nh, '{}'));
  END IF;
  RETURN NULL;
END
$$;
