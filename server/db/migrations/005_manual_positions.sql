-- History: a position typed by hand for a vessel whose device has no GPS fix, in signed
-- decimal degrees (docs/requirements.md §5: entered as 0-180 E/W and 0-90 N/S with two decimals).
CREATE TABLE device_manual_positions (
  device_id integer PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  lat double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  lon double precision NOT NULL CHECK (lon BETWEEN -180 AND 180),
  set_by integer REFERENCES users (id) ON DELETE SET NULL,
  set_at timestamptz NOT NULL DEFAULT now()
);
