import type { Db, Queryable } from '../db/connection';
import { LEADER_LOCK_KEY } from '../leaderQueries';

/** The database answers (readiness). */
export async function databaseAnswers(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}

/** The migration `version` is recorded (readiness: the schema this server expects is there). */
export async function migrationApplied(db: Queryable, version: string): Promise<boolean> {
  const rows = await db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1) AS found', [version]);
  return !!rows[0]?.found;
}

/**
 * Some session of this database and schema holds the leader's advisory lock (server/leader.ts): the
 * lock's bigint key is split into pg_locks' classid (high 32 bits) and objid (low 32 bits).
 */
export async function leaderLockHeld(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ held: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM pg_locks, (SELECT ${LEADER_LOCK_KEY}::bigint AS k) key
        WHERE locktype = 'advisory' AND granted AND objsubid = 1
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND classid::bigint = (key.k >> 32) & 4294967295 AND objid::bigint = key.k & 4294967295) AS held`,
  );
  return !!rows[0]?.held;
}

/** What a metrics scrape reads from the database, in one statement: open alarms by severity, the outbox's depth. */
export async function scrapeCounts(db: Queryable): Promise<{ openAlarms: Record<string, number>; outbox: number }> {
  const rows = await db.query<{ k: string; n: number }>(
    `SELECT '' AS k, count(*)::int AS n FROM alarm_outbox
     UNION ALL SELECT severity, count(*)::int FROM alarms WHERE cleared_at IS NULL GROUP BY severity`,
  );
  const openAlarms: Record<string, number> = {};
  let outbox = 0;
  for (const row of rows) {
    if (row.k === '') outbox = row.n;
    else openAlarms[row.k] = row.n;
  }
  return { openAlarms, outbox };
}

/**
 * The tables with the most dead rows: live and dead row counts, size with indexes, and when they
 * were last vacuumed or analyzed (the embedded database has no autovacuum: bench:soak watches these).
 */
export async function tableHealth(db: Queryable, limit = 6): Promise<Record<string, string | number | null>[]> {
  return db.query(
    `SELECT relname AS table, n_live_tup::int AS live, n_dead_tup::int AS dead,
            (pg_total_relation_size(relid) / 1048576)::int AS mb,
            coalesce(greatest(last_vacuum, last_autovacuum), NULL)::text AS vacuumed,
            coalesce(greatest(last_analyze, last_autoanalyze), NULL)::text AS analyzed
       FROM pg_stat_user_tables ORDER BY n_dead_tup DESC LIMIT $1`,
    [limit],
  );
}

/**
 * Tables worth vacuuming now on the embedded database (it has no autovacuum): dead rows past 1,000
 * and past a fifth of the live ones, and small enough (under 256 MB with indexes) that one VACUUM
 * is short. The report history is appended, not updated, and never qualifies.
 */
export async function bloatedTables(db: Queryable): Promise<{ table: string; dead: number }[]> {
  return db.query<{ table: string; dead: number }>(
    `SELECT relname AS table, n_dead_tup::int AS dead FROM pg_stat_user_tables
      WHERE n_dead_tup > 1000 AND n_dead_tup > n_live_tup / 5 AND pg_total_relation_size(relid) < 256 * 1048576
      ORDER BY n_dead_tup DESC`,
  );
}

/** VACUUM (ANALYZE) of one table: its dead rows' room is reused, its planner statistics renewed. */
export async function vacuumTable(db: Db, table: string): Promise<void> {
  await db.exec(`VACUUM (ANALYZE) "${table.replaceAll('"', '""')}"`);
}
