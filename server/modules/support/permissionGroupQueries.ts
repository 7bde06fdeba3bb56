import type { Db, Queryable } from '../../db/connection';

/** A permission group with its members (docs/requirements.md §3); permissions are stored in grid order. */
const SELECT = `SELECT g.id, g.name, g.description, g.permissions, g.created_at AS "createdAt", g.updated_at AS "updatedAt",
  COALESCE((SELECT json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY u.id)
    FROM permission_group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = g.id), '[]'::json) AS members
  FROM permission_groups g`;

export interface PermissionGroupInput {
  name: string;
  description: string | null;
  permissions: readonly string[];
}

export async function findGroup(db: Queryable, id: number) {
  const [row] = await db.query(`${SELECT} WHERE g.id = $1`, [id]);
  return row;
}

export async function nameTaken(db: Queryable, name: string, exceptId = 0) {
  const rows = await db.query('SELECT 1 FROM permission_groups WHERE lower(name) = lower($1) AND id <> $2', [name, exceptId]);
  return rows.length > 0;
}

/** A page of groups, filtered by part of the name. */
export async function listGroups(db: Queryable, { name, limit, offset }: { name?: string; limit: number; offset: number }) {
  const where = name ? `WHERE g.name ILIKE $1` : '';
  const params: unknown[] = name ? [`%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] : [];
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM permission_groups g ${where}`, params);
  const list = await db.query(`${SELECT} ${where} ORDER BY g.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
    ...params,
    limit,
    offset,
  ]);
  return { list, total: count!.total };
}

/** The new group's id; a taken name throws the unique violation. */
export async function insertGroup(db: Queryable, input: PermissionGroupInput) {
  const [row] = await db.query<{ id: number }>(
    'INSERT INTO permission_groups (name, description, permissions) VALUES ($1, $2, $3::text[]) RETURNING id',
    [input.name, input.description, input.permissions],
  );
  return row!.id;
}

/** A taken name throws the unique violation. */
export async function updateGroup(db: Queryable, id: number, input: PermissionGroupInput) {
  await db.query('UPDATE permission_groups SET name = $2, description = $3, permissions = $4::text[], updated_at = now() WHERE id = $1', [
    id,
    input.name,
    input.description,
    input.permissions,
  ]);
}

/** Whether there was such a group. */
export async function deleteGroup(db: Queryable, id: number) {
  const rows = await db.query('DELETE FROM permission_groups WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}

export async function userExists(db: Queryable, userId: number) {
  const [user] = await db.query('SELECT id FROM users WHERE id = $1', [userId]);
  return user !== undefined;
}

/** How many of these group ids exist. */
export async function countGroups(db: Queryable, ids: readonly number[]) {
  const found = await db.query<{ id: number }>('SELECT id FROM permission_groups WHERE id = ANY($1::int[])', [ids]);
  return found.length;
}

export async function groupsOfUser(db: Queryable, userId: number) {
  const rows = await db.query<{ groupId: number }>(
    'SELECT group_id AS "groupId" FROM permission_group_members WHERE user_id = $1 ORDER BY group_id',
    [userId],
  );
  return rows.map((r) => r.groupId);
}

/** Replaces a user's groups in one transaction. */
export async function setGroupsOfUser(db: Db, userId: number, ids: readonly number[]) {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM permission_group_members WHERE user_id = $1', [userId]);
    if (ids.length) await tx.query('INSERT INTO permission_group_members (user_id, group_id) SELECT $1, unnest($2::int[])', [userId, ids]);
  });
}
