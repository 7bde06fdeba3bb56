-- Cheap authentication per call (docs/architecture.md, "Server").
--
-- Each server keeps a short-lived cache of the sessions and permission groups it checks. Every
-- change that could make a cached answer wrong sends NOTIFY auth_cache from the database itself,
-- whatever code (or hand-typed SQL) made it, and every server LISTENs:
--   s:<token_hash>  a session ended (logout, re-login elsewhere, idle, reset) or was deleted, or its
--                   last_seen_at was moved back; touches that move it forward send nothing
--   u:<user id>     a user row changed or was deleted (level, parent, name...), or its group
--                   memberships changed; the cache drops the user's sessions and its sub-users'
--   g               a permission group changed or was deleted: drop every cached permission set
-- Function bodies stay on one line: migrations are split at semicolons that end a line.
CREATE FUNCTION auth_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('auth_cache', 's:' || OLD.token_hash); RETURN NULL; END $$;
CREATE TRIGGER sessions_auth_notify_update AFTER UPDATE ON sessions FOR EACH ROW
  WHEN (NEW.ended_at IS DISTINCT FROM OLD.ended_at OR NEW.last_seen_at < OLD.last_seen_at
        OR NEW.user_id <> OLD.user_id OR NEW.token_hash <> OLD.token_hash OR NEW.end_reason IS DISTINCT FROM OLD.end_reason)
  EXECUTE FUNCTION auth_notify_session();
CREATE TRIGGER sessions_auth_notify_delete AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION auth_notify_session();

CREATE FUNCTION auth_notify_user() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('auth_cache', 'u:' || OLD.id); RETURN NULL; END $$;
CREATE TRIGGER users_auth_notify AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION auth_notify_user();

CREATE FUNCTION auth_notify_member() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('auth_cache', 'u:' || OLD.user_id); END IF; IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('auth_cache', 'u:' || NEW.user_id); END IF; RETURN NULL; END $$;
CREATE TRIGGER permission_group_members_auth_notify AFTER INSERT OR UPDATE OR DELETE ON permission_group_members FOR EACH ROW EXECUTE FUNCTION auth_notify_member();

CREATE FUNCTION auth_notify_groups() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('auth_cache', 'g'); RETURN NULL; END $$;
CREATE TRIGGER permission_groups_auth_notify AFTER UPDATE OR DELETE OR TRUNCATE ON permission_groups FOR EACH STATEMENT EXECUTE FUNCTION auth_notify_groups();
