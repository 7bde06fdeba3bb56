import type { Queryable } from '../../db/connection';
import { Level, type Principal } from '../../../src/domain/levels';
import type { Device } from '../../../src/domain/device';
import type { Page } from '../../../src/domain/user';
import { scopeParams, visibleDevicesSql } from '../../auth/deviceScope';
import { DEVICE_COLUMNS, DEVICE_JOINS } from './deviceQueries';
import { containsPattern } from '../../db/likePattern';

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

/** A page of the list; totalEstimated: the total is an estimate (more than exactCountMax matches). */
export interface DevicePage extends Page<Device> {
  totalEstimated?: boolean;
}

export interface DeviceListOptions {
  /** Past this many matches a filter the summary table cannot answer gets an estimated total. */
  exactCountMax: number;
}

export const DEFAULT_EXACT_COUNT_MAX = 1000;

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

/** Past this offset a page with an exact total is read from the nearer end of the list. */
const REVERSE_FROM_OFFSET = 1000;
/** About this many rows are sampled (TABLESAMPLE SYSTEM) to estimate a large total. */
const SAMPLE_ROWS = 1000;
/** Columns `search` looks in; search_text (migration 011) joins them for the trigram index. */
const SEARCHED = ['d.name', 'd.device_num', 'd.device_sn', 'd.mac', 'd.mmsi', 'd.callsign'];

/** A comma list as [the single value, or null] and [the list of several, or null]: one value keeps index order. */
function oneOrMany<T>(raw: string | undefined, parse: (s: string) => T | undefined): [T | null, T[] | null] {
  const values = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parse)
    .filter((v): v is T => v !== undefined);
  const unique = [...new Set(values)];
  if (unique.length === 0) return [null, null];
  return unique.length === 1 ? [unique[0]!, null] : [null, unique];
}

const asText = (s: string) => s.slice(0, 64);
const asInt = (s: string) => (/^-?\d{1,9}$/.test(s) ? Number(s) : undefined);

/**
 * The caller's scope and the filters in use, as SQL conditions on `devices d` with their
 * parameters ($1..$3 the caller, then one per value). Only the filters given appear in the SQL, so
 * each combination is its own prepared statement whose plan can read the one index it needs (an
 * index-only scan for the ids of a page). `summary`: device_counts can count it (kind, status,
 * activation, owner; an admin's or an enterprise's scope), whatever the fleet size.
 */
interface Where {
  sql: string;
  params: unknown[];
  summary: boolean;
  /** The same without the per-column recheck of search (estimates). */
  roughSql: string;
  /**
   * The same without the trigram condition (the columns checked one by one), for a term most
   * devices match: read in list order, a page or a capped count stops after a few rows, where the
   * trigram index would first gather every match (an admin's "vessel 0": 100k matches, 200-400 ms).
   */
  walkSql: string;
  /** A search term the trigram index can answer (3 characters or more). */
  trigram: boolean;
}

function where(caller: Principal, f: DeviceFilter): Where {
  const params: unknown[] = [...scopeParams(caller)];
  const conditions = [visibleDevicesSql(caller)];
  let rough: string | undefined;
  let walk: string | undefined;
  const arg = (value: unknown, type: string) => {
    params.push(value);
    return `$${params.length}::${type}`;
  };
  let summary = caller.permissionLevel !== Level.SubUser;
  const equals = (column: string, [one, many]: [unknown, unknown[] | null], type: string, counted: boolean) => {
    if (one !== null) conditions.push(`${column} = ${arg(one, type)}`);
    else if (many !== null) conditions.push(`${column} = ANY(${arg(many, `${type}[]`)})`);
    else return;
    if (!counted) summary = false;
  };
  const term = f.search?.trim().slice(0, 64);
  if (term) {
    const pattern = arg(containsPattern(term), 'text');
    // Each column as before decides; search_text ILIKE is the same test on their concatenation,
    // answered by the trigram index (a term under 3 characters has no trigram: left to the plan).
    const exact = `(${SEARCHED.map((c) => `${c} ILIKE ${pattern}`).join(' OR ')})`;
    conditions.push(term.length >= 3 ? `d.search_text ILIKE ${pattern} AND ${exact}` : exact);
    rough = term.length >= 3 ? `d.search_text ILIKE ${pattern}` : exact;
    walk = exact;
    summary = false;
  }
  equals('d.device_kind', oneOrMany(f.deviceKind, asText), 'text', true);
  equals('d.device_type', oneOrMany(f.deviceType, asText), 'text', false);
  equals('d.owner_id', oneOrMany(f.ownerId, asInt), 'int', true);
  equals('d.owner_sub_id', oneOrMany(f.ownerSubId, asInt), 'int', false);
  equals('d.status', oneOrMany(f.status, asInt), 'int', true);
  if (f.activated !== undefined && f.activated !== null) conditions.push(`d.activated = ${arg(f.activated, 'boolean')}`);
  if (f.groupId !== undefined && f.groupId !== null) {
    summary = false;
    if (f.groupId === -1) conditions.push('EXISTS (SELECT 1 FROM device_pins fp WHERE fp.user_id = $2::int AND fp.device_id = d.id)');
    else if (f.groupId === 0) conditions.push('NOT EXISTS (SELECT 1 FROM device_group_members fm WHERE fm.device_id = d.id)');
    else if (f.groupId > 0)
      conditions.push(
        `EXISTS (SELECT 1 FROM device_group_members fm WHERE fm.device_id = d.id AND fm.group_id = ${arg(f.groupId, 'int')})`,
      );
    else conditions.push('false');
  }
  const sql = conditions.join('\n  AND ');
  const searchCondition = conditions[1]!;
  return {
    sql,
    params,
    summary,
    trigram: !!term && term.length >= 3,
    roughSql: rough ? sql.replace(searchCondition, rough) : sql,
    walkSql: walk ? sql.replace(searchCondition, walk) : sql,
  };
}

function orderBy(f: DeviceFilter, reverse: boolean): string {
  const column = SORT_COLUMNS[f.sort ?? 'id'] ?? 'd.id';
  const descending = (f.order === 'desc') !== reverse;
  const direction = descending ? 'DESC' : 'ASC';
  return column === 'd.id' ? `d.id ${direction}` : `${column} ${direction}, d.id ${direction}`;
}

/** The exact total from the summary rows of device_counts (only when `w.summary`). */
async function summaryCount(db: Queryable, w: Where): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT COALESCE(sum(d.n), 0)::int AS n FROM device_counts d WHERE ${w.sql}`, w.params);
  return row?.n ?? 0;
}

/** The number of matches, counting no further than `max` (so at most max rows are read). */
async function countUpTo(db: Queryable, w: Where, max: number): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM devices d WHERE ${w.sql} LIMIT $${w.params.length + 1}::int) x`,
    [...w.params, max],
  );
  return row?.n ?? 0;
}

/** Two significant digits: an estimate does not pretend to more. */
const roughly = (n: number) => {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(n, 1))) - 1);
  return Math.round(n / unit) * unit;
};

/** Past this share of sampled devices matching, a search reads the list in order (Where.walkSql). */
const COMMON_SHARE = 0.05;

interface Sample {
  estimate: number;
  share: number;
}

/**
 * An estimate of the number of matches, and the share of devices that match, from a sample of the
 * table's pages (TABLESAMPLE SYSTEM, about SAMPLE_ROWS rows, a fixed seed so that the same data
 * answers the same figure).
 */
async function sampleMatches(db: Queryable, w: Where): Promise<Sample> {
  const [all] = await db.query<{ n: number }>('SELECT COALESCE(sum(n), 0)::int AS n FROM device_counts');
  const rows = all?.n ?? 0;
  const percent = rows > 0 ? Math.min(100, (100 * SAMPLE_ROWS) / rows) : 100;
  const n = w.params.length;
  const [sample] = await db.query<{ sampled: number; matched: number }>(
    `SELECT count(*)::int AS sampled, (count(*) FILTER (WHERE ${w.roughSql}))::int AS matched
       FROM devices d TABLESAMPLE SYSTEM ($${n + 1}::real) REPEATABLE (14)`,
    [...w.params, percent],
  );
  if (!sample?.sampled) return { estimate: 0, share: 0 };
  return { estimate: roughly((sample.matched * rows) / sample.sampled), share: sample.matched / sample.sampled };
}

/** The ids of a slice of the list: only indexed columns are read, never the rows it skips. */
async function readIds(db: Queryable, w: Where, f: DeviceFilter, limit: number, offset: number, reverse: boolean): Promise<number[]> {
  const n = w.params.length;
  const rows = await db.query<{ id: number }>(
    `SELECT d.id FROM devices d WHERE ${w.sql} ORDER BY ${orderBy(f, reverse)} LIMIT $${n + 1}::int OFFSET $${n + 2}::bigint`,
    [...w.params, limit, offset],
  );
  return rows.map((r) => r.id);
}

/** The devices of the given ids, in that order ($2 the caller, for "pinned"). */
async function rowsOf(db: Queryable, caller: Principal, ids: number[]): Promise<Device[]> {
  if (ids.length === 0) return [];
  return db.query<Device>(
    `SELECT ${DEVICE_COLUMNS} FROM unnest($4::int[]) WITH ORDINALITY AS p (id, ord)
       JOIN devices d ON d.id = p.id ${DEVICE_JOINS}
      WHERE $1::text IS NOT NULL AND $3::int IS NOT NULL ORDER BY p.ord`,
    [...scopeParams(caller), ids],
  );
}

/**
 * One page and its total. The ids of the page come from an index (the sort key then id, with the
 * filter's columns), the rows of those ids only are then read and joined.
 * - Filters device_counts answers (kind, status, activation, owner, none): the exact total is a
 *   sum over a few summary rows, and a page in the second half is read from the other end of the
 *   list, so the last page costs what the first one does.
 * - Other filters (search, type, sub-owner, group, a sub-user's scope): the matches are counted up
 *   to exactCountMax; past that, unless the page itself reaches the end of the list, the total is
 *   an estimate from a sample and the answer says so (totalEstimated: true; the console: "about").
 */
export async function listDevices(
  db: Queryable,
  caller: Principal,
  q: DeviceListQuery,
  options: DeviceListOptions = { exactCountMax: DEFAULT_EXACT_COUNT_MAX },
): Promise<DevicePage> {
  const w = where(caller, q);
  const limit = q.pageSize;
  const offset = (q.pageIndex - 1) * limit;
  if (w.summary) {
    if (offset < REVERSE_FROM_OFFSET) {
      const [ids, total] = await Promise.all([readIds(db, w, q, limit, offset, false), summaryCount(db, w)]);
      return { list: await rowsOf(db, caller, ids), total };
    }
    const total = await summaryCount(db, w);
    if (offset >= total) return { list: [], total };
    if (offset < total / 2) return { list: await rowsOf(db, caller, await readIds(db, w, q, limit, offset, false)), total };
    const end = Math.min(offset + limit, total);
    const ids = await readIds(db, w, q, end - offset, total - end, true);
    return { list: await rowsOf(db, caller, ids.reverse()), total };
  }
  const max = Math.max(0, options.exactCountMax);
  // A search most devices match is read in list order: the page and the capped count stop early.
  let sample: Sample | undefined;
  if (w.trigram) {
    sample = await sampleMatches(db, w);
    if (sample.share >= COMMON_SHARE) w.sql = w.walkSql;
  }
  // One id past the page tells whether the list goes on after it.
  const [ids, counted] = await Promise.all([readIds(db, w, q, limit + 1, offset, false), countUpTo(db, w, max + 1)]);
  const page = ids.slice(0, limit);
  if (counted <= max) return { list: await rowsOf(db, caller, page), total: counted };
  if (ids.length <= limit && (ids.length > 0 || offset === 0)) return { list: await rowsOf(db, caller, page), total: offset + ids.length };
  // A page past the end: fewer than offset matches, so counting up to offset is exact.
  if (ids.length === 0) return { list: [], total: await countUpTo(db, w, offset) };
  const { estimate } = sample ?? (await sampleMatches(db, w));
  return { list: await rowsOf(db, caller, page), total: Math.max(estimate, max + 1, offset + limit + 1), totalEstimated: true };
}

/** Every matching device in list order, up to a limit (exports). */
export async function allDevices(db: Queryable, caller: Principal, f: DeviceFilter, limit: number): Promise<Device[]> {
  const w = where(caller, f);
  return db.query<Device>(
    `SELECT ${DEVICE_COLUMNS} FROM (
       SELECT d.* FROM devices d WHERE ${w.sql} ORDER BY ${orderBy(f, false)} LIMIT $${w.params.length + 1}::int
     ) d ${DEVICE_JOINS} ORDER BY ${orderBy(f, false)}`,
    [...w.params, limit],
  );
}
