-- Live push (docs/architecture.md, "Live push").
--
-- Every change the console shows live is a row of live_events, written by a trigger in the very
-- transaction that made the change (whatever code made it), and announced after commit with
-- NOTIFY live_events (empty payload: PostgreSQL sends one per transaction). Each server LISTENs,
-- reads the rows after the last id it has seen, and pushes them to its connected consoles; a
-- console that reconnects sends Last-Event-ID and gets what it missed from the same table.
--   kind 'state'   a device's status changed (data: status)
--   kind 'alarm'   an alarm was raised, cleared or acknowledged (data: alarmId, code, severity, change)
--   other kinds (commands, data usage) are written by the triggers of their own migrations.
-- owner_id is the device's enterprise, so a server filters by scope without a join.
-- Function bodies stay on one line: migrations are split at semicolons that end a line.
CREATE TABLE live_events (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL,
  device_id integer NOT NULL,
  owner_id integer NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX live_events_at_idx ON live_events (at);

CREATE FUNCTION live_events_device_state() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO live_events (kind, device_id, owner_id, data) SELECT 'state', n.id, n.owner_id, jsonb_build_object('status', n.status) FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.status IS DISTINCT FROM n.status; IF FOUND THEN PERFORM pg_notify('live_events', ''); END IF; RETURN NULL; END $$;
CREATE TRIGGER devices_live_state AFTER UPDATE ON devices REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_events_device_state();

CREATE FUNCTION live_events_alarm_raised() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO live_events (kind, device_id, owner_id, data) SELECT 'alarm', n.device_id, d.owner_id, jsonb_build_object('alarmId', n.id, 'code', n.code, 'severity', n.severity, 'change', CASE WHEN n.cleared_at IS NULL THEN 'raised' ELSE 'cleared' END) FROM new_rows n JOIN devices d ON d.id = n.device_id; IF FOUND THEN PERFORM pg_notify('live_events', ''); END IF; RETURN NULL; END $$;
CREATE TRIGGER alarms_live_insert AFTER INSERT ON alarms REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_events_alarm_raised();

CREATE FUNCTION live_events_alarm_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO live_events (kind, device_id, owner_id, data) SELECT 'alarm', n.device_id, d.owner_id, jsonb_build_object('alarmId', n.id, 'code', n.code, 'severity', n.severity, 'change', CASE WHEN o.cleared_at IS NULL AND n.cleared_at IS NOT NULL THEN 'cleared' ELSE 'acked' END) FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN devices d ON d.id = n.device_id WHERE (o.cleared_at IS NULL AND n.cleared_at IS NOT NULL) OR (o.acked_at IS NULL AND n.acked_at IS NOT NULL); IF FOUND THEN PERFORM pg_notify('live_events', ''); END IF; RETURN NULL; END $$;
CREATE TRIGGER alarms_live_update AFTER UPDATE ON alarms REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_events_alarm_changed();
