import type { Queryable } from '../db/connection';

/** The permissions of each permission group the user is a member of (none: the user is in no group). */
export async function readGroupPermissions(db: Queryable, userId: number): Promise<string[][]> {
  const rows = await db.query<{ permissions: string[] }>(
    `SELECT g.permissions FROM permission_group_members m JOIN permission_groups g ON g.id = m.group_id WHERE m.user_id = $1`,
    [userId],
  );
  return rows.map((r) => r.permissions);
}
