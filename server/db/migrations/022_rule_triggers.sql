-- What alarm rules raise besides device faults (docs/api.md, "Notifications"): weak signal or SNR
-- for a while, a command that failed or expired, a firmware update that failed, a vessel entering
-- or leaving a geofence. These are alarms like any other (list, bell, live push, acknowledge, clear,
-- and the outbox trigger of 021 writes their events).

-- What the alarm is about, beside its code: the geofence's name, the command's kind, the firmware
-- version, the weak figures. source_id names the geofence for geofence alarms.
ALTER TABLE alarms ADD COLUMN detail text;
ALTER TABLE alarms ADD COLUMN source_id integer;

-- Whether a rule's scope (its vessels and groups; neither: every vessel of its enterprise) covers a vessel.
CREATE FUNCTION alarm_rule_covers(device_ids jsonb, group_ids jsonb, device integer) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT (jsonb_array_length(COALESCE(device_ids, '[]')) = 0 AND jsonb_array_length(COALESCE(group_ids, '[]')) = 0)
      OR COALESCE(device_ids, '[]') @> to_jsonb(device)
      OR EXISTS (SELECT 1 FROM device_group_members m WHERE m.device_id = device AND COALESCE(group_ids, '[]') @> to_jsonb(m.group_id))
$$;

-- Whether figures are weak by a rule's thresholds (a threshold not set does not count).
CREATE FUNCTION signal_is_low(signal real, snr real, signal_below double precision, snr_below double precision) RETURNS boolean
  LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(signal < signal_below, false) OR COALESCE(snr < snr_below, false)
$$;

-- The most severe severity of the enabled rules of a vessel's enterprise that name a code and cover
-- the vessel; null when none does (then nothing is raised).
CREATE FUNCTION alarm_rule_severity(device integer, alarm_code text) RETURNS text LANGUAGE plpgsql STABLE AS $$
  DECLARE found text;
  BEGIN
    SELECT r.min_severity INTO found
      FROM alarm_rules r JOIN devices d ON d.owner_id = r.owner_id
     WHERE d.id = device AND r.enabled AND COALESCE(r.codes, '[]') @> to_jsonb(alarm_code)
       AND alarm_rule_covers(r.device_ids, r.group_ids, device)
     ORDER BY CASE r.min_severity WHEN 'critical' THEN 3 WHEN 'major' THEN 2 ELSE 1 END DESC LIMIT 1;
    RETURN found;
  END $$;

-- Raises (or refreshes) a rule alarm of a vessel, or clears it; in the caller's transaction.
CREATE FUNCTION rule_alarm_set(device integer, alarm_code text, raise boolean, what text) RETURNS void LANGUAGE plpgsql AS $$
  DECLARE severity text;
  BEGIN
    IF raise THEN
      severity := alarm_rule_severity(device, alarm_code);
      IF severity IS NULL THEN RETURN; END IF;
      INSERT INTO alarms (device_id, code, severity, raised_at, last_seen_at, detail)
        VALUES (device, alarm_code, severity, now(), now(), what)
        ON CONFLICT (device_id, code) WHERE cleared_at IS NULL DO UPDATE SET last_seen_at = now(), detail = EXCLUDED.detail;
    ELSE
      UPDATE alarms SET cleared_at = now() WHERE device_id = device AND code = alarm_code AND cleared_at IS NULL;
    END IF;
  END $$;

-- A command that failed or expired raises CMD_FAILED; the vessel's next acknowledged command clears it.
CREATE FUNCTION command_alarm() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.state IN ('failed', 'expired') THEN PERFORM rule_alarm_set(NEW.device_id, 'CMD_FAILED', true, NEW.kind);
    ELSIF NEW.state = 'acknowledged' THEN PERFORM rule_alarm_set(NEW.device_id, 'CMD_FAILED', false, NULL);
    END IF;
    RETURN NULL;
  END $$;
CREATE TRIGGER device_commands_alarm AFTER UPDATE OF state ON device_commands FOR EACH ROW
  WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION command_alarm();

-- A firmware update that failed on a vessel raises FW_FAILED; a later successful one clears it.
CREATE FUNCTION firmware_alarm() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE version text;
  BEGIN
    IF NEW.state = 'failed' THEN
      SELECT p.version INTO version FROM firmware_rollouts r JOIN firmware_packages p ON p.id = r.firmware_id WHERE r.id = NEW.rollout_id;
      PERFORM rule_alarm_set(NEW.device_id, 'FW_FAILED', true, version);
    ELSIF NEW.state = 'updated' THEN PERFORM rule_alarm_set(NEW.device_id, 'FW_FAILED', false, NULL);
    END IF;
    RETURN NULL;
  END $$;
CREATE TRIGGER firmware_rollout_targets_alarm AFTER UPDATE OF state ON firmware_rollout_targets FOR EACH ROW
  WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION firmware_alarm();

-- Which geofences each vessel is in now (the minute check's memory), and the arrivals and
-- departures it saw (port calls). A geofence's name and kind are copied: the log outlives it.
CREATE TABLE geofence_presence (
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  geofence_id integer NOT NULL,
  since timestamptz NOT NULL,
  PRIMARY KEY (device_id, geofence_id)
);
CREATE TABLE geofence_events (
  id bigserial PRIMARY KEY,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  geofence_id integer NOT NULL,
  geofence_name text NOT NULL,
  geofence_kind text NOT NULL,
  event text NOT NULL CHECK (event IN ('arrival', 'departure')),
  at timestamptz NOT NULL,
  lat double precision NOT NULL,
  lon double precision NOT NULL
);
CREATE INDEX geofence_events_device_idx ON geofence_events (device_id, at DESC);
