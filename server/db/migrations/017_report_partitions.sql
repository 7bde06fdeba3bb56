-- Telemetry storage (docs/architecture.md, "Telemetry storage"): device_reports partitioned by device time, one partition a
-- calendar month (UTC), on PGlite and PostgreSQL alike. Retention drops whole months that are
-- past the retention window (no row-by-row delete, no bloat) and deletes in batches only within the
-- month that straddles the cut. Partitions are made ahead: by this migration, at every start and by
-- the leader's hourly retention (ensure_report_partitions). A report whose month has no partition
-- (older than any partition made, or far ahead) lands in device_reports_default, which retention
-- prunes in batches like any other rows.
--
-- The table keeps its name, columns, keys, indexes and triggers: it is rebuilt from the old one with
-- LIKE ... INCLUDING ALL (every column, whichever migration added it), the foreign key to devices is
-- added again, every trigger of the old table is created on the new one, and the rows are copied.
-- Function bodies stay on one line where a semicolon would end a line: migrations are split at semicolons that end a line.
DO $$
DECLARE
  ix record;
BEGIN
  ALTER TABLE device_reports RENAME TO device_reports_unpartitioned;
  FOR ix IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'device_reports_unpartitioned'::regclass LOOP
    EXECUTE format('ALTER INDEX %I RENAME TO %I', ix.relname, 'unpart_' || ix.relname);
  END LOOP;
END
$$;
CREATE TABLE device_reports (LIKE device_reports_unpartitioned INCLUDING ALL) PARTITION BY RANGE (device_time);
ALTER TABLE device_reports ADD FOREIGN KEY (device_id) REFERENCES devices (id) ON DELETE CASCADE;
CREATE TABLE device_reports_default PARTITION OF device_reports DEFAULT;

-- Monthly partitions covering [p_from, p_to); a month that already has one is skipped, and so is a
-- month whose rows already sit in the default partition (they stay there until retention).
CREATE FUNCTION ensure_report_partitions(p_from timestamptz, p_to timestamptz) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  m timestamp := date_trunc('month', p_from AT TIME ZONE 'UTC');
  lo timestamptz;
  hi timestamptz;
  made int := 0;
  name text;
BEGIN
  WHILE (m AT TIME ZONE 'UTC') < p_to LOOP
    lo := m AT TIME ZONE 'UTC';
    hi := (m + interval '1 month') AT TIME ZONE 'UTC';
    name := 'device_reports_' || to_char(m, 'YYYY_MM');
    IF to_regclass(name) IS NULL AND NOT EXISTS (SELECT 1 FROM device_reports_default WHERE device_time >= lo AND device_time < hi) THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF device_reports FOR VALUES FROM (%L) TO (%L)', name, lo, hi);
      made := made + 1;
    END IF;
    m := m + interval '1 month';
  END LOOP;
  RETURN made;
END
$$;

-- Drops the monthly partitions that end at or before p_cut (retention); answers how many rows went.
CREATE FUNCTION drop_report_partitions_before(p_cut timestamptz) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  p record;
  gone bigint := 0;
  n bigint;
BEGIN
  FOR p IN SELECT c.relname, make_timestamp(substr(c.relname, 16, 4)::int, substr(c.relname, 21, 2)::int, 1, 0, 0, 0) AS month_start
             FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'device_reports'::regclass AND c.relname ~ '^device_reports_[0-9]{4}_[0-9]{2}$' LOOP
    IF (p.month_start + interval '1 month') AT TIME ZONE 'UTC' <= p_cut THEN
      EXECUTE format('SELECT count(*) FROM %I', p.relname) INTO n;
      EXECUTE format('DROP TABLE %I', p.relname);
      gone := gone + n;
    END IF;
  END LOOP;
  RETURN gone;
END
$$;

SELECT ensure_report_partitions(least(now() - interval '2 months', (SELECT min(device_time) FROM device_reports_unpartitioned)), now() + interval '3 months');

-- The old table's triggers (the hourly rollups and any added since) move to the new one; the
-- copy below runs before they exist, so it does not rebuild rollups that are already right.
DO $$
DECLARE
  t record;
  def text;
BEGIN
  FOR t IN SELECT tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE tgrelid = 'device_reports_unpartitioned'::regclass AND NOT tgisinternal LOOP
    EXECUTE format('DROP TRIGGER %I ON device_reports_unpartitioned', t.tgname);
    def := regexp_replace(t.def, ' ON \S*device_reports_unpartitioned ', ' ON device_reports ');
    EXECUTE 'CREATE TEMP TABLE IF NOT EXISTS report_trigger_defs (def text) ON COMMIT DROP';
    INSERT INTO report_trigger_defs VALUES (def);
  END LOOP;
END
$$;
INSERT INTO device_reports SELECT * FROM device_reports_unpartitioned;
DO $$
DECLARE
  d record;
BEGIN
  IF to_regclass('pg_temp.report_trigger_defs') IS NOT NULL THEN
    FOR d IN SELECT def FROM report_trigger_defs LOOP
      EXECUTE d.def;
    END LOOP;
  END IF;
END
$$;
DROP TABLE device_reports_unpartitioned;
