import type { Queryable } from '../../db/connection';
import { Level, type Principal } from '../../../src/domain/levels';
import type { Device } from '../../../src/domain/device';
import type { Page } from '../../../src/domain/user';
import { scopeParams, visibleDevicesSql } from '../../auth/deviceScope';
import { DEVICE_COLUMNS, DEVICE_JOINS } from './deviceQueries';

/** The filters of the device list (getAll) and of its export, as the query string gives them. */
export interface DeviceFilter {
  /** Part of name, device number, SN, MAC, MMSI or call sign. */
  search?: string;
  /** One value or a comma-separated list each. */
  deviceKind?: string;
  deviceType?: string;
  ownerId?: string;
  ownerSubId?: string;
  status?: string;
  activated?: boolean;
  /** -1 the caller's "Special Focus", 0 "Ungrouped Device", else a group id. */
  groupId?: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

export interface DeviceListQuery extends DeviceFilter {
  pageIndex: number;
  pageSize: number;
}

/** Sortable columns, each backed by an index ending in id; anything else sorts by id. */
export const SORT_COLUMNS: Record<string, string> = {
  id: 'd.id',
  name: 'd.name',
  deviceKind: 'd.device_kind',
  deviceType: 'd.device_type',
  status: 'd.status',
  activated: 'd.activated',
  ownerId: 'd.owner_id',
};

/** Past this offset the total is counted first, so a page in the second half is read backwards. */
const REVERSE_FROM_OFFSET = 1000;

/** The caller's scope and every filter; $1..$3 the caller, $4..$16 the filter (filterParams). */
const filterSql = (caller: Principal) => `${visibleDevicesSql(caller)}
  AND ($4::text IS NULL OR d.name ILIKE $4 OR d.device_num ILIKE $4 OR d.device_sn ILIKE $4
       OR d.mac ILIKE $4 OR d.mmsi ILIKE $4 OR d.callsign ILIKE $4)
  AND ($5::text IS NULL OR d.device_kind = $5) AND ($6::text[] IS NULL OR d.device_kind = ANY($6))
  AND ($7::text IS NULL OR d.device_type = $7) AND ($8::text[] IS NULL OR d.device_type = ANY($8))
  AND ($9::int IS NULL OR d.owner_id = $9) AND ($10::int[] IS NULL OR d.owner_id = ANY($10))
  AND ($11::int IS NULL OR d.owner_sub_id = $11) AND ($12::int[] IS NULL OR d.owner_sub_id = ANY($12))
  AND ($13::int IS NULL OR d.status = $13) AND ($14::int[] IS NULL OR d.status = ANY($14))
  AND ($15::boolean IS NULL OR d.activated = $15)
  AND ($16::int IS NULL
       OR ($16 = -1 AND EXISTS (SELECT 1 FROM device_pins fp WHERE fp.user_id = $2::int AND fp.device_id = d.id))
       OR ($16 = 0 AND NOT EXISTS (SELECT 1 FROM device_group_members fm WHERE fm.device_id = d.id))
       OR ($16 > 0 AND EXISTS (SELECT 1 FROM device_group_members fm WHERE fm.device_id = d.id AND fm.group_id = $16)))`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A comma list as [the single value, or null] and [the list of several, or null]: one value keeps index order. */
function oneOrMany<T>(raw: string | undefined, parse: (s: string) => T | undefined): [T | null, T[] | null] {
  const values = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean).map(parse).filter((v): v is T => v !== undefined);
  const unique = [...new Set(values)];
  if (unique.length === 0) return [null, null];
  return unique.length === 1 ? [unique[0]!, null] : [null, unique];
}

const asText = (s: string) => s.slice(0, 64);
const asInt = (s: string) => (/^-?\d{1,9}$/.test(s) ? Number(s) : undefined);

/** The parameters $1.. of FILTER_SQL for a caller and a filter. */
export function filterParams(caller: Principal, f: DeviceFilter): unknown[] {
  const search = f.search?.trim() ? `%${escapeLike(f.search.trim().slice(0, 64))}%` : null;
  return [
    ...scopeParams(caller), search,
    ...oneOrMany(f.deviceKind, asText), ...oneOrMany(f.deviceType, asText),
    ...oneOrMany(f.ownerId, asInt), ...oneOrMany(f.ownerSubId, asInt), ...oneOrMany(f.status, asInt),
    f.activated ?? null, f.groupId ?? null,
  ];
}

function orderBy(f: DeviceFilter, reverse: boolean): string {
  const column = SORT_COLUMNS[f.sort ?? 'id'] ?? 'd.id';
  const descending = (f.order === 'desc') !== reverse;
  const direction = descending ? 'DESC' : 'ASC';
  return column === 'd.id' ? `d.id ${direction}` : `${column} ${direction}, d.id ${direction}`;
}

/**
 * Filters that device_counts can answer (kind, status, activation, owner; an admin's or an
 * enterprise's scope): the total is then a sum over a few summary rows, whatever the fleet size.
 * The other parameters must be null, which the query also states so that every $n is typed.
 */
const SUMMARY_COUNT_SQL = (caller: Principal) => `SELECT COALESCE(sum(d.n), 0)::int AS n FROM device_counts d
  WHERE ${visibleDevicesSql(caller)}
    AND ($5::text IS NULL OR d.device_kind = $5) AND ($6::text[] IS NULL OR d.device_kind = ANY($6))
    AND ($9::int IS NULL OR d.owner_id = $9) AND ($10::int[] IS NULL OR d.owner_id = ANY($10))
    AND ($13::int IS NULL OR d.status = $13) AND ($14::int[] IS NULL OR d.status = ANY($14))
    AND ($15::boolean IS NULL OR d.activated = $15)
    AND $4::text IS NULL AND $7::text IS NULL AND $8::text[] IS NULL AND $11::int IS NULL AND $12::int[] IS NULL AND $16::int IS NULL`;
/** Positions in filterParams of the filters device_counts cannot answer. */
const DETAIL_PARAMS = [3, 6, 7, 10, 11, 15];

export async function countDevices(db: Queryable, caller: Principal, f: DeviceFilter): Promise<number> {
  const params = filterParams(caller, f);
  const summary = caller.permissionLevel !== Level.SubUser && DETAIL_PARAMS.every((i) => params[i] === null);
  const sql = summary ? SUMMARY_COUNT_SQL(caller) : `SELECT count(*)::int AS n FROM devices d WHERE ${filterSql(caller)}`;
  const [row] = await db.query<{ n: number }>(sql, params);
  return row?.n ?? 0;
}

async function readRows(db: Queryable, caller: Principal, f: DeviceFilter, limit: number, offset: number, reverse: boolean): Promise<Device[]> {
  return db.query<Device>(
    `SELECT ${DEVICE_COLUMNS} FROM (
       SELECT d.* FROM devices d WHERE ${filterSql(caller)} ORDER BY ${orderBy(f, reverse)} LIMIT $17 OFFSET $18
     ) d ${DEVICE_JOINS} ORDER BY ${orderBy(f, reverse)}`,
    [...filterParams(caller, f), limit, offset],
  );
}

/**
 * One page and the total. A page in the second half of the list is read from the other end
 * (ORDER BY reversed, OFFSET from the end), so the last page costs what the first one does.
 */
export async function listDevices(db: Queryable, caller: Principal, q: DeviceListQuery): Promise<Page<Device>> {
  const offset = (q.pageIndex - 1) * q.pageSize;
  if (offset < REVERSE_FROM_OFFSET) {
    const [list, total] = await Promise.all([readRows(db, caller, q, q.pageSize, offset, false), countDevices(db, caller, q)]);
    return { list, total };
  }
  const total = await countDevices(db, caller, q);
  if (offset >= total) return { list: [], total };
  if (offset < total / 2) return { list: await readRows(db, caller, q, q.pageSize, offset, false), total };
  const end = Math.min(offset + q.pageSize, total);
  const rows = await readRows(db, caller, q, end - offset, total - end, true);
  return { list: rows.reverse(), total };
}

/** Every matching device in list order, up to a limit (exports). */
export async function allDevices(db: Queryable, caller: Principal, f: DeviceFilter, limit: number): Promise<Device[]> {
  return readRows(db, caller, f, limit, 0, false);
}
