-- Users, sessions, login throttling, pictures and extra links of the users module.
CREATE TABLE users (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  nickname text,
  password_hash text NOT NULL,
  permission_level text NOT NULL CHECK (permission_level IN ('1', '2', '3')),
  parent_id integer REFERENCES users (id),
  department text,
  sex text,
  email text,
  signature text,
  company text,
  user_type text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((permission_level = '3') = (parent_id IS NOT NULL))
);
CREATE INDEX users_parent_idx ON users (parent_id);
CREATE INDEX users_level_idx ON users (permission_level, id);

CREATE TABLE sessions (
  token text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  ended_at timestamptz,
  end_reason text CHECK (end_reason IN ('logout', 'replaced', 'idle', 'deleted'))
);
CREATE INDEX sessions_live_user_idx ON sessions (user_id) WHERE ended_at IS NULL;

CREATE TABLE login_failures (
  name text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  locked_until timestamptz
);

CREATE TABLE pictures (
  owner_id integer NOT NULL,
  file_type smallint NOT NULL CHECK (file_type BETWEEN 1 AND 4),
  mime text NOT NULL,
  content bytea NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner_id, file_type)
);

CREATE TABLE extra_links (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  content text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
