-- Alarm notifications (docs/api.md, "Notifications"; docs/architecture.md, "Notification delivery").
--
-- alarm_outbox: every alarm transition (raised, cleared), written by a trigger in the transaction
-- that made it, whatever code made it (ingest, data plans, a user's clear, a transfer). Nothing can
-- change an alarm without its event being kept.
CREATE TABLE alarm_outbox (
  id bigserial PRIMARY KEY,
  alarm_id bigint NOT NULL,
  event text NOT NULL CHECK (event IN ('raised', 'cleared')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION alarm_outbox_write() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO alarm_outbox (alarm_id, event) VALUES (NEW.id, 'raised');
      IF NEW.cleared_at IS NOT NULL THEN INSERT INTO alarm_outbox (alarm_id, event) VALUES (NEW.id, 'cleared'); END IF;
    ELSIF OLD.cleared_at IS NULL AND NEW.cleared_at IS NOT NULL THEN
      INSERT INTO alarm_outbox (alarm_id, event) VALUES (NEW.id, 'cleared');
    END IF;
    RETURN NULL;
  END $$;
CREATE TRIGGER alarms_outbox AFTER INSERT OR UPDATE OF cleared_at ON alarms FOR EACH ROW EXECUTE FUNCTION alarm_outbox_write();

-- One message to one recipient about one alarm transition: the delivery log. A worker on any
-- replica claims due rows (FOR UPDATE SKIP LOCKED) and holds a lease while it sends; a replica that
-- dies mid-send leaves the lease to expire and the row is sent again (at least once).
-- state: pending (to send, at next_at), sent, failed (gave up after the last attempt), held (the
-- contact point is disabled), cancelled (an escalation or repeat whose alarm was acknowledged or cleared).
CREATE TABLE notifications (
  id bigserial PRIMARY KEY,
  -- The webhook's idempotency key and the message's id: the same on every attempt.
  key text NOT NULL UNIQUE,
  alarm_id bigint REFERENCES alarms (id) ON DELETE CASCADE,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  rule_id integer,
  rule_name text NOT NULL,
  event text NOT NULL CHECK (event IN ('raised', 'cleared', 'escalated', 'repeated')),
  -- Recipient: a contact point or a user (by mail); `recipient` groups a recipient's messages ('c12', 'u5').
  contact_point_id integer,
  user_id integer,
  recipient text NOT NULL,
  recipient_name text NOT NULL,
  channel text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed', 'held', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  next_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  -- From the alarm transition to the service's acceptance, in ms.
  latency_ms integer,
  -- The message that carried it: its own id, or a digest's first row when a storm grouped it.
  message_id bigint,
  -- The acknowledge link of this notification was used (single use).
  ack_used_at timestamptz
);
CREATE INDEX notifications_due_idx ON notifications (next_at) WHERE state = 'pending';
CREATE INDEX notifications_recipient_idx ON notifications (recipient, sent_at);
CREATE INDEX notifications_recipient_due_idx ON notifications (recipient, next_at) WHERE state = 'pending';
CREATE INDEX notifications_alarm_idx ON notifications (alarm_id);
CREATE INDEX notifications_device_idx ON notifications (device_id, created_at DESC);
CREATE INDEX notifications_created_idx ON notifications (created_at DESC, id DESC);

-- A user told by mail reads it in the language and time zone of its last login (UTC offset, hours).
ALTER TABLE users ADD COLUMN language text, ADD COLUMN time_zone_offset integer;

-- The server's own secret for signed links (acknowledge from a message): made once, shared by replicas.
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value text NOT NULL
);
