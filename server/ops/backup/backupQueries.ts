import type { Queryable } from '../../db/connection';
import type { BackupRunItem as BackupRun, BackupSettings } from '../../../src/domain/backupSettings';

/** A table's rows as a backup's manifest records them: the count and an order-free checksum. */
export interface TableSum {
  table: string;
  rows: number;
  sum: string;
}

/** The tables of `expected` whose count or checksum differ in `actual` (or that it lacks), each with both counts. */
export function differingTables(expected: TableSum[], actual: TableSum[], except: readonly string[] = []): string[] {
  const got = new Map(actual.map((t) => [t.table, t]));
  return expected
    .filter((t) => !except.includes(t.table) && (got.get(t.table)?.rows !== t.rows || got.get(t.table)?.sum !== t.sum))
    .map((t) => `${t.table} (${t.rows} rows, ${got.get(t.table)?.rows ?? 'no table'} here)`);
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

/** The sums of a named schema's tables (a restored schema, read from a connection whose own schema may differ). */
export async function schemaSums(db: Queryable, schema: string): Promise<TableSum[]> {
  await db.query('BEGIN');
  try {
    await db.query(`SELECT set_config('search_path', $1, true)`, [schema]);
    return await tableSums(db);
  } finally {
    await db.query('COMMIT');
  }
}

export async function newestMigration(tx: Queryable): Promise<string> {
  const [row] = await tx.query<{ version: string }>('SELECT max(version) AS version FROM schema_migrations');
  return row?.version ?? '';
}

/** PostgreSQL: a repeatable-read snapshot that pg_dump can share (`--snapshot`), so the dump and the sums agree. */
export async function exportSnapshot(tx: Queryable): Promise<string> {
  await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  const [row] = await tx.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
  return row!.id;
}

/**
 * PGlite on disk: an online base backup begins (PostgreSQL's own, pg_backup_start): a checkpoint
 * writes every page to the folder's files, and from then on every page's first change after it is
 * written whole to the WAL, so a copy made while the database goes on is made consistent by
 * replaying the WAL. `from`: the WAL segment the replay starts in.
 */
export async function backupStart(db: Queryable, label: string): Promise<{ from: string }> {
  const [row] = await db.query<{ from: string }>('SELECT pg_walfile_name(pg_backup_start($1::text, true)) AS "from"', [label]);
  return row!;
}

/**
 * Ends the online backup: `label` is the backup_label file the copy must hold (where its replay
 * starts), `to` the last WAL segment it needs (PostgreSQL switches to a new one at the end).
 */
export async function backupStop(db: Queryable): Promise<{ to: string; label: string; tablespaceMap: string }> {
  const [row] = await db.query<{ to: string; label: string; tablespaceMap: string }>(
    'SELECT pg_walfile_name(lsn) AS "to", labelfile AS label, spcmapfile AS "tablespaceMap" FROM pg_backup_stop(false)',
  );
  return row!;
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

/** A table's columns a copy writes (not the generated ones, which the target computes itself). */
export async function writableColumns(db: Queryable, table: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT a.attname::text AS name FROM pg_attribute a
      WHERE a.attrelid = (quote_ident(current_schema()) || '.' || quote_ident($1))::regclass
        AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY a.attnum`,
    [table],
  );
  return rows.map((r) => r.name);
}

/** Opens a cursor over a table's rows as JSON (inside the source's transaction); `fetchRows` reads it in batches. */
export async function openRowCursor(tx: Queryable, table: string): Promise<void> {
  await tx.query(`DECLARE move_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${ident(table)} t`);
}

export async function fetchRows(tx: Queryable, count: number): Promise<string[]> {
  return (await tx.query<{ j: string }>(`FETCH ${Math.trunc(count)} FROM move_rows`)).map((r) => r.j);
}

export async function closeRowCursor(tx: Queryable): Promise<void> {
  await tx.query('CLOSE move_rows');
}

/** Writes a batch of rows (JSON objects, as the cursor read them) into the target table. */
export async function insertRows(db: Queryable, table: string, columns: string[], rows: string[]): Promise<void> {
  const list = columns.map(ident).join(', ');
  await db.query(
    `INSERT INTO ${ident(table)} (${list}) OVERRIDING SYSTEM VALUE
     SELECT ${list} FROM json_populate_recordset(NULL::${ident(table)}, $1::json)`,
    [`[${rows.join(',')}]`],
  );
}

/** The move writes with triggers and foreign-key checks off (the rows come whole from a database that kept them). */
export async function replicaMode(db: Queryable): Promise<void> {
  await db.query(`SET LOCAL session_replication_role = replica`);
}

/** Empties every table of the target (the rows its migrations wrote), in one statement. */
export async function truncateTables(db: Queryable, tables: string[]): Promise<void> {
  if (tables.length) await db.query(`TRUNCATE ${tables.map(ident).join(', ')}`);
}

export async function sequenceValues(db: Queryable): Promise<{ name: string; value: string; called: boolean }[]> {
  const names = await db.query<{ name: string }>(
    `SELECT c.relname::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'S' AND n.nspname = current_schema() ORDER BY 1`,
  );
  const values = [];
  for (const { name } of names) {
    const [row] = await db.query<{ value: string; called: boolean }>(
      `SELECT last_value::text AS value, is_called AS called FROM ${ident(name)}`,
    );
    values.push({ name, value: row!.value, called: row!.called });
  }
  return values;
}

export async function setSequence(db: Queryable, name: string, value: string, called: boolean): Promise<void> {
  await db.query(`SELECT setval((quote_ident(current_schema()) || '.' || quote_ident($1))::regclass, $2::bigint, $3)`, [
    name,
    value,
    called,
  ]);
}

/** The time span of the reports, so the target has a partition for every month they fall in. */
export async function reportSpan(db: Queryable): Promise<{ from: string | null; to: string | null }> {
  const [row] = await db.query<{ from: string | null; to: string | null }>(
    `SELECT min(device_time)::text AS "from", max(device_time)::text AS "to" FROM device_reports`,
  );
  return row ?? { from: null, to: null };
}

export async function ensurePartitionsFor(db: Queryable, from: string, to: string): Promise<void> {
  await db.query('SELECT ensure_report_partitions($1::timestamptz, $2::timestamptz)', [from, to]);
}
