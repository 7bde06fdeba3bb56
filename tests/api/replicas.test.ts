import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startServer } from '../../server/start';
import { electLeader, type Leader } from '../../server/leader';
import { startBackgroundWork, type BackgroundWork } from '../../server/simulator/startDemo';
import type { Db } from '../../server/db/connection';

/**
 * Two replicas on one PostgreSQL (docs/architecture.md, scale-out): both start (migrations and demo
 * data applied once), one leads the background work, so the demo fleet reports once per interval,
 * not twice; when the leader stops, the other takes over and the fleet keeps reporting.
 */
const url = inject('pgUrl');

interface Replica {
  app: FastifyInstance;
  db: Db;
  leader: Leader;
  work: BackgroundWork;
}

describe.skipIf(!url)('two replicas on one PostgreSQL', () => {
  let schema = '';
  let databaseUrl = '';
  const replicas: Replica[] = [];

  async function startReplica(): Promise<Replica> {
    const { app, db, config } = await startServer({ databaseUrl, dataDir: 'memory://', logLevel: 'silent', seedDemo: true });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const leader = await electLeader(databaseUrl, { retryMs: 200 });
    const work = await startBackgroundWork(app, db, config, leader, { SIMULATOR_INTERVAL_S: '1', SIMULATOR_SEED: '7' });
    return { app, db, leader, work };
  }
  async function stopReplica(r: Replica) {
    await r.work.stop();
    await r.leader.stop();
    r.app.server.closeAllConnections();
    await r.app.close();
  }
  /** The most reports any one vessel sent in the last `seconds`. */
  async function mostReportsPerVessel(db: Db, seconds: number) {
    const [row] = await db.query<{ most: number }>(
      `SELECT coalesce(max(n), 0)::int AS most FROM (SELECT count(*) AS n FROM device_reports WHERE received_at > now() - make_interval(secs => $1) GROUP BY device_id) c`,
      [seconds],
    );
    return row!.most;
  }

  /** Waits (up to 20 s, a loaded machine is slow to start the simulator) until the fleet is reporting. */
  async function untilReporting(db: Db) {
    const started = Date.now();
    while ((await mostReportsPerVessel(db, 2)) === 0 && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 100));
  }

  beforeAll(async () => {
    schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const u = new URL(url!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = u.toString();
    // Started together, as a deployment starts its replicas.
    replicas.push(...(await Promise.all([startReplica(), startReplica()])));
  }, 120_000);

  afterAll(async () => {
    for (const r of replicas) await stopReplica(r).catch(() => undefined);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });

  it('applies the migrations and the demo data once', async () => {
    const [users] = await replicas[0]!.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE name = 'oceanic'`);
    expect(users!.n).toBe(1);
    const [migrations] = await replicas[0]!.db.query<{ n: number; distinct: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT version)::int AS distinct FROM schema_migrations',
    );
    expect(migrations!.n).toBe(migrations!.distinct);
  });

  it('runs the background work on one replica only, and on the other when the leader stops', async () => {
    expect(replicas.filter((r) => r.leader.isLeader)).toHaveLength(1);
    const db = replicas[0]!.db;
    // One simulator at one report per second: no vessel sends more than ~4 reports in 3 s (two would send ~6).
    await untilReporting(db);
    await new Promise((r) => setTimeout(r, 3500));
    const once = await mostReportsPerVessel(db, 3);
    expect(once).toBeGreaterThanOrEqual(2);
    expect(once).toBeLessThanOrEqual(4);

    const leaderIndex = replicas.findIndex((r) => r.leader.isLeader);
    const [gone] = replicas.splice(leaderIndex, 1);
    await stopReplica(gone!);
    const survivor = replicas[0]!;
    const started = Date.now();
    while (!survivor.leader.isLeader && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 50));
    expect(survivor.leader.isLeader).toBe(true);
    await new Promise((r) => setTimeout(r, 2500)); // the old leader's last reports leave the window
    await untilReporting(survivor.db);
    await new Promise((r) => setTimeout(r, 3500));
    const after = await mostReportsPerVessel(survivor.db, 3);
    expect(after).toBeGreaterThanOrEqual(2);
    expect(after).toBeLessThanOrEqual(4);
  }, 60_000);
});
