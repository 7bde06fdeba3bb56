import type { Db, Queryable } from '../../db/connection';
import { inBackground } from '../../db/priority';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { BizError } from '../../http/envelope';
import type { DeviceReport } from '../../../src/domain/reportSchema';
import type { ReportingDevice } from '../../auth/deviceCredentials';
import { alarmTransitions } from './alarmTransitions';
import { recordDataUsage } from '../dataPlans/dataUsageQueries';
import {
  clearOfflineAlarms,
  insertAlarms,
  insertHistory,
  lockDevices,
  readActiveFaultAlarms,
  readLatestStates,
  updateAlarms,
  upsertStates,
} from './ingestQueries';
import { activatedAmong, upsertPendingReports } from './pendingReportQueries';
import { recordLinks } from './linkWriteQueries';

export interface IngestResult {
  accepted: number;
  duplicates: number;
  /** Kept in the history but older than the latest state, which they did not change. */
  outOfOrder: number;
  unactivated: boolean;
  latestReportedAt: string | null;
}

/** One request's reports waiting for the next group. */
interface Pending {
  device: ReportingDevice;
  /** The batch sorted by device time, same-time duplicates removed. */
  unique: DeviceReport[];
  inBatchDuplicates: number;
  resolve(result: IngestResult): void;
  reject(error: unknown): void;
}

export interface IngestWriter {
  /** Resolves once the reports are committed (never before: an acknowledged report is stored). */
  write(device: ReportingDevice, batch: readonly DeviceReport[]): Promise<IngestResult>;
  /** Reports waiting for a transaction, and the backlog past which writes are refused as busy (readiness, metrics). */
  backlog(): { queued: number; limit: number };
}

const ms = (r: DeviceReport) => Date.parse(r.deviceTime);
/** Reports written in one transaction at most (one request's batch may exceed it alone). */
const MAX_GROUP_REPORTS = 5_000;
/** Reports that may wait for a transaction at most (a few seconds of a large fleet's traffic). */
const MAX_QUEUED_REPORTS = 50_000;

/**
 * The group-commit writer: requests that arrive while a transaction is writing wait, and are then
 * written together in one transaction (one history INSERT, one state upsert, one devices update
 * for the whole group, alarms per device that needs them). Each request's promise resolves after
 * the commit. When a group fails, its requests are retried one by one, so one bad request cannot
 * fail the others. One group is in flight at a time; devices are locked in id order.
 */
export function createIngestWriter(
  db: Db,
  {
    maxGroup = 500,
    maxQueuedReports = MAX_QUEUED_REPORTS,
    onGroup,
  }: {
    maxGroup?: number;
    maxQueuedReports?: number;
    /** Told of each group written: its reports and the time its transaction took (server/ops/metrics.ts). */
    onGroup?: (reports: number, seconds: number) => void;
  } = {},
): IngestWriter {
  const queue: Pending[] = [];
  /** Reports waiting in the queue (not those being written). */
  let queued = 0;
  let writing = false;
  let scheduled = false;

  /**
   * A group starts in the event loop's check phase, after every request the poll phase read has
   * joined the queue. Started at once, the first request would be written alone: PGlite, on the
   * event loop then, ran a transaction without yielding to I/O, so the others would each get a
   * transaction of their own (measured: 85 single-report requests/s instead of 600+).
   */
  const schedule = () => {
    if (scheduled || writing || !queue.length) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      kick();
    });
  };

  const kick = () => {
    if (writing || !queue.length) return;
    writing = true;
    // A group holds at most maxGroup requests and MAX_GROUP_REPORTS reports (a request is never split).
    let take = 0;
    for (let reports = 0; take < queue.length && take < maxGroup; take++) {
      reports += queue[take]!.unique.length;
      if (take > 0 && reports > MAX_GROUP_REPORTS) break;
    }
    const group = queue.splice(0, take);
    let reports = 0;
    for (const item of group) reports += item.unique.length;
    queued -= reports;
    const started = performance.now();
    // Nobody watches a report being stored: console calls go first (server/db/priority.ts).
    void inBackground(() => writeGroup(db, group))
      .then((results) => {
        onGroup?.(reports, (performance.now() - started) / 1000);
        group.forEach((item, i) => item.resolve(results[i]!));
      })
      .catch(async (error) => {
        if (group.length === 1) return group[0]!.reject(error);
        for (const item of group) {
          await inBackground(() => writeGroup(db, [item])).then(([result]) => item.resolve(result!), item.reject);
        }
      })
      .finally(() => {
        writing = false;
        schedule();
      });
  };

  return {
    backlog: () => ({ queued, limit: maxQueuedReports }),
    write(device, batch) {
      const sorted = [...batch].sort((a, b) => ms(a) - ms(b));
      const unique: DeviceReport[] = [];
      for (const r of sorted) if (!unique.length || ms(unique[unique.length - 1]!) !== ms(r)) unique.push(r);
      return new Promise<IngestResult>((resolve, reject) => {
        // Past this backlog the server is overloaded: the device is told so (-100) and sends again later.
        if (queued > 0 && queued + unique.length > maxQueuedReports) return reject(new BizError(ErrorCode.Busy));
        queued += unique.length;
        queue.push({ device, unique, inBatchDuplicates: sorted.length - unique.length, resolve, reject });
        schedule();
      });
    },
  };
}

/**
 * Writes a group in one transaction: the history (device times already stored are skipped and
 * counted as duplicates), each device's latest state when a report is newer than it, and the alarm
 * transitions the newer reports imply. Nothing is written on failure. Reports of devices that are
 * not activated only replace their device's report awaiting activation (holdReports).
 */
async function writeGroup(db: Db, given: readonly Pending[]): Promise<IngestResult[]> {
  return db.transaction(async (tx) => {
    const all = await withActivationNow(tx, given);
    const held = all.filter((g) => !g.device.activated);
    const group = all.filter((g) => g.device.activated);
    const heldResults = held.length ? await holdReports(tx, held) : [];
    if (!group.length) return heldResults;
    const ids = [...new Set(group.map((g) => g.device.id))].sort((a, b) => a - b);
    // One device's reports are written one group at a time (across replicas too): the locks first,
    // in id order, then the latest states in a statement of its own, so that it sees what another
    // replica committed while this one waited for a lock.
    await lockDevices(tx, ids);
    const locked = await readLatestStates(tx, ids);
    const latestMs = new Map<number, number>();
    const hadFaults = new Map<number, boolean>();
    const linksBefore = new Map(locked.map((row) => [row.id, row.links]));
    // A device with no state yet has no known faults either way: its alarms are looked at (as before).
    for (const row of locked) {
      if (row.ms != null) latestMs.set(row.id, row.ms);
      if (row.ms != null) hadFaults.set(row.id, (row.faults ?? []).length > 0);
    }

    // A device time sent twice within the group is written once, for the first request that sent it.
    const seen = new Set<string>();
    const toInsert = group.map((g) =>
      g.unique.filter((r) => {
        const key = `${g.device.id}:${ms(r)}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      }),
    );
    // The history rows of the whole group in one INSERT; `inserted`: the (device id:time ms) pairs it stored.
    const rows = group.flatMap((g, i) => toInsert[i]!.map((report) => ({ device: g.device, report })));
    const inserted = new Set((rows.length ? await insertHistory(tx, rows) : []).map((r) => `${r.id}:${Math.round(r.ms)}`));

    const newerByDevice = new Map<number, { device: ReportingDevice; reports: DeviceReport[] }>();
    const results = group.map((g, i): IngestResult => {
      const stored = toInsert[i]!.filter((r) => inserted.has(`${g.device.id}:${ms(r)}`));
      const newer: DeviceReport[] = [];
      for (const r of stored) {
        const prev = latestMs.get(g.device.id);
        if (prev === undefined || ms(r) > prev) {
          newer.push(r);
          latestMs.set(g.device.id, ms(r));
        }
      }
      if (newer.length) {
        const entry = newerByDevice.get(g.device.id) ?? { device: g.device, reports: [] };
        entry.reports.push(...newer);
        newerByDevice.set(g.device.id, entry);
      }
      const latest = newer[newer.length - 1];
      return {
        accepted: stored.length,
        duplicates: g.inBatchDuplicates + g.unique.length - stored.length,
        outOfOrder: stored.length - newer.length,
        unactivated: !g.device.activated,
        latestReportedAt: latest ? new Date(latest.deviceTime).toISOString() : null,
      };
    });

    const changed = [...newerByDevice.values()];
    if (changed.length) {
      const links = await recordLinks(
        tx,
        changed.map(({ device, reports }) => ({ id: device.id, before: linksBefore.get(device.id) ?? null, reports })),
      );
      await upsertStates(
        tx,
        changed.map(({ device, reports }) => ({ device, report: reports[reports.length - 1]!, links: links.get(device.id) })),
      );
      // A vessel that reports again is no longer offline (an alarm rule's offline alarm ends).
      await clearOfflineAlarms(
        tx,
        changed.map(({ device, reports }) => ({ id: device.id, at: reports[reports.length - 1]!.deviceTime })),
      );
    }
    for (const { device, reports } of changed) {
      if (device.activated && (hadFaults.get(device.id) !== false || reports.some((r) => r.faults.length > 0)))
        await applyAlarms(tx, device.id, reports);
    }
    // Data usage: every stored report's bytes (out-of-order ones too; duplicates were not stored).
    await recordDataUsage(
      tx,
      group.flatMap((g, i) =>
        toInsert[i]!.filter((r) => r.bytesUsed && inserted.has(`${g.device.id}:${ms(r)}`)).map((r) => ({
          deviceId: g.device.id,
          deviceTime: r.deviceTime,
          bytes: r.bytesUsed!,
        })),
      ),
    );
    if (!held.length) return results;
    const byItem = new Map<Pending, IngestResult>([
      ...held.map((g, i) => [g, heldResults[i]!] as const),
      ...group.map((g, i) => [g, results[i]!] as const),
    ]);
    return all.map((g) => byItem.get(g)!);
  });
}

/**
 * A device activated since its credentials were read (an MQTT connection opened before, or a cache
 * entry a moment old) is written as activated: its reports must not be held where nothing shows them.
 */
async function withActivationNow(tx: Queryable, given: readonly Pending[]): Promise<readonly Pending[]> {
  const doubtful = [...new Set(given.filter((g) => !g.device.activated).map((g) => g.device.id))];
  if (!doubtful.length) return given;
  const now = new Set(await activatedAmong(tx, doubtful));
  if (!now.size) return given;
  return given.map((g) => (!g.device.activated && now.has(g.device.id) ? { ...g, device: { ...g.device, activated: true } } : g));
}

/**
 * Reports of devices that are not activated (anyone may send them: such a device has no secret yet)
 * reach no status monitor, map, alarm, statistic, data usage or live event (docs/api.md, "POST
 * /ingest/report"; docs/devices.md, "Connecting"): each device's newest report is only kept as
 * awaiting activation, for its page. The device is answered as before: every report accepted.
 */
async function holdReports(tx: Queryable, held: readonly Pending[]): Promise<IngestResult[]> {
  const newest = new Map<number, DeviceReport>();
  for (const g of held) {
    const last = g.unique[g.unique.length - 1]!;
    const prev = newest.get(g.device.id);
    if (!prev || ms(last) >= ms(prev)) newest.set(g.device.id, last);
  }
  await upsertPendingReports(
    tx,
    [...newest].map(([deviceId, report]) => ({ deviceId, report })),
  );
  return held.map((g) => ({
    accepted: g.unique.length,
    duplicates: g.inBatchDuplicates,
    outOfOrder: 0,
    unactivated: true,
    latestReportedAt: new Date(g.unique[g.unique.length - 1]!.deviceTime).toISOString(),
  }));
}

/** The alarm transitions a device's newer reports imply (alarmTransitions.ts). */
async function applyAlarms(tx: Queryable, deviceId: number, newer: readonly DeviceReport[]): Promise<void> {
  const active = await readActiveFaultAlarms(tx, deviceId);
  if (!active.length && newer.every((r) => r.faults.length === 0)) return;
  const { updates, inserts } = alarmTransitions(active, newer);
  if (updates.length) await updateAlarms(tx, updates);
  if (inserts.length) await insertAlarms(tx, deviceId, inserts);
}
