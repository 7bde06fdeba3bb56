import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Db } from './connection';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Replicas starting together on one PostgreSQL take turns: each migration runs under this lock. */
export const MIGRATION_LOCK = `SELECT pg_advisory_xact_lock(hashtext(current_database() || '.' || current_schema() || '.fleet-migrate'))`;

/**
 * Applies the numbered .sql files of migrations/ not yet recorded, each in its own transaction.
 * On PostgreSQL each transaction first takes an advisory lock and checks again that its file is
 * still to apply, so replicas started at once apply every file exactly once.
 */
export async function migrate(db: Db, { before }: { before?: string } = {}): Promise<string[]> {
  const locked = db.engine === 'postgres';
  await db.transaction(async (tx) => {
    if (locked) await tx.query(MIGRATION_LOCK);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  });
  const done = new Set((await db.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
  // `before`: only the files named before it (a test that puts rows in an older schema, then migrates on).
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql') && (!before || f < before)).sort();
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const sql = await readFile(MIGRATIONS_DIR + file, 'utf8');
    const ran = await db.transaction(async (tx) => {
      if (locked) {
        await tx.query(MIGRATION_LOCK);
        if ((await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [file])).length) return false;
      }
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
      return true;
    });
    if (ran) applied.push(file);
  }
  return applied;
}

/** The newest migration file this server knows (readiness checks that it is recorded: server/ops/health.ts). */
export async function latestMigration(): Promise<string> {
  return (
    (await readdir(MIGRATIONS_DIR))
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .at(-1) ?? ''
  );
}

/**
 * Migrations hold statements separated by semicolons at line ends; a function body between `$$`
 * quotes may span lines (its semicolons do not end the statement).
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of sql.split('\n')) {
    if (!inBody && /^\s*--/.test(line)) continue;
    current.push(line);
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.join('\n').replace(/;\s*$/, ''));
      current = [];
    }
  }
  statements.push(current.join('\n'));
  return statements.map((s) => s.trim()).filter(Boolean);
}
