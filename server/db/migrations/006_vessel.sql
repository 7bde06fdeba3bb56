-- Voyages and cameras per vessel. Both belong to a device and go with it.
-- A voyage is kept after it ends (the history); eta is never before etd.
CREATE TABLE voyages (
  id serial PRIMARY KEY,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  voyage_no text NOT NULL,
  destination text NOT NULL,
  etd timestamptz NOT NULL,
  eta timestamptz NOT NULL,
  agent text NOT NULL,
  email text,
  phone text,
  remark text,
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (eta >= etd)
);
CREATE INDEX voyages_device_idx ON voyages (device_id, etd DESC);

-- Camera stream links of a vessel (only http and https links are accepted by the API).
CREATE TABLE cameras (
  id serial PRIMARY KEY,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  name text NOT NULL,
  link text NOT NULL CHECK (link ~* '^https?://'),
  description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cameras_device_idx ON cameras (device_id, id);
