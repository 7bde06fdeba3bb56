/**
 * The derived connection state of a device aliased `d`: offline (0) without a report within its
 * threshold (the device's own, else its enterprise's, else the server default of 10 minutes),
 * else the state of its latest report (1 online, 2 warn). Computed at query time from
 * device_state.reported_at, so nothing has to run in the background.
 */
export const STATE_JOINS = `LEFT JOIN device_state ds ON ds.device_id = d.id
  LEFT JOIN device_offline_thresholds dot ON dot.device_id = d.id
  LEFT JOIN enterprise_offline_thresholds eot ON eot.enterprise_id = d.owner_id`;

export const THRESHOLD_SQL = `COALESCE(dot.offline_minutes, eot.offline_minutes, (SELECT ms.default_offline_minutes FROM monitor_settings ms WHERE ms.id = 1))`;

export const STATUS_SQL = `(CASE WHEN ds.device_id IS NULL OR ds.reported_at < now() - make_interval(mins => ${THRESHOLD_SQL}) THEN 0
  ELSE ds.state END)::int`;

/** The latest-state columns of a device row as the API returns them. */
export const STATE_COLUMNS = `${STATUS_SQL} AS status, ${THRESHOLD_SQL} AS "offlineMinutes",
  ds.reported_at AS "reportedAt", ds.received_at AS "receivedAt", ds.unactivated AS "reportUnactivated",
  ds.lat, ds.lon, ds.speed, ds.heading, ds.azimuth, ds.elevation, ds.skew,
  ds.satellite_name AS "satelliteName", ds.satellite_longitude AS "satelliteLongitude", ds.signal_level AS "signalLevel",
  ds.snr, ds.modem_lock AS "modemLock", ds.tx_on AS "txOn", ds.lte_signal AS "lteSignal",
  COALESCE(ds.faults, '{}') AS faults, ds.adu_version AS "reportedAduVersion", ds.bdu_version AS "reportedBduVersion"`;
