-- Commands (docs/api.md, "command"): a reboot the vessel acknowledged is under way while the vessel is
-- down, and ends 'done' when the vessel is back (it connects to the broker again after the ack), at
-- done_at; one not back within REBOOT_BACK_WITHIN_MIN of its ack fails (the leader's sweep).
ALTER TABLE device_commands DROP CONSTRAINT device_commands_state_check;
ALTER TABLE device_commands ADD CONSTRAINT device_commands_state_check
  CHECK (state IN ('queued', 'sent', 'acknowledged', 'done', 'failed', 'expired', 'cancelled'));
ALTER TABLE device_commands ADD COLUMN done_at timestamptz;
-- The reboots under way: what a reconnecting vessel completes, the sweep and the vessel page read.
CREATE INDEX device_commands_rebooting_idx ON device_commands (device_id, acked_at) WHERE state = 'acknowledged' AND kind = 'reboot';
