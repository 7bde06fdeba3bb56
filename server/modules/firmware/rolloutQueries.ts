import type { Db, Queryable } from '../../db/connection';
import {
  customerMatchKey,
  ACTIVE_UPDATE_STATES,
  ROLLOUT_STALL_MINUTES,
  UNFINISHED_UPDATE_STATES,
  UPDATE_STATES,
  type Rollout,
  type UpdateState,
} from '../../../src/domain/firmware';

const list = (states: readonly string[]) => `('${states.join("', '")}')`;
export const UNFINISHED_SQL = list(UNFINISHED_UPDATE_STATES);
export const ACTIVE_SQL = list(ACTIVE_UPDATE_STATES);

const ROLLOUT_SELECT = `
  SELECT r.id, r.firmware_id AS "firmwareId", f.version, f.model, r.max_concurrent AS "maxConcurrent", r.group_id AS "groupId",
         r.created_at AS "createdAt", r.cancelled_at AS "cancelledAt", count(t.device_id)::int AS total,
         ${UPDATE_STATES.map((s) => `count(*) FILTER (WHERE t.state = '${s}')::int AS "${s}"`).join(', ')}
    FROM firmware_rollouts r JOIN firmware_packages f ON f.id = r.firmware_id
    LEFT JOIN firmware_rollout_targets t ON t.rollout_id = r.id`;

type Flat = Omit<Rollout, 'counts'> & Record<UpdateState, number>;
const shape = (row: Flat): Rollout => {
  const counts = Object.fromEntries(UPDATE_STATES.map((s) => [s, row[s]])) as Record<UpdateState, number>;
  const rest = Object.fromEntries(Object.entries(row).filter(([k]) => !(UPDATE_STATES as readonly string[]).includes(k)));
  return { ...(rest as Omit<Rollout, 'counts'>), counts };
};

export async function listRollouts(db: Queryable, firmwareId: number): Promise<Rollout[]> {
  const rows = await db.query<Flat>(`${ROLLOUT_SELECT} WHERE r.firmware_id = $1 GROUP BY r.id, f.id ORDER BY r.id DESC`, [firmwareId]);
  return rows.map(shape);
}

export async function findRollout(db: Queryable, id: number): Promise<Rollout | null> {
  const [row] = await db.query<Flat>(`${ROLLOUT_SELECT} WHERE r.id = $1 GROUP BY r.id, f.id`, [id]);
  return row ? shape(row) : null;
}

export interface TargetQuery {
  rolloutId: number;
  pageIndex: number;
  pageSize: number;
  state?: UpdateState;
  name?: string;
}

export async function listTargets(db: Queryable, q: TargetQuery) {
  const name = q.name?.trim() ? `%${q.name.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await db.query<Record<string, unknown> & { total: number }>(
    `SELECT t.device_id AS "deviceId", d.name AS "deviceName", d.device_num AS "deviceNum", u.name AS "ownerName",
            t.state, t.progress, t.message, t.started_at AS "startedAt", t.finished_at AS "finishedAt", t.updated_at AS "updatedAt",
            count(*) OVER ()::int AS total
       FROM firmware_rollout_targets t JOIN devices d ON d.id = t.device_id LEFT JOIN users u ON u.id = d.owner_id
      WHERE t.rollout_id = $1 AND ($2::text IS NULL OR t.state = $2) AND ($3::text IS NULL OR d.name ILIKE $3 OR d.device_num ILIKE $3)
      ORDER BY t.device_id LIMIT $4 OFFSET $5`,
    [q.rolloutId, q.state ?? null, name, q.pageSize, (q.pageIndex - 1) * q.pageSize],
  );
  return { list: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
}

export interface CandidateQuery {
  pageIndex: number;
  pageSize: number;
  groupId?: number;
  ownerId?: number;
  name?: string;
}

/** An enterprise name as customerMatchKey compares it (trimmed, inner spaces single, lower case). */
const nameKey = (column: string) => `lower(regexp_replace(btrim(${column}), '\\s+', ' ', 'g'))`;
/** Whether the owner `u` of a device is the package's customer ($n: customerMatchKey, null for a shared package). */
const customerFitsSql = (param: string) =>
  `(${param}::text IS NULL OR ${nameKey('u.company')} = ${param} OR ${nameKey('u.nickname')} = ${param} OR ${nameKey('u.name')} = ${param})`;

type PackageScope = { deviceType: string; model: string; customer: string };

/**
 * The devices a package can go to: those of its device type and model whose owner is the package's
 * customer, or all of them for a shared package (optionally one group or owner).
 */
export async function listCandidates(db: Queryable, firmware: PackageScope, q: CandidateQuery) {
  const name = q.name?.trim() ? `%${q.name.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await db.query<Record<string, unknown> & { total: number }>(
    `SELECT d.id, d.name, d.device_num AS "deviceNum", d.device_sn AS "deviceSn", d.owner_id AS "ownerId", u.name AS "ownerName",
            m.group_id AS "groupId", g.name AS "groupName", d.activated, d.adu_version AS "aduVersion", d.bdu_version AS "bduVersion",
            (SELECT t.state FROM firmware_rollout_targets t WHERE t.device_id = d.id AND t.state IN ${UNFINISHED_SQL} LIMIT 1) AS "busyState",
            count(*) OVER ()::int AS total
       FROM devices d LEFT JOIN users u ON u.id = d.owner_id
       LEFT JOIN device_group_members m ON m.device_id = d.id LEFT JOIN device_groups g ON g.id = m.group_id
      WHERE d.device_type = $1 AND d.device_model = $2 AND ($3::int IS NULL OR m.group_id = $3) AND ($4::int IS NULL OR d.owner_id = $4)
        AND ($5::text IS NULL OR d.name ILIKE $5 OR d.device_num ILIKE $5 OR d.device_sn ILIKE $5)
        AND ${customerFitsSql('$8')}
      ORDER BY d.id LIMIT $6 OFFSET $7`,
    [
      firmware.deviceType,
      firmware.model,
      q.groupId ?? null,
      q.ownerId ?? null,
      name,
      q.pageSize,
      (q.pageIndex - 1) * q.pageSize,
      customerMatchKey(firmware.customer),
    ],
  );
  return { list: rows.map(({ total: _t, ...r }) => r), total: rows[0]?.total ?? 0 };
}

/** Devices holding a slot that have said nothing for ROLLOUT_STALL_MINUTES fail and free it. */
export async function expireStalled(tx: Queryable, rolloutId: number): Promise<void> {
  await tx.query(
    `UPDATE firmware_rollout_targets SET state = 'failed', message = 'timeout', finished_at = now(), updated_at = now()
      WHERE rollout_id = $1 AND state IN ${ACTIVE_SQL} AND updated_at < now() - make_interval(mins => $2)`,
    [rolloutId, ROLLOUT_STALL_MINUTES],
  );
}

export interface NamedDevice {
  id: number;
  name: string;
  /** Of the package's device type and model. */
  matches: boolean;
  /** Its owner is the package's customer, or the package is shared. */
  customerFits: boolean;
  activated: boolean;
  aduVersion: string | null;
}

/** The named devices that exist: whether each matches the package's type and model and its customer, is activated, and its ADU version. */
export async function namedDevices(db: Queryable, ids: readonly number[], firmware: PackageScope) {
  return db.query<NamedDevice>(
    `SELECT d.id, d.name, (d.device_type = $2 AND d.device_model = $3) AS matches, ${customerFitsSql('$4')} AS "customerFits",
            d.activated, d.adu_version AS "aduVersion"
       FROM devices d LEFT JOIN users u ON u.id = d.owner_id WHERE d.id = ANY($1::int[]) ORDER BY d.id`,
    [ids, firmware.deviceType, firmware.model, customerMatchKey(firmware.customer)],
  );
}

export async function groupExists(db: Queryable, groupId: number) {
  const [group] = await db.query('SELECT id FROM device_groups WHERE id = $1', [groupId]);
  return group !== undefined;
}

/** A group's activated devices of the package's device type and model and of its customer (any, for a shared package). */
export async function groupDevices(db: Queryable, groupId: number, firmware: PackageScope) {
  const rows = await db.query<{ id: number }>(
    `SELECT d.id FROM devices d JOIN device_group_members m ON m.device_id = d.id LEFT JOIN users u ON u.id = d.owner_id
          WHERE m.group_id = $1 AND d.device_type = $2 AND d.device_model = $3 AND d.activated AND ${customerFitsSql('$4')}`,
    [groupId, firmware.deviceType, firmware.model, customerMatchKey(firmware.customer)],
  );
  return rows.map((r) => r.id);
}

/**
 * Starts a rollout in one transaction: `busy` lists the devices already in an unfinished rollout
 * (nothing is written then), else `id` is the new rollout's.
 */
export async function insertRollout(
  db: Db,
  rollout: { firmwareId: number; maxConcurrent: number; groupId: number | null; createdBy: number; deviceIds: readonly number[] },
) {
  return db.transaction(async (tx): Promise<{ busy: number[]; id?: undefined } | { busy?: undefined; id: number }> => {
    const busy = await tx.query<{ id: number }>(
      `SELECT DISTINCT device_id AS id FROM firmware_rollout_targets WHERE device_id = ANY($1::int[]) AND state IN ${UNFINISHED_SQL}`,
      [rollout.deviceIds],
    );
    if (busy.length) return { busy: busy.map((b) => b.id) };
    const [row] = await tx.query<{ id: number }>(
      'INSERT INTO firmware_rollouts (firmware_id, max_concurrent, group_id, created_by) VALUES ($1, $2, $3, $4) RETURNING id',
      [rollout.firmwareId, rollout.maxConcurrent, rollout.groupId, rollout.createdBy],
    );
    await tx.query('INSERT INTO firmware_rollout_targets (rollout_id, device_id) SELECT $1, unnest($2::int[])', [
      row!.id,
      rollout.deviceIds,
    ]);
    return { id: row!.id };
  });
}

/** Cancels a rollout: its queued devices fail with "cancelled". Whether there was such a rollout. */
export async function cancelRollout(db: Db, id: number) {
  return db.transaction(async (tx) => {
    const found = await tx.query('UPDATE firmware_rollouts SET cancelled_at = COALESCE(cancelled_at, now()) WHERE id = $1 RETURNING id', [
      id,
    ]);
    if (found.length) {
      await tx.query(
        `UPDATE firmware_rollout_targets SET state = 'failed', message = 'cancelled', finished_at = now(), updated_at = now() WHERE rollout_id = $1 AND state = 'queued'`,
        [id],
      );
    }
    return found.length > 0;
  });
}

/** The device's next unfinished update of an enabled package, and whether its rollout's slots all look taken (read without the lock). */
export async function waitingUpdate(db: Queryable, deviceId: number) {
  const [waiting] = await db.query<{ rolloutId: number; full: boolean }>(
    `SELECT t.rollout_id AS "rolloutId",
                (SELECT count(*) FROM firmware_rollout_targets a WHERE a.rollout_id = t.rollout_id AND a.state IN ${ACTIVE_SQL}
                   AND a.updated_at >= now() - make_interval(mins => $2)) >= r.max_concurrent AS full
           FROM firmware_rollout_targets t JOIN firmware_rollouts r ON r.id = t.rollout_id JOIN firmware_packages f ON f.id = r.firmware_id
          WHERE t.device_id = $1 AND t.state IN ${UNFINISHED_SQL} AND f.enabled
          ORDER BY (t.state = 'queued'), r.id LIMIT 1`,
    [deviceId, ROLLOUT_STALL_MINUTES],
  );
  return waiting;
}

/** Whether the device's update in this rollout is active (downloading, downloaded or updating). */
export async function updateActive(db: Queryable, rolloutId: number, deviceId: number) {
  const [active] = await db.query(
    `SELECT 1 FROM firmware_rollout_targets WHERE rollout_id = $1 AND device_id = $2 AND state IN ${ACTIVE_SQL}`,
    [rolloutId, deviceId],
  );
  return active !== undefined;
}

export interface Assignment {
  rolloutId: number;
  state: UpdateState;
  progress: number;
  maxConcurrent: number;
  firmwareId: number;
  version: string;
  deviceType: string;
  model: string;
  size: number;
  sha256: string;
}

/**
 * In one transaction: the device's next unfinished update (undefined: none); a queued one claims a
 * slot of its rollout under the rollout's lock (`claimed` false: every slot is taken, it stays queued).
 */
export async function claimUpdate(db: Db, deviceId: number) {
  return db.transaction(async (tx): Promise<{ assignment: Assignment; claimed: boolean } | undefined> => {
    const [a] = await tx.query<Assignment>(
      `SELECT t.rollout_id AS "rolloutId", t.state, t.progress, r.max_concurrent AS "maxConcurrent", f.id AS "firmwareId", f.version,
                  f.device_type AS "deviceType", f.model, f.file_size::float8 AS size, f.sha256
             FROM firmware_rollout_targets t JOIN firmware_rollouts r ON r.id = t.rollout_id JOIN firmware_packages f ON f.id = r.firmware_id
            WHERE t.device_id = $1 AND t.state IN ${UNFINISHED_SQL} AND f.enabled
            ORDER BY (t.state = 'queued'), r.id LIMIT 1`,
      [deviceId],
    );
    if (!a) return undefined;
    if (a.state !== 'queued') return { assignment: a, claimed: true };
    // One claimer at a time per rollout, so the slot count holds under concurrent checks.
    await tx.query('SELECT id FROM firmware_rollouts WHERE id = $1 FOR UPDATE', [a.rolloutId]);
    await expireStalled(tx, a.rolloutId);
    const claimed = await tx.query(
      `UPDATE firmware_rollout_targets SET state = 'downloading', progress = 0, started_at = now(), updated_at = now()
              WHERE rollout_id = $1 AND device_id = $2 AND state = 'queued'
                AND (SELECT count(*) FROM firmware_rollout_targets WHERE rollout_id = $1 AND state IN ${ACTIVE_SQL}) < $3 RETURNING device_id`,
      [a.rolloutId, deviceId, a.maxConcurrent],
    );
    return claimed.length ? { assignment: { ...a, state: 'downloading', progress: 0 }, claimed: true } : { assignment: a, claimed: false };
  });
}

/** The package file of the device's update in this rollout, with the update's state. */
export async function updateFile(db: Queryable, rolloutId: number, deviceId: number) {
  const [row] = await db.query<{ state: UpdateState; key: string; size: number; sha256: string; version: string; model: string }>(
    `SELECT t.state, f.storage_key AS key, f.file_size::float8 AS size, f.sha256, f.version, f.model
           FROM firmware_rollout_targets t JOIN firmware_rollouts r ON r.id = t.rollout_id JOIN firmware_packages f ON f.id = r.firmware_id
          WHERE t.rollout_id = $1 AND t.device_id = $2`,
    [rolloutId, deviceId],
  );
  return row;
}

/** The device's update in this rollout, locked until the transaction ends. */
export async function lockUpdate(tx: Queryable, rolloutId: number, deviceId: number) {
  const [row] = await tx.query<{ state: UpdateState; progress: number }>(
    'SELECT state, progress FROM firmware_rollout_targets WHERE rollout_id = $1 AND device_id = $2 FOR UPDATE',
    [rolloutId, deviceId],
  );
  return row;
}

export async function writeUpdateState(
  tx: Queryable,
  rolloutId: number,
  deviceId: number,
  update: { state: UpdateState; progress: number; message: string | null; finished: boolean },
) {
  await tx.query(
    `UPDATE firmware_rollout_targets SET state = $3, progress = $4, message = $5, updated_at = now(),
                  finished_at = CASE WHEN $6::boolean THEN now() ELSE finished_at END
            WHERE rollout_id = $1 AND device_id = $2`,
    [rolloutId, deviceId, update.state, update.progress, update.message, update.finished],
  );
}
