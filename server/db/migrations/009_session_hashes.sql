-- Sessions and login throttling (docs/architecture.md, "Server").
--
-- A session row keeps the sha256 of its token (hex), never the token: a copy of the table (a
-- backup, a read-only replica, an SQL injection elsewhere) cannot be replayed as a login.
-- Existing rows are converted in place, so live sessions survive the upgrade.
ALTER TABLE sessions ADD COLUMN token_hash text;
UPDATE sessions SET token_hash = encode(sha256(convert_to(token, 'UTF8')), 'hex');
ALTER TABLE sessions DROP CONSTRAINT sessions_pkey;
ALTER TABLE sessions DROP COLUMN token;
ALTER TABLE sessions ALTER COLUMN token_hash SET NOT NULL;
ALTER TABLE sessions ADD PRIMARY KEY (token_hash);

-- Failed logins are counted per name and client address (a stranger's failures lock only the
-- stranger's address) plus, more slowly, per name across every address (a window of failures
-- that locks the name for everyone). A lock per name that is running at the upgrade carries over
-- to the per-name table, so the upgrade lifts no lock.
CREATE TABLE login_name_failures (
  name text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  window_started_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz
);
INSERT INTO login_name_failures (name, failures, window_started_at, locked_until)
  SELECT name, 0, now(), locked_until FROM login_failures WHERE locked_until > now();
DROP TABLE login_failures;
CREATE TABLE login_failures (
  name text NOT NULL,
  address text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  PRIMARY KEY (name, address)
);
