-- Commands to antennas (docs/api.md, "command"): one row per command an operator sent to a device,
-- followed through queued -> sent -> acknowledged / failed / expired (or cancelled while queued).
-- The row is the queue: a server delivers a queued command with a conditional UPDATE (state
-- 'queued' -> 'sent'), so across replicas exactly one sends it; the leader's sweep marks the
-- open ones past their deadline expired; an ack counts only for a sent or queued command
-- before its deadline.
CREATE TABLE device_commands (
  id serial PRIMARY KEY,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('reboot', 'repoint', 'setInterval', 'diagnostics', 'firmwareCheck')),
  params jsonb NOT NULL DEFAULT '{}',
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sent', 'acknowledged', 'failed', 'expired', 'cancelled')),
  created_by integer REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  acked_at timestamptz,
  deadline timestamptz NOT NULL,
  message text,
  result jsonb
);
-- A vessel's commands newest first, and its open ones in order (delivery on connect).
CREATE INDEX device_commands_device_idx ON device_commands (device_id, id);
CREATE INDEX device_commands_device_state_idx ON device_commands (device_id, state, id);
-- Fleet-wide lists by state (the device scope joins devices by id).
CREATE INDEX device_commands_state_idx ON device_commands (state, id);
-- The expiry sweep reads only the open commands.
CREATE INDEX device_commands_open_deadline_idx ON device_commands (deadline) WHERE state IN ('queued', 'sent');

-- A sub-user may send commands only to the vessels its enterprise granted it with can_command
-- (levels 1 and 2 to every vessel they see).
ALTER TABLE sub_user_grants ADD COLUMN can_command boolean NOT NULL DEFAULT false;

-- Live push (migration 014): kind 'command' on every new command and every change of state.
CREATE FUNCTION live_events_command_created() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO live_events (kind, device_id, owner_id, data) SELECT 'command', n.device_id, d.owner_id, jsonb_build_object('commandId', n.id, 'kind', n.kind, 'state', n.state) FROM new_rows n JOIN devices d ON d.id = n.device_id; IF FOUND THEN PERFORM pg_notify('live_events', ''); END IF; RETURN NULL; END $$;
CREATE TRIGGER device_commands_live_insert AFTER INSERT ON device_commands REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_events_command_created();

CREATE FUNCTION live_events_command_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO live_events (kind, device_id, owner_id, data) SELECT 'command', n.device_id, d.owner_id, jsonb_build_object('commandId', n.id, 'kind', n.kind, 'state', n.state) FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN devices d ON d.id = n.device_id WHERE o.state IS DISTINCT FROM n.state; IF FOUND THEN PERFORM pg_notify('live_events', ''); END IF; RETURN NULL; END $$;
CREATE TRIGGER device_commands_live_update AFTER UPDATE ON device_commands REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_events_command_changed();
