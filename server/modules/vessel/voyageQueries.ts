import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import type { VoyageInput } from '../../../src/domain/vesselSchemas';
import { voyageStatusOf } from '../../../src/domain/vesselSchemas';
import { scopeParams, visibleDevicesSql } from '../../auth/deviceScope';

export const VOYAGE_COLUMNS = `v.id, v.device_id AS "deviceId", d.name AS "deviceName", v.voyage_no AS "voyageNo", v.destination,
  v.etd, v.eta, v.agent, v.email, v.phone, v.remark, v.created_at AS "createdAt", v.updated_at AS "updatedAt"`;

export interface VoyageRow {
  id: number;
  deviceId: number;
  deviceName: string;
  voyageNo: string;
  destination: string;
  etd: string | Date;
  eta: string | Date;
  agent: string;
  email: string | null;
  phone: string | null;
  remark: string | null;
}

const iso = (v: string | Date) => new Date(v).toISOString();
/** A voyage as the API returns it: times in ISO UTC and its status as of now. */
export const present = (v: VoyageRow) => ({ ...v, etd: iso(v.etd), eta: iso(v.eta), status: voyageStatusOf(iso(v.etd), iso(v.eta)) });

/**
 * The current voyage of a vessel: the one not yet arrived (eta ahead) with the earliest etd, that
 * is the voyage under way, else the next planned one; when every voyage has arrived, the last
 * one by etd (status "arrived"); null without any voyage.
 */
export async function currentVoyage(db: Queryable, deviceId: number) {
  const [row] = await db.query<VoyageRow>(
    `SELECT ${VOYAGE_COLUMNS} FROM voyages v JOIN devices d ON d.id = v.device_id WHERE v.device_id = $1
      ORDER BY (v.eta >= now()) DESC, CASE WHEN v.eta >= now() THEN v.etd END ASC, v.etd DESC, v.id DESC LIMIT 1`,
    [deviceId],
  );
  return row ? present(row) : null;
}

export async function findVisibleVoyage(db: Queryable, caller: Principal, id: number) {
  const [row] = await db.query<VoyageRow>(
    `SELECT ${VOYAGE_COLUMNS} FROM voyages v JOIN devices d ON d.id = v.device_id WHERE v.id = $4 AND ${visibleDevicesSql(caller)}`,
    [...scopeParams(caller), id],
  );
  return row ? present(row) : undefined;
}

export interface VoyageListQuery {
  pageIndex: number;
  pageSize: number;
  deviceId?: number;
  search?: string;
  order?: 'asc' | 'desc';
}

/** Visible voyages, newest etd first (or oldest with order=asc), of one vessel or all. */
export async function listVoyages(db: Queryable, caller: Principal, q: VoyageListQuery) {
  const params: unknown[] = [...scopeParams(caller)];
  const where = [visibleDevicesSql(caller)];
  if (q.deviceId) where.push(`v.device_id = $${params.push(q.deviceId)}`);
  if (q.search)
    where.push(
      `(v.voyage_no ILIKE $${params.push(`%${q.search}%`)} OR v.destination ILIKE $${params.length} OR v.agent ILIKE $${params.length})`,
    );
  const direction = q.order === 'asc' ? 'ASC' : 'DESC';
  const rows = await db.query<VoyageRow & { total: number }>(
    `SELECT ${VOYAGE_COLUMNS}, count(*) OVER ()::int AS total FROM voyages v JOIN devices d ON d.id = v.device_id
      WHERE ${where.join(' AND ')} ORDER BY v.etd ${direction}, v.id ${direction}
      LIMIT $${params.push(q.pageSize)} OFFSET $${params.push((q.pageIndex - 1) * q.pageSize)}`,
    params,
  );
  return { list: rows.map(({ total: _total, ...r }) => present(r)), total: rows[0]?.total ?? (await countVoyages(db, caller, q)) };
}

async function countVoyages(db: Queryable, caller: Principal, q: VoyageListQuery): Promise<number> {
  if (q.pageIndex === 1) return 0;
  const { total } = await listVoyages(db, caller, { ...q, pageIndex: 1, pageSize: 1 });
  return total;
}

const values = (v: VoyageInput) => [
  v.deviceId,
  v.voyageNo,
  v.destination,
  v.etd,
  v.eta,
  v.agent,
  v.email ?? null,
  v.phone ?? null,
  v.remark ?? null,
];

export async function insertVoyage(db: Queryable, v: VoyageInput, userId: number): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO voyages (device_id, voyage_no, destination, etd, eta, agent, email, phone, remark, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [...values(v), userId],
  );
  return row!.id;
}

export async function updateVoyage(db: Queryable, id: number, v: VoyageInput): Promise<void> {
  await db.query(
    `UPDATE voyages SET device_id = $1, voyage_no = $2, destination = $3, etd = $4, eta = $5, agent = $6, email = $7, phone = $8,
            remark = $9, updated_at = now() WHERE id = $10`,
    [...values(v), id],
  );
}

export async function deleteVoyage(db: Queryable, id: number): Promise<void> {
  await db.query('DELETE FROM voyages WHERE id = $1', [id]);
}
