-- A user's own quiet hours for the alarm mails it receives (docs/api.md, "Notifications"), in the
-- time zone of its last login: HH:MM, both or neither.
ALTER TABLE users ADD COLUMN quiet_from text, ADD COLUMN quiet_to text;
