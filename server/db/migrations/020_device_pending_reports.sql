-- Reports of a device that is not activated are "awaiting activation" (docs/devices.md, "Connecting";
-- docs/api.md, "POST /ingest/report"): anyone can send them (such a device has no secret yet), so they
-- reach no status monitor, map, alarm, statistic, data usage or live event. Only the device's newest
-- one (by device time) is kept here, shown on the device's page until it is activated.
CREATE TABLE device_pending_reports (
  device_id integer PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  device_time timestamptz NOT NULL,
  received_at timestamptz NOT NULL,
  report jsonb NOT NULL
);

-- Activated or deactivated (whatever code does it): the report awaiting activation is dropped; after
-- an activation the next ones flow as usual, after a deactivation a stale one never comes back.
CREATE FUNCTION devices_pending_report_drop() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN DELETE FROM device_pending_reports WHERE device_id = NEW.id; RETURN NULL; END $$;
CREATE TRIGGER devices_pending_report_drop AFTER UPDATE OF activated ON devices FOR EACH ROW
  WHEN (NEW.activated IS DISTINCT FROM OLD.activated) EXECUTE FUNCTION devices_pending_report_drop();

-- What unactivated devices reported before this: their latest state becomes their pending report,
-- and leaves the monitor (the device list's status goes back to offline).
INSERT INTO device_pending_reports (device_id, device_time, received_at, report)
SELECT s.device_id, s.reported_at, s.received_at, jsonb_strip_nulls(jsonb_build_object(
         'deviceTime', to_char(s.reported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'lat', s.lat, 'lon', s.lon, 'speed', s.speed, 'heading', s.heading, 'azimuth', s.azimuth, 'elevation', s.elevation, 'skew', s.skew,
         'satellite', jsonb_build_object('name', s.satellite_name, 'longitude', s.satellite_longitude),
         'signalLevel', s.signal_level, 'snr', s.snr, 'modemLock', s.modem_lock, 'txOn', s.tx_on, 'lteSignal', s.lte_signal,
         'faults', to_jsonb(s.faults),
         'firmware', CASE WHEN s.adu_version IS NOT NULL AND s.bdu_version IS NOT NULL THEN jsonb_build_object('adu', s.adu_version, 'bdu', s.bdu_version) END))
  FROM device_state s JOIN devices d ON d.id = s.device_id
 WHERE s.unactivated AND NOT d.activated;

WITH gone AS (
  DELETE FROM device_state s USING devices d WHERE d.id = s.device_id AND s.unactivated AND NOT d.activated RETURNING s.device_id
)
UPDATE devices d SET status = 0 FROM gone WHERE d.id = gone.device_id AND d.status IS DISTINCT FROM 0;

-- Their history rows go too, and the hourly rollups of those hours are rebuilt from what is left.
CREATE TEMP TABLE pending_gone_hours ON COMMIT DROP AS
SELECT DISTINCT r.device_id AS d, date_bin('1 hour', r.device_time, timestamptz '2000-01-01 00:00:00+00') AS hs
  FROM devices v JOIN device_reports r ON r.device_id = v.id
 WHERE NOT v.activated AND r.unactivated;

DELETE FROM device_reports r USING devices v WHERE v.id = r.device_id AND NOT v.activated AND r.unactivated;

SELECT report_hourly_rebuild(array_agg(d), array_agg(hs)) FROM pending_gone_hours HAVING count(*) > 0;

SELECT report_hourly_link(array_agg(d), array_agg(hs)) FROM pending_gone_hours HAVING count(*) > 0;
