import { PGlite } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';

/** Plain parameterised SQL ($1, $2...) on either engine; never string-built SQL. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export async function openDb(options: { databaseUrl: string; dataDir: string }): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}

/** Creates the embedded database's folder and its parents; a folder that cannot be made stops the start with one clear line. */
function ensureDataDir(dataDir: string): string {
  const dir = resolve(dataDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new Error(`Cannot create the data folder ${dir} (DATA_DIR): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return dir;
}

async function openPglite(dataDir: string): Promise<Db> {
  const lite = await PGlite.create(dataDir === 'memory://' ? undefined : ensureDataDir(dataDir));
  return {
    engine: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await lite.query<T>(sql, params)).rows;
    },
    async exec(sql) {
      await lite.exec(sql);
    },
    transaction(fn) {
      return lite.transaction((tx) => fn({ query: async <T>(sql: string, params: unknown[] = []) => (await tx.query<T>(sql, params)).rows }));
    },
    close: () => lite.close(),
  };
}

/**
 * Statements with parameters run as named prepared statements, so PostgreSQL parses and plans
 * each distinct SQL text once per connection instead of on every call.
 */
const statementName = (sql: string) => `s_${createHash('sha1').update(sql).digest('base64url').slice(0, 20)}`;
const prepared = (sql: string, values: unknown[]) => (values.length ? { name: statementName(sql), text: sql, values } : { text: sql, values });

function openPostgres(connectionString: string): Db {
  const pool = new pg.Pool({ connectionString, max: 10 });
  return {
    engine: 'postgres',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pool.query(prepared(sql, params))).rows as T[];
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({ query: async <T>(sql: string, params: unknown[] = []) => (await client.query(prepared(sql, params))).rows as T[] });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
