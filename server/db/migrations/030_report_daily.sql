-- Daily rollups above the hourly ones (docs/architecture.md, "Telemetry storage", daily rollups).
-- A row per vessel and day, built from the day's hour rows (report_hourly) by the leader once the
-- day is over ("sealed", server/modules/monitoring/dailyRollupQueries.ts). Days are those of the
-- time zones in use: a day starts at a whole UTC hour, its "alignment" (0 for UTC, 16 for UTC+8,
-- 5 for UTC-5), and each alignment asked for by the statistics or a report schedule is sealed
-- (report_daily_state); so a window of local days, and a report's days, read one row a vessel per
-- day instead of 24. A row holds what the hour rows hold for the online-time rule, so the answer
-- stays exactly that of the hours (and of the reports) for any offline threshold:
--   covered_us: every gap of at most 60 s between two reports of the day (those of its hours and
--     those between its hours), always counted whole; long_gaps_us: each longer gap, capped at
--     query time; next_at: the first report after the day; warn_* the same for warn time.
-- Days of an alignment before its sealed_until are complete for every vessel, except the (vessel,
-- day) pairs in report_daily_dirty: an hour row of an ended day written or changed (a late report,
-- or the first report after a silence pointing the day's last hour at it) marks that day for every
-- alignment; the statistics read that vessel's day from its hours until the leader rebuilds it.
CREATE TABLE report_daily (
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  day_start timestamptz NOT NULL,
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
  bytes_used bigint NOT NULL,
  PRIMARY KEY (device_id, day_start)
);
CREATE INDEX report_daily_day_idx ON report_daily (day_start);

CREATE TABLE report_daily_state (
  align smallint PRIMARY KEY CHECK (align BETWEEN 0 AND 23),
  sealed_until timestamptz
);
INSERT INTO report_daily_state (align, sealed_until) VALUES (0, NULL);

CREATE TABLE report_daily_dirty (
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  day_start timestamptz NOT NULL,
  PRIMARY KEY (device_id, day_start)
);
CREATE INDEX report_daily_dirty_day_idx ON report_daily_dirty (day_start);

-- An hour row written or changed whose day has ended, at any alignment in use: that day is marked,
-- sealed or not yet (a mark made while the day is being built outlives the build, so nothing falls
-- between). Rows of the current hour never qualify, so the ingest of current reports pays only the
-- WHEN test, and each vessel's first report of an hour one call (the link of the hour before).
CREATE FUNCTION report_daily_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_daily_dirty (device_id, day_start)
  SELECT NEW.device_id, ds
    FROM report_daily_state s
   CROSS JOIN LATERAL (SELECT date_bin('1 day', NEW.hour_start, timestamptz '2000-01-01 00:00:00+00' + make_interval(hours => s.align)) AS ds) d
   WHERE ds + interval '24 hours' <= now()
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER report_daily_mark AFTER INSERT OR UPDATE ON report_hourly FOR EACH ROW
  WHEN (NEW.hour_start < now() - interval '1 hour')
  EXECUTE FUNCTION report_daily_mark();

CREATE AGGREGATE report_gaps_cat (bigint[]) (SFUNC = array_cat, STYPE = bigint[], INITCOND = '{}');

-- (Re)builds the given (vessel, day) rows from their hour rows, and takes their marks away.
CREATE FUNCTION report_daily_build(p_devices int[], p_days timestamptz[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM report_daily_dirty x USING unnest(p_devices, p_days) AS k(d, ds) WHERE x.device_id = k.d AND x.day_start = k.ds;
  DELETE FROM report_daily r USING unnest(p_devices, p_days) AS k(d, ds) WHERE r.device_id = k.d AND r.day_start = k.ds;
  INSERT INTO report_daily (device_id, day_start, reports, warn_reports, first_at, last_at, last_warn, next_at, covered_us, warn_covered_us,
         long_gaps_us, warn_long_gaps_us, bytes_used)
  SELECT device_id, ds, sum(reports)::int, sum(warn_reports)::int, min(first_at), max(last_at),
         (array_agg(last_warn ORDER BY hour_start DESC))[1], (array_agg(next_at ORDER BY hour_start DESC))[1],
         (sum(covered_us) + COALESCE(sum(gap) FILTER (WHERE gap <= 60000000), 0))::bigint,
         (sum(warn_covered_us) + COALESCE(sum(gap) FILTER (WHERE gap <= 60000000 AND pw), 0))::bigint,
         report_gaps_cat(long_gaps_us) || COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000), '{}'),
         report_gaps_cat(warn_long_gaps_us) || COALESCE(array_agg(gap) FILTER (WHERE gap > 60000000 AND pw), '{}'),
         sum(bytes_used)::bigint
    FROM (SELECT h.device_id, k.ds, h.hour_start, h.reports, h.warn_reports, h.first_at, h.last_at, h.last_warn, h.next_at, h.covered_us,
                 h.warn_covered_us, h.long_gaps_us, h.warn_long_gaps_us, h.bytes_used,
                 (extract(epoch FROM h.first_at - lag(h.last_at) OVER x) * 1000000)::bigint AS gap, lag(h.last_warn) OVER x AS pw
            FROM unnest(p_devices, p_days) AS k(d, ds)
            JOIN report_hourly h ON h.device_id = k.d AND h.hour_start >= k.ds AND h.hour_start < k.ds + interval '24 hours'
          WINDOW x AS (PARTITION BY h.device_id, k.ds ORDER BY h.hour_start)) s
   GROUP BY device_id, ds
$$;
