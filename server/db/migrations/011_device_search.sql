-- Device list at any size (docs/architecture.md, "Device list at any size"). `search` matches a substring of name, device
-- number, SN, MAC, MMSI or call sign, case-insensitively: a %...% match that no b-tree can serve.
-- One generated column holds the six values joined by a unit separator (U+001F, which a search
-- term never matches across: the list also checks each column as before), and one GIN trigram
-- index over it answers ILIKE '%term%' from the index (pg_trgm; PGlite loads it as an extension).
-- The extension is created once per database, in public when that schema exists (test and bench
-- schemas are dropped with CASCADE and must not take it with them), under a database-wide lock so
-- that replicas or tests migrating several schemas at once do not race on it.
DO $$ BEGIN PERFORM pg_advisory_xact_lock(hashtext(current_database() || '.fleet-pg_trgm')); IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'public') THEN CREATE EXTENSION pg_trgm SCHEMA public; ELSE CREATE EXTENSION pg_trgm; END IF; END IF; END $$;

ALTER TABLE devices ADD COLUMN search_text text GENERATED ALWAYS AS (
  name || E'\x1f' || COALESCE(device_num, '') || E'\x1f' || device_sn || E'\x1f' || COALESCE(mac, '')
    || E'\x1f' || COALESCE(mmsi, '') || E'\x1f' || COALESCE(callsign, '')) STORED;

-- The operator class is named with the extension's schema, wherever it was installed.
DO $$ DECLARE s text; BEGIN SELECT n.nspname INTO s FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'; EXECUTE format('CREATE INDEX devices_search_idx ON devices USING gin (search_text %I.gin_trgm_ops)', s); END $$;

