-- Firmware packages and paced rollouts (docs/architecture.md, "Firmware"). The file itself lives on disk in the
-- server's firmware folder (FIRMWARE_DIR) under storage_key; the row holds its size and SHA-256.
CREATE TABLE firmware_packages (
  id serial PRIMARY KEY,
  device_type text NOT NULL,
  customer text NOT NULL,
  model text NOT NULL,
  version text NOT NULL,
  version_type text NOT NULL DEFAULT 'release' CHECK (version_type IN ('release', 'beta')),
  enabled boolean NOT NULL DEFAULT true,
  update_info text,
  file_name text NOT NULL,
  file_size bigint NOT NULL CHECK (file_size >= 0),
  sha256 text NOT NULL,
  storage_key text NOT NULL UNIQUE,
  uploaded_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The same version twice for one model is refused.
CREATE UNIQUE INDEX firmware_packages_model_version_key ON firmware_packages (model, version);
CREATE INDEX firmware_packages_type_model_idx ON firmware_packages (device_type, model, id);

CREATE TABLE firmware_rollouts (
  id serial PRIMARY KEY,
  firmware_id integer NOT NULL REFERENCES firmware_packages (id) ON DELETE CASCADE,
  max_concurrent integer NOT NULL CHECK (max_concurrent BETWEEN 1 AND 1000),
  group_id integer REFERENCES device_groups (id) ON DELETE SET NULL,
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  cancelled_at timestamptz
);
CREATE INDEX firmware_rollouts_firmware_idx ON firmware_rollouts (firmware_id, id);

-- One row per device of a rollout: queued until a slot frees, then downloading, downloaded,
-- updating, and updated or failed, as the device reports.
CREATE TABLE firmware_rollout_targets (
  rollout_id integer NOT NULL REFERENCES firmware_rollouts (id) ON DELETE CASCADE,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'downloading', 'downloaded', 'updating', 'updated', 'failed')),
  progress smallint NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
  message text,
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rollout_id, device_id)
);
CREATE INDEX firmware_rollout_targets_device_idx ON firmware_rollout_targets (device_id, state);
CREATE INDEX firmware_rollout_targets_state_idx ON firmware_rollout_targets (rollout_id, state, device_id);
