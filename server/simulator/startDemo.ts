import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';
import type { Db } from '../db/connection';
import { inBackground } from '../db/priority';
import type { Leader } from '../leader';
import { runDueReports } from '../reports/reportService';
import type { DeviceLink } from '../link/deviceLink';
import { issueDemoSecrets } from './demoDevices';
import { startSimulator, type RunningSimulator, type SimulatorStats } from './simulator';
import { buildReportSpans, markOfflineDevices, pruneHistory, sealDailyRollups } from '../modules/monitoring';
import { expireCommands } from '../modules/commands';
import { sweepDataPeriods } from '../modules/dataPlans';
import { buildCoverage, checkDegradeAhead } from '../modules/vessel';
import { checkRuleAlarms } from '../notify/ruleAlarms';
import type { WarningStreak } from '../../src/domain/degradeAhead';
import { backupsOf } from '../ops';
import { vacuumEmbedded } from '../ops/vacuum';

const HOUR_MS = 3_600_000;

export interface BackgroundWork {
  /** The demo fleet's counts (rounds, requests, reports, refusals, failures) while this replica runs it; null when it does not. */
  simulatorStats(): SimulatorStats | null;
  /** Why the demo fleet last failed to start on this replica (it is tried again while this replica leads); null if it never failed. */
  fleetStartError(): string | null;
  stop(): Promise<void>;
}

/**
 * The work that runs once across replicas, on the leader only (server/leader.ts): the hourly
 * pruning of the report history and of the hourly rollups (in batches, server/modules/monitoring/retention.ts), the offline sweep of the device list every minute, the data plan period sweep every minute (a passed reset day starts a new period and clears its data alarms), and with
 * `npm start` the demo fleet (SIMULATOR=0 turns it off; SIMULATOR_SEED, SIMULATOR_INTERVAL_S tune
 * it) reporting to this server over its MQTT device link (`link`; SIMULATOR_TRANSPORT=http, or no
 * link, keeps the HTTP ingest). A replica that becomes the leader starts it; one that
 * stops being the leader stops its simulator.
 */
export async function startBackgroundWork(
  app: FastifyInstance,
  db: Db,
  config: ServerConfig,
  leader: Leader,
  env: NodeJS.ProcessEnv = process.env,
  link?: DeviceLink,
): Promise<BackgroundWork> {
  // A task still running when its next tick comes is not started again beside itself.
  const asLeader = (task: () => Promise<unknown>, ms: number) => {
    let running = false;
    const run = () => {
      running = true;
      return inBackground(task)
        .catch((e: Error) => app.log.warn(e.message))
        .finally(() => (running = false));
    };
    const timer = setInterval(() => leader.isLeader && !running && void run(), ms);
    timer.unref();
    return timer;
  };
  const firstRun = (task: () => Promise<unknown>, ms: number) => {
    const timer = setTimeout(() => leader.isLeader && void inBackground(task).catch((e: Error) => app.log.warn(e.message)), ms);
    timer.unref();
    return timer;
  };
  // Vessels warned at the degradation checks in a row, from one check to the next.
  const degradeStreaks = new Map<number, WarningStreak>();
  // A long first run (a large backlog) is not started twice: asLeader skips a tick while it runs.
  const prune = async () => {
    const gone = await pruneHistory(db, { batchSize: config.retentionBatchSize, rollupRetentionDays: config.rollupRetentionDays });
    if (gone.reports || gone.rollups) app.log.info(`retention: ${gone.reports} reports, ${gone.rollups} hourly rollups deleted`);
  };
  // Commands past their deadline are marked expired within 10 s (acks after the deadline are refused anyway).
  const timers = [
    asLeader(prune, HOUR_MS),
    asLeader(() => markOfflineDevices(db), 60_000),
    // Whole days of the zones in use sealed into daily rollups, and days changed by late reports rebuilt
    // (server/modules/monitoring/dailyRollupQueries.ts); then the statistics windows' spans built up to the last hour (spanRollupQueries.ts).
    asLeader(async () => {
      await sealDailyRollups(db);
      await buildReportSpans(db);
    }, 60_000),
    asLeader(() => sweepDataPeriods(db), 60_000),
    // The fleet's coverage map: the reports received since the last run counted into their cells (server/modules/vessel/coverageQueries.ts).
    asLeader(() => buildCoverage(db), 60_000),
    // ...and once soon after the start, so a fresh demo's month of history is on the map within seconds, not a minute.
    firstRun(() => buildCoverage(db), 5_000),
    // Vessels under way warned before they sail where their satellite is poor (server/modules/vessel/degradeJob.ts).
    asLeader(
      () => checkDegradeAhead(db, degradeStreaks, { lockedBelowPct: config.degradeLockedBelowPct, snrBelowDb: config.degradeSnrBelowDb }),
      5 * 60_000,
    ),
    asLeader(() => expireCommands(db), 10_000),
    // The alarms alarm rules raise (offline, weak signal, geofences), checked every minute (server/notify/ruleAlarms.ts).
    asLeader(() => checkRuleAlarms(db), 60_000),
    // The embedded database has no autovacuum: its tables updated in place are vacuumed every minute (server/ops/vacuum.ts).
    asLeader(() => vacuumEmbedded(db), 60_000),
    // Scheduled reports whose time has come, and failed runs tried again (server/reports/reportService.ts).
    asLeader(() => runDueReports(db), 60_000),
    // The nightly backup, once its hour has come (server/ops/backup/backupService.ts).
    asLeader(async () => backupsOf(app)?.nightly(), 5 * 60_000),
  ];
  let simulator: RunningSimulator | undefined;
  let starting: Promise<void> = Promise.resolve();
  let fleetStartError: string | null = null;
  let stopped = false;

  const startFleet = async () => {
    void inBackground(() => markOfflineDevices(db)).catch(() => undefined);
    if (env.SIMULATOR === '0' || simulator || !leader.isLeader) return;
    const devices = await issueDemoSecrets(db);
    if (!devices.length || !leader.isLeader) return;
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const intervalS = Number(env.SIMULATOR_INTERVAL_S ?? 10);
    // Over the device link's broker when there is one (SIMULATOR_TRANSPORT=http keeps the HTTP ingest).
    const transport = env.SIMULATOR_TRANSPORT === 'http' || !link?.deviceUrl ? 'http' : 'mqtt';
    simulator = startSimulator({
      apiBase: `http://127.0.0.1:${port}/cz/${config.apiSegment}`,
      devices,
      seed: Number(env.SIMULATOR_SEED ?? 1),
      intervalMs: intervalS * 1000,
      transport,
      mqttUrl: link?.deviceUrl,
      mqttTopicRoot: config.mqttTopicRoot,
      onError: (m) => app.log.warn(`simulator: ${m}`),
    });
    await simulator.tickNow(); // the vessels have positions before the first page load
    console.log(
      `Simulator:     ${devices.length} demo vessels report every ${intervalS} s over ${transport === 'mqtt' ? `MQTT (${link!.deviceUrl})` : 'HTTP'} (SIMULATOR=0 turns it off)`,
    );
  };
  // A start that fails (a database error while the demo secrets are issued, say) is tried again
  // while this replica still leads: a leader without its fleet would otherwise stay one until restarted.
  const startFleetRetrying = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await startFleet();
      } catch (e) {
        fleetStartError = (e as Error).message;
        app.log.warn(`simulator start (attempt ${attempt}): ${fleetStartError}`);
        if (attempt >= 10) throw e;
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        if (stopped || !leader.isLeader || simulator) return;
      }
    }
  };
  leader.onChange((isLeader) => {
    starting = starting
      .then(async () => {
        if (isLeader) return startFleetRetrying();
        const running = simulator;
        simulator = undefined;
        await running?.stop();
      })
      .catch((e: Error) => app.log.warn(`background work: ${e.message}`));
  });
  await starting;
  if (!leader.isLeader) console.log('Simulator:     another replica leads the background work; this one takes over if it stops');
  return {
    simulatorStats: () => (simulator ? { ...simulator.stats } : null),
    fleetStartError: () => fleetStartError,
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await starting;
      await simulator?.stop();
      simulator = undefined;
    },
  };
}
