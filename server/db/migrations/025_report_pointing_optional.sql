-- A device without a satellite link (a 4G router, a microwave link, an AIS transponder) reports no
-- satellite pointing (src/domain/deviceKinds.ts, KIND_REPORTS): azimuth, elevation, skew and the
-- satellite may be absent from a report (docs/devices.md, "What each kind reports"). The partitions
-- of device_reports follow their parent.
ALTER TABLE device_reports ALTER COLUMN azimuth DROP NOT NULL, ALTER COLUMN elevation DROP NOT NULL, ALTER COLUMN skew DROP NOT NULL,
  ALTER COLUMN satellite_name DROP NOT NULL, ALTER COLUMN satellite_longitude DROP NOT NULL;
ALTER TABLE device_state ALTER COLUMN azimuth DROP NOT NULL, ALTER COLUMN elevation DROP NOT NULL, ALTER COLUMN skew DROP NOT NULL,
  ALTER COLUMN satellite_name DROP NOT NULL, ALTER COLUMN satellite_longitude DROP NOT NULL;
