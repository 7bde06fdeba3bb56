import type { Queryable } from '../../db/connection';
import type { SessionUser } from '../../auth/sessionUser';
import { Level } from '../../../src/domain/levels';
import { auditWordKey } from '../../../src/domain/auditChanges';
import { auditWordsEn } from '../../../src/domain/auditWordsEn';
import { auditWordsZh } from '../../../src/domain/auditWordsZh';

const isDay = (value: string) => value.length === 10;

const ENTITY_KEY = auditWordKey('entity', '');
/**
 * The recorded entity names an audit log filter's text names: the text as recorded ('deviceGroup',
 * or a declared resource's name), and each entity whose name in either language is that text, case
 * aside ("Device group", "设备分组"), so people filter by the names the list shows them.
 */
function auditEntitiesNamed(text: string): string[] {
  const wanted = text.trim().toLowerCase();
  const named = (Object.keys(auditWordsEn) as (keyof typeof auditWordsZh)[])
    .filter((key) => key.startsWith(ENTITY_KEY) && [auditWordsEn, auditWordsZh].some((words) => words[key].toLowerCase() === wanted))
    .map((key) => key.slice(ENTITY_KEY.length));
  return [...new Set([text, ...named])];
}

export interface AuditFilter {
  userName?: string;
  entity?: string;
  entityId?: string;
  from?: string;
  to?: string;
}
export interface AuditEntry {
  id: number;
  at: string;
  userId: number | null;
  userName: string;
  userLevel: string;
  address: string;
  method: string;
  route: string;
  entity: string;
  entityId: string | null;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** Level 1 reads every entry; level 2 the entries made by its enterprise (itself and its sub-users). Times are checked by the caller. */
export function listAudit(
  db: Queryable,
  caller: Pick<SessionUser, 'id' | 'permissionLevel'>,
  filter: AuditFilter,
  limit: number,
  offset: number,
) {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (caller.permissionLevel !== Level.Admin) add('enterprise_id = ?', caller.id);
  if (filter.userName) add(`user_name ILIKE '%' || ? || '%'`, filter.userName.replace(/[\\%_]/g, '\\$&'));
  if (filter.entity) add('entity = ANY(?::text[])', auditEntitiesNamed(filter.entity));
  if (filter.entityId) add('entity_id = ?', filter.entityId);
  if (filter.from) add(isDay(filter.from) ? `at >= (?::date)::timestamp AT TIME ZONE 'UTC'` : 'at >= ?::timestamptz', filter.from);
  if (filter.to) add(isDay(filter.to) ? `at < (?::date + 1)::timestamp AT TIME ZONE 'UTC'` : 'at < ?::timestamptz', filter.to);
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  return Promise.all([
    db.query<AuditEntry>(
      `SELECT id::int, at, user_id AS "userId", user_name AS "userName", user_level AS "userLevel", address, method, route, entity,
              entity_id AS "entityId", action, before, after
         FROM audit_log ${clause} ORDER BY at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM audit_log ${clause}`, params),
  ]).then(([list, [count]]) => ({ list, total: count?.total ?? 0 }));
}

/** One row of an audited table, by its key column (`id` unless named); table and column come from the recorder's own list. */
export async function readAuditedRow(db: Queryable, table: string, key: string, id: number) {
  const [row] = await db.query<Record<string, unknown>>(`SELECT * FROM ${table} WHERE ${key} = $1`, [id]);
  return row;
}

export interface AuditRecord {
  userId: number;
  userName: string;
  userLevel: SessionUser['permissionLevel'];
  enterpriseId: number | null;
  address: string;
  method: string;
  route: string;
  entity: string;
  entityId: string | null;
  action: string;
  before: unknown;
  after: unknown;
}

/** Writes one audit entry; before and after are stored as JSON (null stays null). */
export async function insertAuditEntry(db: Queryable, e: AuditRecord) {
  await db.query(
    `INSERT INTO audit_log (user_id, user_name, user_level, enterprise_id, address, method, route, entity, entity_id, action, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      e.userId,
      e.userName,
      e.userLevel,
      e.enterpriseId,
      e.address,
      e.method,
      e.route,
      e.entity,
      e.entityId,
      e.action,
      e.before === null ? null : JSON.stringify(e.before),
      e.after === null ? null : JSON.stringify(e.after),
    ],
  );
}
