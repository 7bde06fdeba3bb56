import type { LiveStateQuery } from './monitoringApi';

/** The alarm device status of docs/requirements.md §7. */
export const ALARM_STATUS = 2;
/**
 * The bell's query: devices in alarm (status 2) with an alarm nobody acknowledged (our server's
 * unacknowledgedOnly; a server that ignores it answers every device in alarm), and devices of any
 * status with an unacknowledged data plan alarm (dataPlanAlarms, docs/api.md). One is enough, so
 * one is asked for: the poll costs the same with 5 or 5,000 vessels in alarm (bench:ingest).
 */
export const BELL_QUERY: LiveStateQuery = {
  deviceStatus: [ALARM_STATUS],
  unacknowledgedOnly: true,
  dataPlanAlarms: true,
  pageIndex: 1,
  pageSize: 1,
};
