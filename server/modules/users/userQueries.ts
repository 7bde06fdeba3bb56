import type { Db, Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import type { User, NameItem, Page } from '../../../src/domain/user';
import { USER_COLUMNS } from './userColumns';
import { LISTED_USERS_SQL, VISIBLE_USERS_SQL, visibleUsersParams, type TargetUser } from '../../auth/userScope';

/** Sortable columns of the user list; anything else falls back to id. */
const SORT_COLUMNS: Record<string, string> = {
  id: 'u.id',
  name: 'u.name',
  nickname: 'u.nickname',
  permissionLevel: 'u.permission_level',
  createdAt: 'u.created_at',
};

export interface UserListQuery {
  pageIndex: number;
  pageSize: number;
  name?: string;
  permissionLevel?: string;
  parentId?: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

const LIST_FILTER_SQL = `${LISTED_USERS_SQL}
  AND ($3::text IS NULL OR u.name ILIKE '%' || $3 || '%' OR u.nickname ILIKE '%' || $3 || '%' OR u.company ILIKE '%' || $3 || '%')
  AND ($4::text IS NULL OR u.permission_level = $4)
  AND ($5::int IS NULL OR u.parent_id = $5)`;

/** One page of the users a caller may manage, and their count (two small queries, side by side). */
export async function listUsers(db: Queryable, caller: Principal, q: UserListQuery): Promise<Page<User & { parentName: string | null }>> {
  const sortColumn = SORT_COLUMNS[q.sort ?? 'id'] ?? 'u.id';
  const direction = q.order === 'desc' ? 'DESC' : 'ASC';
  const filter = [...visibleUsersParams(caller), q.name || null, q.permissionLevel || null, q.parentId ?? null];
  const [list, [count]] = await Promise.all([
    db.query<User & { parentName: string | null }>(
      `SELECT ${USER_COLUMNS} FROM users u LEFT JOIN users p ON p.id = u.parent_id
        WHERE ${LIST_FILTER_SQL}
        ORDER BY ${sortColumn} ${direction}, u.id ${direction}
        LIMIT $6 OFFSET $7`,
      [...filter, q.pageSize, (q.pageIndex - 1) * q.pageSize],
    ),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users u WHERE ${LIST_FILTER_SQL}`, filter),
  ]);
  return { list, total: count?.n ?? 0 };
}

export async function findUser(db: Queryable, id: number): Promise<(User & { parentName: string | null }) | undefined> {
  const [row] = await db.query<User & { parentName: string | null }>(
    `SELECT ${USER_COLUMNS} FROM users u LEFT JOIN users p ON p.id = u.parent_id WHERE u.id = $1`,
    [id],
  );
  return row;
}

export async function findTarget(db: Queryable, id: number): Promise<TargetUser | undefined> {
  const [row] = await db.query<TargetUser>(
    `SELECT id, permission_level AS "permissionLevel", parent_id AS "parentId" FROM users WHERE id = $1`,
    [id],
  );
  return row;
}

export async function findCredentials(db: Queryable, name: string) {
  const [row] = await db.query<{ id: number; passwordHash: string }>(
    `SELECT id, password_hash AS "passwordHash" FROM users WHERE name = $1`,
    [name],
  );
  return row;
}

/** The language and UTC offset (hours) the user's console uses: its notifications follow them. */
export async function recordReaderSettings(db: Queryable, id: number, language: string, offsetHours: number | null): Promise<void> {
  await db.query('UPDATE users SET language = $2, time_zone_offset = COALESCE($3, time_zone_offset) WHERE id = $1', [
    id,
    language,
    offsetHours,
  ]);
}

export async function nameTaken(db: Queryable, name: string, exceptId = 0): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM users WHERE name = $1 AND id <> $2', [name, exceptId]);
  return rows.length > 0;
}

/** id and name of the visible users of one level, for selectors. */
export async function nameList(
  db: Queryable,
  caller: Principal,
  level: string,
  filter: { name?: string; limit?: number; offset?: number } = {},
): Promise<Page<NameItem>> {
  const rows = await db.query<NameItem & { total: number }>(
    `SELECT u.id, u.name, count(*) OVER ()::int AS total FROM users u
      WHERE ${VISIBLE_USERS_SQL} AND u.permission_level = $3
        AND ($4::text IS NULL OR u.name ILIKE '%' || $4 || '%')
      ORDER BY u.name LIMIT $5 OFFSET $6`,
    [...visibleUsersParams(caller), level, filter.name || null, filter.limit ?? 10_000, filter.offset ?? 0],
  );
  return { list: rows.map(({ id, name }) => ({ id, name })), total: rows[0]?.total ?? 0 };
}

/** Enterprises with their sub-users, for tree selectors. */
export async function enterprisesWithSubUsers(db: Queryable, caller: Principal) {
  const rows = await db.query<{ id: number; name: string; parentId: number | null }>(
    `SELECT u.id, u.name, u.parent_id AS "parentId" FROM users u
      WHERE (${VISIBLE_USERS_SQL} OR u.id = (SELECT parent_id FROM users WHERE id = $2))
        AND u.permission_level IN ('2', '3')
      ORDER BY u.name`,
    visibleUsersParams(caller),
  );
  const enterprises = rows.filter((r) => r.parentId === null).map((r) => ({ id: r.id, name: r.name, children: [] as NameItem[] }));
  const byId = new Map(enterprises.map((e) => [e.id, e]));
  for (const r of rows) if (r.parentId !== null) byId.get(r.parentId)?.children.push({ id: r.id, name: r.name });
  return enterprises;
}

export interface NewUserRow {
  name: string;
  nickname: string | null;
  passwordHash: string;
  permissionLevel: string;
  parentId: number | null;
  department: string | null;
  sex: string | null;
  email: string | null;
  signature: string | null;
  company: string | null;
  userType: string | null;
}

/** The new user's id. */
export async function insertUser(db: Queryable, u: NewUserRow): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO users (name, nickname, password_hash, permission_level, parent_id, department, sex, email, signature, company, user_type)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [u.name, u.nickname, u.passwordHash, u.permissionLevel, u.parentId, u.department, u.sex, u.email, u.signature, u.company, u.userType],
  );
  return row!.id;
}

export interface UserProfileRow {
  name: string | null;
  nickname: string | null;
  department: string | null;
  sex: string | null;
  email: string | null;
  signature: string | null;
  company: string | null;
  userType: string | null;
  parentId: number | null;
}

/** Writes a user's profile fields and parent (every one: the caller merges what was not sent). */
export async function updateUserProfile(db: Queryable, id: number, u: UserProfileRow) {
  await db.query(
    `UPDATE users SET name = $2, nickname = $3, department = $4, sex = $5, email = $6, signature = $7,
            company = $8, user_type = $9, parent_id = $10, updated_at = now()
      WHERE id = $1`,
    [id, u.name, u.nickname, u.department, u.sex, u.email, u.signature, u.company, u.userType, u.parentId],
  );
}

/** Deletes a user and its sessions in one transaction; a user with sub-users is kept (false). */
export async function deleteUserWithSessions(db: Db, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [child] = await tx.query('SELECT 1 FROM users WHERE parent_id = $1 LIMIT 1', [id]);
    if (child) return false;
    await tx.query('DELETE FROM sessions WHERE user_id = $1', [id]);
    await tx.query('DELETE FROM users WHERE id = $1', [id]);
    return true;
  });
}

export async function setPasswordHash(db: Queryable, id: number, passwordHash: string) {
  await db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [id, passwordHash]);
}
