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
  /** Waits (up to 30 s: a loaded machine is slow to start the simulator and to commit) until a report timed after `t` is stored. */
  async function untilReportedAfter(db: Db, t: Date) {
    const started = Date.now();
    const after = async () => (await db.query(`SELECT 1 FROM device_reports WHERE device_time > $1 LIMIT 1`, [t.toISOString()])).length > 0;
    while (!(await after()) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 200));
  }
  /**
   * The most reports any one vessel timed within the next `seconds`, read once they are stored.
   * Device times, not arrival times: a slow commit on a loaded machine moves no report out of its window.
   */
  async function mostReportsPerVessel(db: Db, seconds: number) {
    const from = new Date();
    const to = new Date(from.getTime() + seconds * 1000);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    await untilReportedAfter(db, to);
    const [row] = await db.query<{ most: number }>(
      `SELECT coalesce(max(n), 0)::int AS most FROM (SELECT count(*) AS n FROM device_reports WHERE device_time >= $1 AND device_time < $2 GROUP BY device_id) c`,
      [from.toISOString(), to.toISOString()],
    );
    return row!.most;
  }

  async function untilFleetRuns() {
    const started = Date.now();
    while (!replicas.some((r) => r.leader.isLeader && r.work.simulatorStats()) && Date.now() - started < 30_000)
      await new Promise((r) => setTimeout(r, 200));
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
    // On a failure, what each replica's simulator saw (rounds, requests, reports, refusals, its last error) and why a start failed.
    const leaderStats = () =>
      JSON.stringify(
        replicas.map((r) => ({ leader: r.leader.isLeader, stats: r.work.simulatorStats(), startError: r.work.fleetStartError() })),
      );
    // The leader's fleet is running (a loaded machine is slow to issue the demo secrets and start it).
    await untilFleetRuns();
    expect(
      replicas.some((r) => r.leader.isLeader && r.work.simulatorStats()),
      leaderStats(),
    ).toBe(true);
    // One simulator at one report per second: no vessel times more than ~5 reports in 5 s (two would time ~10).
    const once = await mostReportsPerVessel(db, 5);
    expect(once, leaderStats()).toBeGreaterThanOrEqual(2);
    expect(once).toBeLessThanOrEqual(7);

    const leaderIndex = replicas.findIndex((r) => r.leader.isLeader);
    const [gone] = replicas.splice(leaderIndex, 1);
    await stopReplica(gone!);
    const survivor = replicas[0]!;
    const started = Date.now();
    while (!survivor.leader.isLeader && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 50));
    expect(survivor.leader.isLeader).toBe(true);
    await untilFleetRuns();
    await untilReportedAfter(survivor.db, new Date()); // its simulator reports
    const after = await mostReportsPerVessel(survivor.db, 5);
    expect(after, leaderStats()).toBeGreaterThanOrEqual(2);
    expect(after).toBeLessThanOrEqual(7);
  }, 120_000);
});
