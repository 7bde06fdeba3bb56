-- Telemetry storage (docs/architecture.md, "Telemetry storage"): hourly per-vessel rollups of device_reports, kept by the
-- database itself as reports are inserted (a statement-level trigger, so in the same transaction
-- and statement count as the ingest's one INSERT, whatever code inserts), and read by the time and
-- fleet statistics. Each row holds what the "online over time" rule (docs/architecture.md, "Vessel history: online time")
-- needs for any offline threshold, so the statistics read from it are the same as from the reports:
--   a report covers the time to the next report, at most the threshold (1 to 10,080 minutes).
-- Between two reports of one hour the covered time is min(gap, threshold): gaps of at most 60 s
-- (the smallest threshold) always count whole and are summed (covered_us); longer gaps are kept
-- one by one (long_gaps_us) and capped at query time. The last report of the hour covers up to
-- next_at (the first report after the hour), at most the threshold, computed at query time too.
-- Times in microseconds (exact integers). Warn time (faults or modem unlocked) is covered time too,
-- and also summed apart by the state of the covering (earlier) report.
-- The metric columns are min/max/sum of the charted values per hour (avg = sum / reports).
-- Retention deletes reports without touching rollups (they are kept longer).
CREATE TABLE report_hourly (
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  hour_start timestamptz NOT NULL,
  reports integer NOT NULL,
  warn_reports integer NOT NULL,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  last_warn boolean NOT NULL,
  next_at timestamptz,
  covered_us bigint NOT NULL,
  warn_covered_us bigint NOT NULL,
  long_gaps_us bigint[] NOT NULL,
  warn_long_gaps_us bigint[] NOT NULL,
  signal_min real, signal_max real, signal_sum float8,
  snr_min real, snr_max real, snr_sum float8,
  azimuth_min real, azimuth_max real, azimuth_sum float8,
  elevation_min real, elevation_max real, elevation_sum float8,
  skew_min real, skew_max real, skew_sum float8,
  speed_min real, speed_max real, speed_sum float8,
  PRIMARY KEY (device_id, hour_start)
);
CREATE INDEX report_hourly_hour_idx ON report_hourly (hour_start);

-- Rebuilds the given (device, hour) rows from the reports (an out-of-order report, the backfill).
CREATE FUNCTION report_hourly_rebuild(p_devices int[], p_hours timestamptz[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM report_hourly h USING unnest(p_devices, p_hours) AS k(d, hs) WHERE h.device_id = k.d AND h.hour_start = k.hs;
  INSERT INTO report_hourly (device_id, hour_start, reports, warn_reports, first_at, last_at, last_warn, covered_us, warn_covered_us,
         long_gaps_us, warn_long_gaps_us, signal_min, signal_max, signal_sum, snr_min, snr_max, snr_sum, azimuth_min, azimuth_max, azimuth_sum,
         elevation_min, elevation_max, elevation_sum, skew_min, skew_max, skew_sum, speed_min, speed_max, speed_sum)
  SELECT device_id, hs, count(*)::int, (count(*) FILTER (WHERE w))::int, min(t), max(t), (array_agg(w ORDER BY t DESC))[1],
         COALESCE(sum(gap) FILTER (WHERE gap <= 60000000), 0), COALESCE(sum(gap) FILTER (WHERE gap <= 60000000 AND pw), 0),
         COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000), '{}'), COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000 AND pw), '{}'),
         min(signal_level), max(signal_level), sum(signal_level), min(snr), max(snr), sum(snr), min(azimuth), max(azimuth), sum(azimuth),
         min(elevation), max(elevation), sum(elevation), min(skew), max(skew), sum(skew), min(speed), max(speed), sum(speed)
    FROM (SELECT r.device_id, k.hs, r.device_time AS t, (cardinality(r.faults) > 0 OR NOT r.modem_lock) AS w,
                 (extract(epoch FROM r.device_time - lag(r.device_time) OVER x) * 1000000)::bigint AS gap,
                 lag(cardinality(r.faults) > 0 OR NOT r.modem_lock) OVER x AS pw,
                 r.signal_level, r.snr, r.azimuth, r.elevation, r.skew, r.speed
            FROM unnest(p_devices, p_hours) AS k(d, hs)
            JOIN device_reports r ON r.device_id = k.d AND r.device_time >= k.hs AND r.device_time < k.hs + interval '1 hour'
          WINDOW x AS (PARTITION BY r.device_id, k.hs ORDER BY r.device_time)) s
   GROUP BY device_id, hs
$$;

-- After the given rows were created or rebuilt: the row before each points at its first report,
-- and each points at the first report of the row after it.
CREATE FUNCTION report_hourly_link(p_devices int[], p_hours timestamptz[]) RETURNS void LANGUAGE sql AS $$
  UPDATE report_hourly p SET next_at = c.first_at
    FROM (SELECT c.device_id, c.first_at,
                 (SELECT x.hour_start FROM report_hourly x WHERE x.device_id = c.device_id AND x.hour_start < c.hour_start
                   ORDER BY x.hour_start DESC LIMIT 1) AS prev
            FROM unnest(p_devices, p_hours) AS k(d, hs) JOIN report_hourly c ON c.device_id = k.d AND c.hour_start = k.hs) c
   WHERE p.device_id = c.device_id AND p.hour_start = c.prev AND p.next_at IS DISTINCT FROM c.first_at;
  UPDATE report_hourly c SET next_at = n.nx
    FROM (SELECT k.d, k.hs, (SELECT x.first_at FROM report_hourly x WHERE x.device_id = k.d AND x.hour_start > k.hs ORDER BY x.hour_start LIMIT 1) AS nx
            FROM unnest(p_devices, p_hours) AS k(d, hs)) n
   WHERE c.device_id = n.d AND c.hour_start = n.hs AND c.next_at IS DISTINCT FROM n.nx
$$;

-- The rows of one INSERT, in one statement: hours whose new reports all come after the hour's last
-- one (the usual case) are merged in one upsert; other hours ("late") are then rebuilt from the
-- reports. Writers of one device
-- take turns (the ingest writer holds pg_advisory_xact_lock(5, device id)).
CREATE FUNCTION report_hourly_ingest() RETURNS trigger LANGUAGE plpgsql AS $$
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
           n.signal_level, n.snr, n.azimuth, n.elevation, n.skew, n.speed
      FROM new_reports n
     WHERE NOT EXISTS (SELECT 1 FROM late WHERE late.device_id = n.device_id
                                                AND late.hs = date_bin('1 hour', n.device_time, timestamptz '2000-01-01 00:00:00+00'))
    WINDOW x AS (PARTITION BY n.device_id, date_bin('1 hour', n.device_time, timestamptz '2000-01-01 00:00:00+00') ORDER BY n.device_time)
  ), up AS (
    INSERT INTO report_hourly AS h (device_id, hour_start, reports, warn_reports, first_at, last_at, last_warn, covered_us, warn_covered_us,
           long_gaps_us, warn_long_gaps_us, signal_min, signal_max, signal_sum, snr_min, snr_max, snr_sum, azimuth_min, azimuth_max, azimuth_sum,
           elevation_min, elevation_max, elevation_sum, skew_min, skew_max, skew_sum, speed_min, speed_max, speed_sum)
    SELECT device_id, hs, count(*)::int, (count(*) FILTER (WHERE w))::int, min(t), max(t), (array_agg(w ORDER BY t DESC))[1],
           COALESCE(sum(gap) FILTER (WHERE gap <= 60000000), 0), COALESCE(sum(gap) FILTER (WHERE gap <= 60000000 AND pw), 0),
           COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000), '{}'), COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000 AND pw), '{}'),
           min(signal_level), max(signal_level), sum(signal_level), min(snr), max(snr), sum(snr), min(azimuth), max(azimuth), sum(azimuth),
           min(elevation), max(elevation), sum(elevation), min(skew), max(skew), sum(skew), min(speed), max(speed), sum(speed)
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
      speed_min = least(h.speed_min, EXCLUDED.speed_min), speed_max = greatest(h.speed_max, EXCLUDED.speed_max), speed_sum = h.speed_sum + EXCLUDED.speed_sum
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

CREATE TRIGGER device_reports_hourly AFTER INSERT ON device_reports REFERENCING NEW TABLE AS new_reports
  FOR EACH STATEMENT EXECUTE FUNCTION report_hourly_ingest();

-- Backfill from the reports already stored, then link each row to the next.
SELECT report_hourly_rebuild(array_agg(device_id), array_agg(hs))
  FROM (SELECT DISTINCT device_id, date_bin('1 hour', device_time, timestamptz '2000-01-01 00:00:00+00') AS hs FROM device_reports) k;
UPDATE report_hourly h SET next_at = n.nx
  FROM (SELECT device_id, hour_start, lead(first_at) OVER (PARTITION BY device_id ORDER BY hour_start) AS nx FROM report_hourly) n
 WHERE h.device_id = n.device_id AND h.hour_start = n.hour_start AND n.nx IS NOT NULL;
