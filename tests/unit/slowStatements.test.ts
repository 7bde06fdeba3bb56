import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../server/db/connection';
import type { SlowStatement } from '../../server/db/slowStatements';
import { loadConfig } from '../../server/config';

/**
 * DB_SLOW_MS (server/db/connection.ts): what an operator of the embedded database reads when the
 * console stalls — each statement or transaction that held the database that long, by its text,
 * never by its values.
 */
describe('slow statements on the embedded database', () => {
  let db: Db;
  const told: SlowStatement[] = [];
  beforeAll(async () => {
    db = await openDb({ databaseUrl: '', dataDir: 'memory://', slowMs: 250, onSlow: (slow) => told.push(slow) });
  });
  afterAll(() => db.close());

  it('tells of a statement that held the database that long, by its text and not its values', async () => {
    told.length = 0;
    await db.query(`SELECT   pg_sleep(0.3),\n  $1::text AS secret`, ['hunter2-password']);
    expect(told).toHaveLength(1);
    expect(told[0]!.ms).toBeGreaterThanOrEqual(250);
    expect(told[0]!.sql).toBe('SELECT pg_sleep(0.3), $1::text AS secret');
    expect(told[0]!.transaction).toBe(false);
    expect(JSON.stringify(told)).not.toContain('hunter2');
  });

  it('tells nothing of statements under the limit', async () => {
    told.length = 0;
    for (let i = 0; i < 20; i++) await db.query('SELECT $1::int + 1 AS n', [i]);
    expect(told).toEqual([]);
  });

  it('tells of a slow transaction with the start of each of its statements, and of its slow statement on its own', async () => {
    told.length = 0;
    await db.transaction(async (tx) => {
      await tx.query('SELECT 1 AS first_statement');
      await tx.query('SELECT pg_sleep(0.3)');
    });
    expect(told.map((t) => [t.sql, t.transaction])).toEqual([
      ['SELECT pg_sleep(0.3)', false],
      ['SELECT 1 AS first_statement; SELECT pg_sleep(0.3)', true],
    ]);
    expect(told[1]!.ms).toBeGreaterThanOrEqual(told[0]!.ms);
  });

  it('is off unless DB_SLOW_MS is set, and never negative', () => {
    expect(loadConfig({}).dbSlowMs).toBe(0);
    expect(loadConfig({ DB_SLOW_MS: '250' }).dbSlowMs).toBe(250);
    expect(loadConfig({ DB_SLOW_MS: '-5' }).dbSlowMs).toBe(0);
  });
});
