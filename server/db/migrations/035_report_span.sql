-- Spans above the daily rollups (docs/architecture.md, "Telemetry storage", spans): for each
-- statistics window in use (a time zone alignment and a number of days, report_span_state), one
-- row per vessel that holds, as one bucket, every report from the window's first local midnight up
-- to `through`, the last whole hour ended some minutes ago. The fleet statistics of "the last N
-- days" then read, per vessel, the hours before the window, its span and the hours after `through`,
-- instead of a day row per whole day and an hour row per hour of today. Built every hour by the
-- leader (server/modules/monitoring/spanRollupQueries.ts) from the day rows and the hour rows;
-- a new build is written beside the one in use (keyed by its start and `through`), which it then
-- replaces; readers take the state and the rows in one statement, so a switch never shows half.
-- A row holds what a day row holds for the online-time rule (covered_us: gaps of at most 60 s;
-- long_gaps_us: each longer gap, capped at query time), so the answer stays exact for any offline
-- threshold. It holds no next_at: the first report after the span is read from the hours after it.
CREATE TABLE report_span_state (
  align smallint NOT NULL CHECK (align BETWEEN 0 AND 23),
  days smallint NOT NULL CHECK (days BETWEEN 1 AND 31),
  span_start timestamptz,
  through timestamptz,
  built_at timestamptz,
  PRIMARY KEY (align, days)
);

CREATE TABLE report_span (
  align smallint NOT NULL,
  days smallint NOT NULL,
  span_start timestamptz NOT NULL,
  through timestamptz NOT NULL,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  last_warn boolean NOT NULL,
  covered_us bigint NOT NULL,
  warn_covered_us bigint NOT NULL,
  long_gaps_us bigint[] NOT NULL,
  warn_long_gaps_us bigint[] NOT NULL,
  -- The vessel's offline threshold at the build, and the span's online and warn time at it (the long
  -- gaps capped): read as they are while the threshold is unchanged, so most vessels unnest nothing.
  minutes integer NOT NULL,
  inner_us bigint NOT NULL,
  warn_inner_us bigint NOT NULL,
  PRIMARY KEY (align, days, span_start, through, device_id)
);

-- A vessel whose reports of an ended hour changed (a late report, or a row rebuilt), other than
-- the link to the next report (next_at), since a span was built: its spans are not read, its
-- window is summed from its days and hours as before, until a build newer than the mark by more
-- than 5 minutes (an ingest transaction has committed by then).
CREATE TABLE report_span_dirty (
  device_id integer PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  marked_at timestamptz NOT NULL
);

-- The trigger of the daily rollups (migration 030) marks the spans too. It runs only for hour rows
-- of ended hours; the link of the hour before (next_at alone) is the one change it lets pass.
CREATE OR REPLACE FUNCTION report_daily_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_daily_dirty (device_id, day_start)
  SELECT NEW.device_id, ds
    FROM report_daily_state s
   CROSS JOIN LATERAL (SELECT date_bin('1 day', NEW.hour_start, timestamptz '2000-01-01 00:00:00+00' + make_interval(hours => s.align)) AS ds) d
   WHERE ds + interval '24 hours' <= now()
  ON CONFLICT DO NOTHING;
  IF TG_OP = 'INSERT' OR (OLD.reports, OLD.first_at, OLD.last_at, OLD.last_warn, OLD.covered_us, OLD.warn_covered_us, OLD.long_gaps_us,
                          OLD.warn_long_gaps_us) IS DISTINCT FROM (NEW.reports, NEW.first_at, NEW.last_at, NEW.last_warn, NEW.covered_us,
                          NEW.warn_covered_us, NEW.long_gaps_us, NEW.warn_long_gaps_us) THEN
    INSERT INTO report_span_dirty (device_id, marked_at)
    SELECT NEW.device_id, now() WHERE EXISTS (SELECT 1 FROM report_span_state)
    ON CONFLICT (device_id) DO UPDATE SET marked_at = greatest(report_span_dirty.marked_at, excluded.marked_at);
  END IF;
  RETURN NULL;
END
$$;
