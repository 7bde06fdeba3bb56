-- Devices: devices, groups, "Special Focus" pins, sub-user vessel grants, device
-- authorization grants, activation, export throttle. Lists page by id (keyset-friendly); every
-- filter has an index ending in id so a filtered page is an index range, and counts can be
-- answered from indexes alone.
CREATE TABLE devices (
  id serial PRIMARY KEY,
  name text NOT NULL,
  device_num text,
  mac text,
  device_sn text NOT NULL,
  owner_id integer NOT NULL REFERENCES users (id),
  owner_sub_id integer REFERENCES users (id) ON DELETE SET NULL,
  manufacture_date date NOT NULL,
  device_type text NOT NULL,
  adu_version text NOT NULL,
  bdu_version text NOT NULL,
  manufacture_info text NOT NULL,
  device_model text NOT NULL,
  device_kind text NOT NULL CHECK (device_kind IN ('antenna', 'vsat', '4g', 'microwave', 'vbox', 'others')),
  chip_id text,
  modem_sn text,
  hardware text,
  mmsi text,
  imo text,
  callsign text,
  status smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  speed real,
  heading real,
  activated boolean NOT NULL DEFAULT false,
  activated_at timestamptz,
  activated_by integer REFERENCES users (id) ON DELETE SET NULL,
  secret_hash text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX devices_device_num_key ON devices (device_num) WHERE device_num IS NOT NULL;
CREATE UNIQUE INDEX devices_device_sn_key ON devices (device_sn);
CREATE UNIQUE INDEX devices_mac_key ON devices (mac) WHERE mac IS NOT NULL;
CREATE INDEX devices_owner_idx ON devices (owner_id, id);
CREATE INDEX devices_owner_sub_idx ON devices (owner_sub_id, id) WHERE owner_sub_id IS NOT NULL;
CREATE INDEX devices_kind_idx ON devices (device_kind, id);
CREATE INDEX devices_type_idx ON devices (device_type, id);
CREATE INDEX devices_status_idx ON devices (status, id);
CREATE INDEX devices_activated_idx ON devices (activated, id);
CREATE INDEX devices_owner_kind_idx ON devices (owner_id, device_kind, id);
CREATE INDEX devices_owner_status_idx ON devices (owner_id, status, id);
CREATE INDEX devices_name_idx ON devices (name, id);

CREATE TABLE device_groups (
  id serial PRIMARY KEY,
  owner_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (owner_id, name)
);

-- A device is in at most one group; no row means "Ungrouped Device".
CREATE TABLE device_group_members (
  device_id integer PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  group_id integer NOT NULL REFERENCES device_groups (id),
  added_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_group_members_group_idx ON device_group_members (group_id, device_id);

-- "Special Focus": devices a user pinned for itself.
CREATE TABLE device_pins (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  pinned_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, device_id)
);
CREATE INDEX device_pins_device_idx ON device_pins (device_id);

-- Which of its parent's vessels a sub-user may see, granted by the enterprise.
CREATE TABLE sub_user_grants (
  sub_user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  granted_by integer REFERENCES users (id) ON DELETE SET NULL,
  granted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (sub_user_id, device_id)
);
CREATE INDEX sub_user_grants_device_idx ON sub_user_grants (device_id);

-- Unlocked features per enterprise (device_id NULL: all its devices) or per device.
CREATE TABLE device_auth_grants (
  id serial PRIMARY KEY,
  enterprise_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id integer REFERENCES devices (id) ON DELETE CASCADE,
  feature text NOT NULL CHECK (feature IN ('trackHistory', 'camera', 'statistics', 'iotData')),
  device_count integer CHECK (device_count >= 0),
  subscription_quantity integer CHECK (subscription_quantity >= 0),
  deadline date,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX device_auth_grants_key ON device_auth_grants (enterprise_id, feature, (COALESCE(device_id, 0)));
CREATE INDEX device_auth_grants_device_idx ON device_auth_grants (device_id) WHERE device_id IS NOT NULL;

-- The last export of each user, shared by every server replica (-101 within 10 s).
CREATE TABLE export_throttle (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  last_export_at timestamptz NOT NULL
);

-- Device counts by owner, kind, status and activation, kept by statement triggers, so that the
-- total of a list filtered only by those (the common case) is a sum over a few rows instead of
-- a count over every device. (Function bodies keep their inner semicolons off line ends: the
-- migration runner splits statements at a semicolon that ends a line.)
CREATE TABLE device_counts (
  owner_id integer NOT NULL,
  device_kind text NOT NULL,
  status smallint NOT NULL,
  activated boolean NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (owner_id, device_kind, status, activated)
);

CREATE FUNCTION device_counts_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO device_counts AS c (owner_id, device_kind, status, activated, n)
  SELECT owner_id, device_kind, status, activated, count(*) FROM new_rows GROUP BY 1, 2, 3, 4
  ON CONFLICT (owner_id, device_kind, status, activated) DO UPDATE SET n = c.n + EXCLUDED.n; RETURN NULL; END
$$;

CREATE FUNCTION device_counts_on_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO device_counts AS c (owner_id, device_kind, status, activated, n)
  SELECT owner_id, device_kind, status, activated, -count(*) FROM old_rows GROUP BY 1, 2, 3, 4
  ON CONFLICT (owner_id, device_kind, status, activated) DO UPDATE SET n = c.n + EXCLUDED.n; RETURN NULL; END
$$;

CREATE FUNCTION device_counts_on_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO device_counts AS c (owner_id, device_kind, status, activated, n)
  SELECT owner_id, device_kind, status, activated, sum(delta) FROM (
    SELECT owner_id, device_kind, status, activated, 1 AS delta FROM new_rows
    UNION ALL SELECT owner_id, device_kind, status, activated, -1 FROM old_rows) changes
  GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0
  ON CONFLICT (owner_id, device_kind, status, activated) DO UPDATE SET n = c.n + EXCLUDED.n; RETURN NULL; END
$$;

CREATE TRIGGER devices_count_insert AFTER INSERT ON devices REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION device_counts_on_insert();
CREATE TRIGGER devices_count_delete AFTER DELETE ON devices REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION device_counts_on_delete();
CREATE TRIGGER devices_count_update AFTER UPDATE ON devices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION device_counts_on_update();
