-- Scheduled reports for recipients in several zones (docs/architecture.md, "Scheduled reports"): with
-- recipient_zones, a schedule's users each get the report in the zone and language of their last
-- login, built once per (zone, language) as a run of its own; a run then keeps whom it is for.
ALTER TABLE report_schedules ADD COLUMN recipient_zones boolean NOT NULL DEFAULT false;
ALTER TABLE report_runs ADD COLUMN user_ids jsonb, ADD COLUMN contact_point_ids jsonb;
