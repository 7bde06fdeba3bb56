import type { Db, Queryable } from '../../db/connection';
import { UNFINISHED_UPDATE_STATES, type FirmwarePackage, type FirmwareStatus } from '../../../src/domain/firmware';

/** The stored package: what the API returns plus where its file lies. */
export interface FirmwareRow extends FirmwarePackage {
  storageKey: string;
}

export interface FirmwareListQuery {
  pageIndex: number;
  pageSize: number;
  sort?: string;
  order?: 'asc' | 'desc';
  name?: string;
  deviceType?: string;
  model?: string;
  customer?: string;
  versionType?: string;
  enabled?: boolean;
  status?: FirmwareStatus;
}

/** Sortable columns of the list's projection (a whitelist: never user text in SQL); version sorts by its numbers. */
const SORT_COLUMNS: Record<string, string> = {
  id: 'f.id',
  name: 'f."name"',
  version: `string_to_array(substr(f.version, 2), '.')::int[]`,
  deviceType: 'f."deviceType"',
  customer: 'f.customer',
  model: 'f.model',
  versionType: 'f."versionType"',
  enabled: 'f.enabled',
  fileSize: 'f."fileSize"',
  createdAt: 'f."createdAt"',
  status: 'f.status',
};

const UNFINISHED = `('${UNFINISHED_UPDATE_STATES.join("', '")}')`;

const SELECT = `
  SELECT f.id, f.file_name AS "name", f.version, f.device_type AS "deviceType", f.customer, f.model,
         f.version_type AS "versionType", f.enabled, f.update_info AS "updateInfo", f.file_size::float8 AS "fileSize",
         f.sha256, f.storage_key AS "storageKey", f.created_at AS "createdAt", f.updated_at AS "updatedAt",
         s.rollouts, s.targets, s.updated AS "updatedCount", s.failed AS "failedCount", s.unfinished AS "unfinishedCount",
         CASE WHEN s.rollouts = 0 THEN 'none' WHEN s.unfinished > 0 THEN 'rollingOut' ELSE 'finished' END AS status
    FROM firmware_packages f
    CROSS JOIN LATERAL (
      SELECT count(DISTINCT r.id)::int AS rollouts, count(t.device_id)::int AS targets,
             count(*) FILTER (WHERE t.state = 'updated')::int AS updated,
             count(*) FILTER (WHERE t.state = 'failed')::int AS failed,
             count(*) FILTER (WHERE t.state IN ${UNFINISHED})::int AS unfinished
        FROM firmware_rollouts r LEFT JOIN firmware_rollout_targets t ON t.rollout_id = r.id
       WHERE r.firmware_id = f.id) s`;

const FILTER = `
  WHERE ($1::text IS NULL OR f.file_name ILIKE $1 OR f.model ILIKE $1 OR f.version ILIKE $1 OR f.customer ILIKE $1 OR f.device_type ILIKE $1)
    AND ($2::text IS NULL OR f.device_type = $2) AND ($3::text IS NULL OR f.model = $3)
    AND ($4::text IS NULL OR f.customer ILIKE $4) AND ($5::text IS NULL OR f.version_type = $5)
    AND ($6::boolean IS NULL OR f.enabled = $6)`;

const like = (value: string | undefined) => (value?.trim() ? `%${value.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null);

export async function listFirmware(db: Queryable, q: FirmwareListQuery): Promise<{ list: FirmwareRow[]; total: number }> {
  const params = [
    like(q.name),
    q.deviceType || null,
    q.model || null,
    like(q.customer),
    q.versionType || null,
    q.enabled ?? null,
    q.status ?? null,
  ];
  const column = SORT_COLUMNS[q.sort ?? 'id'] ?? 'f.id';
  const direction = q.order === 'asc' ? 'ASC' : 'DESC';
  const rows = await db.query<FirmwareRow & { total: number }>(
    `SELECT *, count(*) OVER ()::int AS total FROM (${SELECT} ${FILTER}) f
      WHERE ($7::text IS NULL OR f.status = $7)
      ORDER BY ${column} ${direction}, f.id ${direction}
      LIMIT $8 OFFSET $9`,
    [...params, q.pageSize, (q.pageIndex - 1) * q.pageSize],
  );
  const total = rows[0]?.total ?? (q.pageIndex > 1 ? await countFirmware(db, params) : 0);
  return { list: rows.map(({ total: _t, ...row }) => row as FirmwareRow), total };
}

async function countFirmware(db: Queryable, params: unknown[]): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (${SELECT} ${FILTER}) f WHERE ($7::text IS NULL OR f.status = $7)`,
    params,
  );
  return row?.n ?? 0;
}

export async function findFirmware(db: Queryable, id: number): Promise<FirmwareRow | null> {
  const [row] = await db.query<FirmwareRow>(`${SELECT} WHERE f.id = $1`, [id]);
  return row ?? null;
}

export async function versionTaken(db: Queryable, model: string, version: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM firmware_packages WHERE model = $1 AND version = $2', [model, version]);
  return rows.length > 0;
}

/** Without the storage key: what the API shows. */
export const publicFirmware = ({ storageKey: _key, ...row }: FirmwareRow) => row;

/** The demo's packages whose storage key still starts with the prefix (no file yet). */
export async function demoPackagesWithoutFile(db: Queryable, keyPrefix: string) {
  return db.query<{ id: number; key: string; size: string }>(
    `SELECT id, storage_key AS key, file_size::text AS size FROM firmware_packages WHERE storage_key LIKE $1 ORDER BY id`,
    [`${keyPrefix}%`],
  );
}

/** Points a package at its stored file, if its key is still `oldKey` (another replica may have won). Whether it did. */
export async function attachPackageFile(db: Queryable, id: number, oldKey: string, file: { key: string; sha256: string; size: number }) {
  const updated = await db.query(
    'UPDATE firmware_packages SET storage_key = $1, sha256 = $2, file_size = $3 WHERE id = $4 AND storage_key = $5 RETURNING id',
    [file.key, file.sha256, file.size, id, oldKey],
  );
  return updated.length > 0;
}

export interface NewFirmwareRow {
  deviceType: string;
  customer: string;
  model: string;
  version: string;
  versionType: string;
  enabled: boolean;
  updateInfo: string | null;
  fileName: string;
  fileSize: number;
  sha256: string;
  storageKey: string;
  uploadedBy: number;
}

/** The new package's id; a model and version already there throws the unique violation. */
export async function insertFirmware(db: Queryable, f: NewFirmwareRow): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO firmware_packages (device_type, customer, model, version, version_type, enabled, update_info,
                                    file_name, file_size, sha256, storage_key, uploaded_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [
      f.deviceType,
      f.customer,
      f.model,
      f.version,
      f.versionType,
      f.enabled,
      f.updateInfo,
      f.fileName,
      f.fileSize,
      f.sha256,
      f.storageKey,
      f.uploadedBy,
    ],
  );
  return row!.id;
}

/** Removes a package row whose file could not be kept. */
export async function deleteFirmwareRow(db: Queryable, id: number) {
  await db.query('DELETE FROM firmware_packages WHERE id = $1', [id]);
}

/** Whether there was such a package. */
export async function updateFirmware(
  db: Queryable,
  f: { id: number; customer: string; versionType: string; enabled: boolean; updateInfo: string | null },
) {
  const rows = await db.query(
    'UPDATE firmware_packages SET customer = $2, version_type = $3, enabled = $4, update_info = $5, updated_at = now() WHERE id = $1 RETURNING id',
    [f.id, f.customer, f.versionType, f.enabled, f.updateInfo],
  );
  return rows.length > 0;
}

/** Whether there was such a package. */
export async function setFirmwareEnabled(db: Queryable, id: number, enabled: boolean) {
  const rows = await db.query('UPDATE firmware_packages SET enabled = $2, updated_at = now() WHERE id = $1 RETURNING id', [id, enabled]);
  return rows.length > 0;
}

/**
 * Deletes a package (its rollouts go with it) in one transaction; `beforeCommit` is given its
 * storage key before the commit, and a throw there rolls the delete back. The key, or undefined
 * when there was no such package.
 */
export async function deleteFirmware(db: Db, id: number, beforeCommit: (key: string) => Promise<void>): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ key: string }>('DELETE FROM firmware_packages WHERE id = $1 RETURNING storage_key AS key', [id]);
    if (row) await beforeCommit(row.key);
    return row?.key;
  });
}

/** Which of these storage keys belong to a package, their rows locked until the transaction ends. */
export async function lockStoredKeys(tx: Queryable, keys: readonly string[]): Promise<string[]> {
  const rows = await tx.query<{ key: string }>(
    'SELECT storage_key AS key FROM firmware_packages WHERE storage_key = ANY($1::text[]) ORDER BY id FOR UPDATE',
    [keys],
  );
  return rows.map((r) => r.key);
}
