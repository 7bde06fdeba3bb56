-- Scheduled reports for recipients in several zones (docs/architecture.md, "Scheduled reports"): with
-- recipient_zones, a schedule's users each get the report in the zone and language of their last
-- login, built once per (zone, language) as a run of its own; a run then keeps whom it is for.
ALTER TABLE report_schedules ADD COLUMN recipient_zones boolean NOT NULL DEFAULT false;
ALTER TABLE report_runs ADD COLUMN user_ids jsonb, ADD COLUMN contact_point_ids jsonb;
-- How long a run's files stay downloadable (the leader lets older ones go, keeping the record): an admin setting.
ALTER TABLE monitor_settings ADD COLUMN report_keep_days integer NOT NULL DEFAULT 90 CHECK (report_keep_days BETWEEN 1 AND 3650);
