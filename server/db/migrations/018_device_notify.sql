-- A report costs no credential lookup (docs/architecture.md, "Ingest and scale-out").
--
-- Each server keeps the credential rows (id, activation, secret hash) of the devices that report
-- to it (server/auth/deviceCache.ts). Every change that could make a cached row wrong sends
-- NOTIFY device_cache from the database itself, whatever code made it, and every server LISTENs:
--   d:<device number>  the device's number, activation or secret changed, or the device was deleted
--   new                devices were added: forget the numbers cached as unknown
--   all                the table was truncated
-- Function bodies stay on one line: migrations are split at semicolons that end a line.
CREATE FUNCTION device_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF OLD.device_num IS NOT NULL THEN PERFORM pg_notify('device_cache', 'd:' || OLD.device_num); END IF; IF TG_OP = 'UPDATE' AND NEW.device_num IS NOT NULL AND NEW.device_num IS DISTINCT FROM OLD.device_num THEN PERFORM pg_notify('device_cache', 'd:' || NEW.device_num); END IF; RETURN NULL; END $$;
CREATE TRIGGER devices_cache_notify_update AFTER UPDATE ON devices FOR EACH ROW
  WHEN (NEW.device_num IS DISTINCT FROM OLD.device_num OR NEW.activated IS DISTINCT FROM OLD.activated
        OR NEW.secret_hash IS DISTINCT FROM OLD.secret_hash)
  EXECUTE FUNCTION device_cache_notify();
CREATE TRIGGER devices_cache_notify_delete AFTER DELETE ON devices FOR EACH ROW EXECUTE FUNCTION device_cache_notify();

CREATE FUNCTION device_cache_notify_statement() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('device_cache', CASE TG_OP WHEN 'INSERT' THEN 'new' ELSE 'all' END); RETURN NULL; END $$;
CREATE TRIGGER devices_cache_notify_insert AFTER INSERT ON devices FOR EACH STATEMENT EXECUTE FUNCTION device_cache_notify_statement();
CREATE TRIGGER devices_cache_notify_truncate AFTER TRUNCATE ON devices FOR EACH STATEMENT EXECUTE FUNCTION device_cache_notify_statement();
