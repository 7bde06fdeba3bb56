-- Live monitoring: the latest state per device, the report history, alarms, offline
-- thresholds and the history retention. "Offline" is never stored: it is derived at query time
-- from device_state.reported_at and the device's threshold, so no background job is needed.
CREATE TABLE monitor_settings (
  id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  default_offline_minutes integer NOT NULL DEFAULT 10 CHECK (default_offline_minutes BETWEEN 1 AND 10080),
  retention_days integer NOT NULL DEFAULT 90 CHECK (retention_days >= 1)
);
INSERT INTO monitor_settings (id) VALUES (1);

-- An enterprise's own default, and a device's own threshold (the device's wins).
CREATE TABLE enterprise_offline_thresholds (
  enterprise_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  offline_minutes integer NOT NULL CHECK (offline_minutes BETWEEN 1 AND 10080)
);
CREATE TABLE device_offline_thresholds (
  device_id integer PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  offline_minutes integer NOT NULL CHECK (offline_minutes BETWEEN 1 AND 10080)
);

-- The newest report of each device (by device time); state 1 online or 2 warn as of that report.
CREATE TABLE device_state (
  device_id integer PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  reported_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  state smallint NOT NULL CHECK (state IN (1, 2)),
  unactivated boolean NOT NULL DEFAULT false,
  lat double precision NOT NULL,
  lon double precision NOT NULL,
  speed real NOT NULL,
  heading real NOT NULL,
  azimuth real NOT NULL,
  elevation real NOT NULL,
  skew real NOT NULL,
  satellite_name text NOT NULL,
  satellite_longitude real NOT NULL,
  signal_level real NOT NULL,
  snr real NOT NULL,
  modem_lock boolean NOT NULL,
  tx_on boolean NOT NULL,
  lte_signal real,
  faults text[] NOT NULL DEFAULT '{}',
  adu_version text,
  bdu_version text
);
CREATE INDEX device_state_state_idx ON device_state (state, reported_at);

-- Every report, by device and device time; a second report with the same time is a duplicate.
CREATE TABLE device_reports (
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  device_time timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  unactivated boolean NOT NULL DEFAULT false,
  lat double precision NOT NULL,
  lon double precision NOT NULL,
  speed real NOT NULL,
  heading real NOT NULL,
  azimuth real NOT NULL,
  elevation real NOT NULL,
  skew real NOT NULL,
  satellite_name text NOT NULL,
  satellite_longitude real NOT NULL,
  signal_level real NOT NULL,
  snr real NOT NULL,
  modem_lock boolean NOT NULL,
  tx_on boolean NOT NULL,
  lte_signal real,
  faults text[] NOT NULL DEFAULT '{}',
  adu_version text,
  bdu_version text,
  PRIMARY KEY (device_id, device_time)
);
CREATE INDEX device_reports_received_idx ON device_reports (received_at);

-- One row per device and fault code while active; a repeat refreshes last_seen_at.
CREATE TABLE alarms (
  id bigserial PRIMARY KEY,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  code text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('critical', 'major', 'minor')),
  raised_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  cleared_at timestamptz,
  cleared_by integer REFERENCES users (id) ON DELETE SET NULL,
  acked_by integer REFERENCES users (id) ON DELETE SET NULL,
  acked_at timestamptz
);
CREATE UNIQUE INDEX alarms_active_key ON alarms (device_id, code) WHERE cleared_at IS NULL;
CREATE INDEX alarms_device_idx ON alarms (device_id, raised_at DESC);
CREATE INDEX alarms_raised_idx ON alarms (raised_at DESC, id DESC);
