import type { Queryable } from '../../db/connection';
import type { BackupRunItem as BackupRun, BackupSettings } from '../../../src/domain/backupSettings';

/** A table's rows as a backup's manifest records them: the count and an order-free checksum. */
export interface TableSum {
  table: string;
  rows: number;
  sum: string;
}

/** Identifiers read from the catalogue, quoted for the statements built from them. */
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The tables of this schema (partitioned tables as one, not their partitions) with their columns
 * in name order, so that a table made by another path (a move, a restore) with its columns in
 * another order sums the same.
 */
export async function schemaTables(db: Queryable): Promise<{ table: string; columns: string[] }[]> {
  return db.query<{ table: string; columns: string[] }>(
    `SELECT c.relname AS table, array_agg(a.attname::text ORDER BY a.attname) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
      GROUP BY c.relname
      ORDER BY c.relname`,
  );
}

/**
 * Every table's row count and checksum: the sum of the first 64 bits of each row's MD5 over its
 * text in a fixed zone and date style. A sum, not a hash of the sorted rows: no order, memory flat
 * whatever the table's size. Run inside a transaction (the settings are local to it).
 */
export async function tableSums(tx: Queryable): Promise<TableSum[]> {
  await tx.query(`SET LOCAL TimeZone = 'UTC'`);
  await tx.query(`SET LOCAL DateStyle = 'ISO, YMD'`);
  await tx.query(`SET LOCAL IntervalStyle = 'postgres'`);
  await tx.query(`SET LOCAL extra_float_digits = 1`);
  const sums: TableSum[] = [];
  for (const { table, columns } of await schemaTables(tx)) {
    const row = `ROW(${columns.map((c) => `t.${ident(c)}`).join(', ')})::text`;
    const [result] = await tx.query<{ rows: string; sum: string }>(
      `SELECT count(*)::text AS rows,
              coalesce(sum(('x' || substr(md5(${row}), 1, 16))::bit(64)::bigint::numeric), 0)::text AS sum
         FROM ${ident(table)} t`,
    );
    sums.push({ table, rows: Number(result!.rows), sum: result!.sum });
  }
  return sums;
}

/** PostgreSQL: a repeatable-read snapshot that pg_dump can share (`--snapshot`), so the dump and the sums agree. */
export async function exportSnapshot(tx: Queryable): Promise<string> {
  await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  const [row] = await tx.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
  return row!.id;
}

export async function currentSchema(db: Queryable): Promise<string> {
  const [row] = await db.query<{ name: string }>('SELECT current_schema() AS name');
  return row?.name ?? 'public';
}

/** The tables, views and sequences already in the schema a restore or a move would write to. */
export async function schemaObjectCount(db: Queryable, schema: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'S')`,
    [schema],
  );
  return row?.n ?? 0;
}

export async function schemaExists(db: Queryable, schema: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  return rows.length > 0;
}

/** `--force`: empties the schema a restore writes to (everything in it goes). */
export async function emptySchema(db: Queryable, schema: string): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
  await db.query(`CREATE SCHEMA ${ident(schema)}`);
}

/** The restored database's extensions, made before the dump's objects that need them (a schema's dump leaves them out). */
export async function ensureExtensions(db: Queryable): Promise<void> {
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
}

/** The firmware files the database names: a backup carries exactly these. */
export async function firmwareKeys(tx: Queryable): Promise<{ key: string; sha256: string }[]> {
  return tx.query<{ key: string; sha256: string }>('SELECT storage_key AS key, sha256 FROM firmware_packages ORDER BY storage_key');
}

export async function readBackupSettings(db: Queryable): Promise<BackupSettings> {
  const [row] = await db.query<BackupSettings>(
    'SELECT nightly, hour_utc AS "hourUtc", keep_count AS "keepCount" FROM backup_settings WHERE id = 1',
  );
  return row ?? { nightly: true, hourUtc: 3, keepCount: 7 };
}

export async function saveBackupSettings(db: Queryable, s: BackupSettings): Promise<void> {
  await db.query('UPDATE backup_settings SET nightly = $1, hour_utc = $2, keep_count = $3 WHERE id = 1', [
    s.nightly,
    s.hourUtc,
    s.keepCount,
  ]);
}

export async function recordBackupRun(db: Queryable, run: Omit<BackupRun, 'finishedAt'>): Promise<void> {
  await db.query(`INSERT INTO backup_runs (kind, started_at, ok, file, size_bytes, tables, message) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    run.kind,
    run.startedAt,
    run.ok,
    run.file,
    run.sizeBytes,
    run.tables,
    run.message,
  ]);
}

export async function recentBackupRuns(db: Queryable, limit = 10): Promise<BackupRun[]> {
  return db.query<BackupRun>(
    `SELECT kind, started_at AS "startedAt", finished_at AS "finishedAt", ok, file,
            size_bytes::float8 AS "sizeBytes", tables, message
       FROM backup_runs ORDER BY started_at DESC LIMIT $1`,
    [limit],
  );
}

/** The nightly backup is due: its hour has come today (UTC) and no nightly run started since. */
export async function nightlyDue(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ due: boolean }>(
    `SELECT s.nightly AND extract(hour FROM now() AT TIME ZONE 'UTC') >= s.hour_utc
            AND NOT EXISTS (SELECT 1 FROM backup_runs r WHERE r.kind = 'nightly'
                             AND r.started_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS due
       FROM backup_settings s WHERE s.id = 1`,
  );
  return !!row?.due;
}
