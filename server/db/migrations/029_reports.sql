-- Scheduled reports (docs/architecture.md, "Scheduled reports"): an enterprise's schedules, and every
-- run with its files, the workbook and the PDF (kept REPORT_KEEP_DAYS for download, then pruned by the leader).
CREATE TABLE report_schedules (
  id serial PRIMARY KEY,
  owner_id integer REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  kinds jsonb NOT NULL DEFAULT '[]',
  period text NOT NULL CHECK (period IN ('day', 'week', 'month')),
  cron text NOT NULL,
  language text NOT NULL CHECK (language IN ('zh', 'en')),
  time_zone integer NOT NULL CHECK (time_zone BETWEEN -12 AND 12),
  user_ids jsonb NOT NULL DEFAULT '[]',
  contact_point_ids jsonb NOT NULL DEFAULT '[]',
  enabled boolean NOT NULL DEFAULT true,
  last_run_at timestamptz,
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX report_schedules_owner_name ON report_schedules (owner_id, name);
CREATE TABLE report_runs (
  id bigserial PRIMARY KEY,
  owner_id integer REFERENCES users (id) ON DELETE CASCADE,
  schedule_id integer REFERENCES report_schedules (id) ON DELETE SET NULL,
  name text NOT NULL,
  kinds jsonb NOT NULL,
  period_from timestamptz NOT NULL,
  period_to timestamptz NOT NULL,
  time_zone integer NOT NULL,
  language text NOT NULL,
  state text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  error text,
  started_at timestamptz,
  duration_ms integer,
  size_bytes integer,
  recipients integer NOT NULL DEFAULT 0,
  file_name text,
  file bytea,
  pdf bytea,
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX report_runs_owner_created ON report_runs (owner_id, created_at DESC);
CREATE INDEX report_runs_retry ON report_runs (state) WHERE state <> 'done';
