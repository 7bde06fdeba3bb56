-- Audit log: every change made through the API, who made it, when, from where, and the fields
-- before and after (passwords, secrets, tokens and file contents are never written here).
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  user_id integer,
  user_name text NOT NULL,
  user_level text NOT NULL,
  enterprise_id integer,
  address text NOT NULL,
  method text NOT NULL,
  route text NOT NULL,
  entity text NOT NULL,
  entity_id text,
  action text NOT NULL,
  before jsonb,
  after jsonb
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_enterprise_idx ON audit_log (enterprise_id, at DESC);
CREATE INDEX audit_log_entity_idx ON audit_log (entity, at DESC);
