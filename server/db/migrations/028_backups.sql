-- Backups (docs/architecture.md, "Backup and restore"): the nightly backup's settings (one row) and
-- the record of every finished backup, nightly or asked for, with its result.
CREATE TABLE backup_settings (
  id int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  nightly boolean NOT NULL DEFAULT true,
  hour_utc int NOT NULL DEFAULT 3 CHECK (hour_utc BETWEEN 0 AND 23),
  keep_count int NOT NULL DEFAULT 7 CHECK (keep_count BETWEEN 1 AND 365)
);
INSERT INTO backup_settings DEFAULT VALUES;
CREATE TABLE backup_runs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('nightly', 'manual')),
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL DEFAULT now(),
  ok boolean NOT NULL,
  file text,
  size_bytes bigint,
  tables int,
  message text
);
CREATE INDEX backup_runs_started ON backup_runs (started_at DESC);
