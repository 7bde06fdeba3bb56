import type { Queryable } from '../../db/connection';
import { voyageStatusOf } from '../../../src/domain/vesselSchemas';

const VOYAGE_COLUMNS = `v.id, v.device_id AS "deviceId", d.name AS "deviceName", v.voyage_no AS "voyageNo", v.destination,
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
