import type { Queryable } from '../db/connection';
import type { Principal } from '../../src/domain/levels';
import { SCOPE_FIELD, snakeCase, tableFilters, type TableColumn, type TableResource } from '../../src/domain/tableResource';
import { ownedRecordSql, scopeParams, visibleDevicesSql } from '../auth/deviceScope';
import { containsPattern } from '../db/likePattern';

/**
 * The SQL of a declared table resource (docs/extending.md): its rows as the caller may see them,
 * and its writes. Every statement takes the caller as $1..$3 (level, id, enterprise id, as
 * auth/deviceScope.ts does) and its own parameters from $4 on. Table and column names come from
 * declarations, which are checked once when the server starts (tableResources.ts).
 */

type Row = Record<string, unknown>;

export const columnOf = (field: string, spec: TableColumn): string => spec.column ?? snakeCase(field);

/** `FROM ... WHERE <scope>`: the rows the caller sees. */
function scopeOf(r: TableResource, caller: Principal): { from: string; where: string } {
  const field = SCOPE_FIELD[r.scope];
  const owner = field ? `t.${columnOf(field, r.columns[field]!)}` : '';
  if (r.scope === 'vessel') {
    const since = r.since ? ` AND ${ownedRecordSql(`t.${columnOf(r.since, r.columns[r.since]!)}`)}` : '';
    return { from: `${r.table} t JOIN devices d ON d.id = ${owner}`, where: `${visibleDevicesSql(caller)}${since}` };
  }
  if (r.scope === 'enterprise')
    return { from: `${r.table} t`, where: `($1::text = '1' OR ${owner} = $3::int) AND $2::int IS NOT NULL AND $3::int IS NOT NULL` };
  return { from: `${r.table} t`, where: `($1::text IS NOT NULL AND $2::int IS NOT NULL AND $3::int IS NOT NULL)` };
}

/** The columns a read answers; `withSecrets` adds the write-only ones (for the server's own use, never a client's). */
function selectList(r: TableResource, withSecrets = false): string {
  const fields = Object.entries(r.columns)
    .filter(([, spec]) => withSecrets || !spec.writeOnly)
    .map(([field, spec]) => {
      const expr = spec.sql ?? `t.${columnOf(field, spec)}`;
      // A day as its text; a whole number as a JSON number even from a bigint column (ids up to 2^53).
      const cast = spec.sql ? '' : spec.type === 'date' ? '::text' : spec.type === 'integer' ? '::float8' : '';
      return `${expr}${cast} AS "${field}"`;
    });
  return ['t.id::float8 AS id', ...fields].join(', ');
}

/** A row as the API answers it: times in ISO UTC, then the declaration's computed fields. */
function present(r: TableResource, row: Row): Row {
  const out: Row = { ...row };
  for (const [field, spec] of Object.entries(r.columns))
    if (spec.type === 'timestamp' && out[field] != null) out[field] = new Date(out[field] as string).toISOString();
  return r.present ? { ...out, ...r.present(out) } : out;
}

export interface TableListQuery {
  pageIndex: number;
  pageSize: number;
  search?: string;
  sort?: string;
  order?: 'asc' | 'desc';
  filters: Row;
}

/** The WHERE of a list or an export: the scope, the equality filters, the search. */
function listWhere(r: TableResource, caller: Principal, q: Omit<TableListQuery, 'pageIndex' | 'pageSize'>) {
  const params: unknown[] = [...scopeParams(caller)];
  const scope = scopeOf(r, caller);
  const where = [scope.where];
  for (const field of tableFilters(r)) {
    const value = q.filters[field];
    if (value !== undefined && value !== '') where.push(`${expressionOf(r, field)} = $${params.push(value)}`);
  }
  if (q.search && r.search?.length) {
    const at = params.push(containsPattern(q.search));
    where.push(`(${r.search.map((field) => `${expressionOf(r, field)}::text ILIKE $${at}`).join(' OR ')})`);
  }
  const sort = q.sort && (q.sort === 'id' || r.sortable?.includes(q.sort)) ? q.sort : r.sortable?.[0];
  const direction = (q.order ?? r.order ?? 'asc') === 'desc' ? 'DESC' : 'ASC';
  const orderBy = sort && sort !== 'id' ? `${expressionOf(r, sort)} ${direction}, t.id ${direction}` : `t.id ${direction}`;
  return { params, from: scope.from, where: where.join(' AND '), orderBy };
}

const expressionOf = (r: TableResource, field: string): string => {
  if (field === 'id') return 't.id';
  const spec = r.columns[field]!;
  return spec.sql ?? `t.${columnOf(field, spec)}`;
};

/** One page of the rows the caller sees, with the total. */
export async function listTableRows(
  db: Queryable,
  r: TableResource,
  caller: Principal,
  q: TableListQuery,
): Promise<{ list: Row[]; total: number }> {
  const { params, from, where, orderBy } = listWhere(r, caller, q);
  const rows = await db.query<Row & { total: number }>(
    `SELECT ${selectList(r)}, count(*) OVER ()::int AS total FROM ${from} WHERE ${where} ORDER BY ${orderBy}
      LIMIT $${params.push(q.pageSize)} OFFSET $${params.push((q.pageIndex - 1) * q.pageSize)}`,
    params,
  );
  // A page past the end has no row to carry the total: count on the first page instead.
  const total = rows[0]?.total ?? (q.pageIndex > 1 ? (await listTableRows(db, r, caller, { ...q, pageIndex: 1, pageSize: 1 })).total : 0);
  return { list: rows.map(({ total: _total, ...row }) => present(r, row)), total };
}

/** Every row the caller sees with the list's filters, in the list's order, at most `max`. */
export async function exportTableRows(
  db: Queryable,
  r: TableResource,
  caller: Principal,
  q: Omit<TableListQuery, 'pageIndex' | 'pageSize'>,
  max: number,
) {
  const { params, from, where, orderBy } = listWhere(r, caller, q);
  const rows = await db.query<Row>(
    `SELECT ${selectList(r)} FROM ${from} WHERE ${where} ORDER BY ${orderBy} LIMIT $${params.push(max)}`,
    params,
  );
  return rows.map((row) => present(r, row));
}

/**
 * One row the caller sees, or undefined (another enterprise's row included). `withSecrets` reads the
 * write-only columns too, for the server's own use (a contact point's secret, to send with it).
 */
export async function findTableRow(
  db: Queryable,
  r: TableResource,
  caller: Principal,
  id: number,
  { withSecrets = false }: { withSecrets?: boolean } = {},
): Promise<Row | undefined> {
  const { from, where } = scopeOf(r, caller);
  const [row] = await db.query<Row>(`SELECT ${selectList(r, withSecrets)} FROM ${from} WHERE t.id = $4 AND ${where}`, [
    ...scopeParams(caller),
    id,
  ]);
  return row ? present(r, row) : undefined;
}

/** The fields a write sets: every declared column that is not computed. */
const writable = (r: TableResource) => Object.entries(r.columns).filter(([, spec]) => !spec.sql);

const valueOf = (spec: TableColumn, value: unknown) =>
  value === undefined || value === null ? null : spec.type === 'json' ? JSON.stringify(value) : value;

export async function insertTableRow(db: Queryable, r: TableResource, input: Row, userId: number): Promise<number> {
  const fields = writable(r);
  const columns = fields.map(([field, spec]) => columnOf(field, spec));
  const values = fields.map(([field, spec]) => valueOf(spec, input[field]));
  const createdBy = r.createdBy ?? (r.generate === false ? undefined : 'created_by');
  if (createdBy) {
    columns.push(createdBy);
    values.push(userId);
  }
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO ${r.table} (${columns.join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
    values,
  );
  return row!.id;
}

export async function updateTableRow(db: Queryable, r: TableResource, id: number, input: Row): Promise<void> {
  // A secret left empty is kept as stored.
  const fields = writable(r).filter(([field, spec]) => field in input && !(spec.writeOnly && (input[field] ?? '') === ''));
  const values = fields.map(([field, spec]) => valueOf(spec, input[field]));
  const sets = fields.map(([field, spec], i) => `${columnOf(field, spec)} = $${i + 1}`);
  if (r.updatedAt !== false) sets.push('updated_at = now()');
  if (!sets.length) return;
  await db.query(`UPDATE ${r.table} SET ${sets.join(', ')} WHERE id = $${values.length + 1}`, [...values, id]);
}

export async function deleteTableRow(db: Queryable, r: TableResource, id: number): Promise<void> {
  await db.query(`DELETE FROM ${r.table} WHERE id = $1`, [id]);
}

/** A vessel the caller sees (the vessel a vessel-scoped row is written to). */
export async function vesselVisible(db: Queryable, caller: Principal, deviceId: number): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM devices d WHERE d.id = $4 AND ${visibleDevicesSql(caller)}`, [
    ...scopeParams(caller),
    deviceId,
  ]);
  return rows.length > 0;
}
