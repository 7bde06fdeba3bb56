-- Reboots acknowledged before a reboot could end 'done' (migration 024) are over: marked done at
-- their ack, so the sweep of reboots not back in time does not fail them (and raise CMD_FAILED).
UPDATE device_commands SET state = 'done', done_at = acked_at WHERE kind = 'reboot' AND state = 'acknowledged' AND acked_at < now() - interval '10 minutes';
