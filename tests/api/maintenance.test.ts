import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintainEmbedded } from '../../server/db/maintenance';
import { createTestServer, type TestServer } from './helpers';

/**
 * PGlite has no autovacuum: the leader's maintenance (server/db/maintenance.ts) vacuums and
 * analyzes it, so that the planner has statistics and the space of dead row versions is reused.
 */
describe('embedded database maintenance (PGlite)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer('pglite');
  });
  afterAll(() => s.close());

  const stats = async () => (await s.db.query<{ table: string; tuples: number }>(
    `SELECT relname AS table, reltuples::float8 AS tuples FROM pg_class WHERE relname = 'devices'`))
    .reduce<Record<string, number>>((all, r) => ({ ...all, [r.table]: r.tuples }), {});

  it('gives the planner the row counts of the tables a fleet updates all day', async () => {
    // Dead row versions, as a fleet's day leaves them: every device row rewritten a few times.
    for (let i = 0; i < 5; i++) await s.db.query('UPDATE devices SET updated_at = now()');
    const [{ n }] = (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices')) as [{ n: number }];
    expect(n).toBeGreaterThan(0);
    const before = await stats();
    expect(before.devices).not.toBe(n); // never analyzed: the planner does not know
    await maintainEmbedded(s.db);
    const after = await stats();
    expect(after.devices).toBe(n);
  });
});
