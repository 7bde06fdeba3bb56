-- A vessel's current links (device_state.links, migration 032) are rewritten with every report
-- that carries them (about 1.2 KB for three links with their hours in progress). As json (the
-- text as written) instead of jsonb, the upsert no longer converts them to jsonb's binary form
-- and the ingest's read of the latest states no longer converts them back: on PGlite about 40 %
-- less time per row for the two (docs/architecture.md, "Links").
--
-- The scans of every latest state for "traffic on a backup link" (the dashboard's count and list,
-- the status monitor's filter) read a flag instead of taking each vessel's links apart:
-- on_backup is true when the link carrying the traffic is not the router's first, false when the
-- vessel has links and the traffic is on its first one or on none, and null when it has no links.
-- The ingest sets it with the links (src/domain/links.ts, onBackupNow).
ALTER TABLE device_state ALTER COLUMN links TYPE json USING links::json;
ALTER TABLE device_state ADD COLUMN on_backup boolean;
UPDATE device_state s
   SET on_backup = EXISTS (SELECT 1 FROM json_to_recordset(s.links) AS l (active boolean, priority int) WHERE l.active AND l.priority > 0)
 WHERE json_array_length(s.links) > 0;
CREATE INDEX device_state_on_backup ON device_state (device_id) WHERE on_backup;
