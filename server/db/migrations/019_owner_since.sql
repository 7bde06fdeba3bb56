-- A transferred vessel's history stays with the enterprise that owned it then (docs/requirements.md §6,
-- "A transferred vessel"): devices.owner_since is since when the current owner has the vessel.
-- Levels 2 and 3 see the records of a vessel (reports, track, statistics, commands, alarms) whose
-- time is at or after it; level 1 sees all. Rows that never changed owner hold '-infinity' (always).
--
-- Kept by the database whenever owner_id changes, whatever code changes it (device update, the
-- Excel import, hand-typed SQL). At the same moment the vessel's open records of the old owner
-- end: active alarms are cleared (a fault still reported raises a new alarm, the new owner's, at
-- the next report), queued commands are cancelled (they were the old owner's orders), and the
-- data plan's alarm share starts again (the plan's alarms are raised again for the new owner).
-- No semicolon ends a line inside a function body: migrations are split at semicolons that end a line.
ALTER TABLE devices ADD COLUMN owner_since timestamptz NOT NULL DEFAULT '-infinity';

-- The old owner's records end in the BEFORE trigger, while the row still names the old owner: the
-- live events those changes write (migrations 014, 015) go to the old owner's streams, not the new one's.
CREATE FUNCTION devices_owner_since() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  NEW.owner_since := now(); UPDATE alarms SET cleared_at = now()
  WHERE device_id = NEW.id AND cleared_at IS NULL; UPDATE device_commands SET state = 'cancelled'
  WHERE device_id = NEW.id AND state = 'queued'; UPDATE data_usage SET alerted = 0
  WHERE device_id = NEW.id AND alerted <> 0; RETURN NEW; END $$;
CREATE TRIGGER devices_owner_since BEFORE UPDATE ON devices FOR EACH ROW
  WHEN (NEW.owner_id IS DISTINCT FROM OLD.owner_id) EXECUTE FUNCTION devices_owner_since();
