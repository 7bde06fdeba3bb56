import type { Db } from './connection';

/** How often the leader looks after an embedded database. */
export const EMBEDDED_MAINTENANCE_MS = 5 * 60_000;

/**
 * Tables whose rows are updated or deleted all day (a report updates device_state, its hour of
 * report_hourly and often device_counts; alarms, commands, sessions and live events come and go).
 */
const CHURNING_TABLES = [
  'device_state', 'report_hourly', 'device_counts', 'devices', 'alarms', 'data_usage', 'device_commands', 'live_events', 'sessions',
  'login_failures', 'login_name_failures', 'export_throttle',
];

/**
 * PGlite runs no autovacuum (it has no background workers): without this its tables are never
 * vacuumed, so the space of dead row versions is not reused, and never analyzed, so the planner
 * has no statistics. The leader does what autovacuum would on PostgreSQL, every
 * EMBEDDED_MAINTENANCE_MS: VACUUM (ANALYZE) the tables updated in place, ANALYZE the report
 * history (append-only: vacuuming it would read it all). Each statement holds the single
 * connection only for its own table.
 */
export async function maintainEmbedded(db: Db): Promise<void> {
  if (db.engine !== 'pglite') return;
  for (const table of CHURNING_TABLES) await db.query(`VACUUM (ANALYZE) ${table}`);
  await db.query('ANALYZE device_reports');
}
