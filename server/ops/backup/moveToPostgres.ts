import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { ServerConfig } from '../../config';
import { openDb, type Db, type Queryable } from '../../db/connection';
import { latestMigration, migrate } from '../../db/migrate';
import { ensureTables } from '../../db/generatedTables';
import { declaredResources } from '../../resources/declaredResources';
import { firmwareFolder } from '../../modules/firmware/storage';
import {
  closeRowCursor,
  currentSchema,
  differingTables,
  ensurePartitionsFor,
  fetchRows,
  firmwareKeys,
  insertRows,
  newestMigration,
  openRowCursor,
  replicaMode,
  reportSpan,
  schemaObjectCount,
  schemaTables,
  sequenceValues,
  setSequence,
  tableSums,
  truncateTables,
  writableColumns,
} from './backupQueries';

/** Rows per INSERT: memory stays flat whatever a table's size. */
const BATCH = 5000;
/** Login sessions are not carried over: everyone logs in again on the new database. */
const NOT_MOVED = ['sessions'];

export interface MoveResult {
  schema: string;
  tables: number;
  rows: number;
  sequences: number;
  firmwareFolder: string | null;
  missingFirmware: string[];
  seconds: number;
}

/** A refusal before anything was written (a non-empty target, a server still running...). */
export class MoveRefused extends Error {}

/**
 * Copies the embedded database in DATA_DIR into an empty PostgreSQL schema (docs/architecture.md,
 * "Outgrowing the embedded database"). Everything happens in one transaction on the target: the
 * schema is made by the same migrations as a server's start, every table is copied in batches
 * (triggers and foreign-key checks off, as a replica applies rows), sequences take the source's
 * values, and every table's count and checksum are compared before the commit. A move that fails
 * or is killed leaves the target as empty as it was, and the source is only read: run it again.
 */
export async function moveToPostgres(
  config: Pick<ServerConfig, 'dataDir' | 'firmwareDir'>,
  to: string,
  log: (line: string) => void = () => undefined,
): Promise<MoveResult> {
  const started = Date.now();
  const dataDir = resolve(config.dataDir);
  if (!existsSync(dataDir) || !readdirSync(dataDir).length) throw new MoveRefused(`No embedded database in ${dataDir} (DATA_DIR)`);
  const source = await openDb({ databaseUrl: '', dataDir });
  const client = new pg.Client({ connectionString: to });
  try {
    const expected = await latestMigration();
    const sourceMigration = await source.transaction((tx) => newestMigration(tx));
    if (sourceMigration !== expected)
      throw new MoveRefused(
        `The embedded database is at ${sourceMigration || 'no migration'}, this version at ${expected}: start the server once on it, stop it, then move`,
      );
    await client.connect().catch((error: Error) => {
      throw new MoveRefused(`Cannot connect to the target database: ${error.message}`);
    });
    const target: Queryable = { query: async (sql, params) => (await client.query(sql, params)).rows };
    const schema = await currentSchema(target);
    if (!schema) throw new MoveRefused('The target URL names a schema that does not exist (search_path): create it first');
    if (await schemaObjectCount(target, schema))
      throw new MoveRefused(`The target schema ${schema} already holds tables: move into an empty database`);

    await client.query('BEGIN');
    try {
      await replicaMode(target).catch((error: Error) => {
        throw new MoveRefused(
          `The target role may not turn triggers off (${error.message}): move as the database's superuser, or GRANT SET ON PARAMETER session_replication_role to this role`,
        );
      });
      log(`Making the schema in ${schema}...`);
      const db = transactionDb(client, target);
      await migrate(db);
      await ensureTables(
        db,
        (await declaredResources()).map((d) => d.resource),
      );
      const result = await source.transaction(async (tx) => {
        const span = await reportSpan(tx);
        if (span.from && span.to)
          await ensurePartitionsFor(target, span.from, new Date(Date.parse(span.to) + 31 * 86_400_000).toISOString());
        const tables = (await schemaTables(tx)).map((t) => t.table);
        await truncateTables(
          target,
          (await schemaTables(target)).map((t) => t.table),
        );
        let rows = 0;
        for (const table of tables) {
          if (NOT_MOVED.includes(table)) continue;
          const columns = await writableColumns(target, table);
          log(`Copying ${table}...`);
          await openRowCursor(tx, table);
          for (let batch = await fetchRows(tx, BATCH); batch.length; batch = await fetchRows(tx, BATCH)) {
            await insertRows(target, table, columns, batch);
            rows += batch.length;
          }
          await closeRowCursor(tx);
        }
        const sequences = await sequenceValues(tx);
        for (const s of sequences) await setSequence(target, s.name, s.value, s.called);
        log('Checking every table...');
        const wrong = differingTables(await tableSums(tx), await tableSums(target), NOT_MOVED);
        if (wrong.length) throw new Error(`The moved tables differ from the source: ${wrong.join(', ')}; nothing was kept`);
        return { tables: tables.length, rows, sequences: sequences.length, firmware: await firmwareKeys(tx) };
      });
      await client.query('COMMIT');
      const folder = firmwareFolder({ ...config, dataDir });
      const missingFirmware = result.firmware.filter((f) => !folder || !existsSync(join(folder, f.key))).map((f) => f.key);
      return {
        schema,
        tables: result.tables,
        rows: result.rows,
        sequences: result.sequences,
        firmwareFolder: folder,
        missingFirmware,
        seconds: (Date.now() - started) / 1000,
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await client.end().catch(() => undefined);
    await source.close();
  }
}

/** The target as migrate() and ensureTables() see a database: inside the move's one transaction, each of theirs a savepoint. */
function transactionDb(client: pg.Client, target: Queryable): Db {
  return {
    engine: 'postgres',
    query: target.query,
    async exec(sql) {
      await client.query(sql);
    },
    async transaction(fn) {
      await client.query('SAVEPOINT step');
      const result = await fn(target);
      await client.query('RELEASE SAVEPOINT step');
      return result;
    },
    listen: () => Promise.reject(new Error('not during a move')),
    notify: () => Promise.reject(new Error('not during a move')),
    close: async () => undefined,
  };
}
