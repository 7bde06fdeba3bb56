import type { Queryable } from '../../db/connection';
import type { Level } from '../../../src/domain/levels';

export interface OwnerRow {
  id: number;
  name: string;
  permissionLevel: Level;
  parentId: number | null;
}

/** Enterprises and sub-users by id (all of them, or the given ids). */
export async function loadOwners(db: Queryable, ids?: number[]): Promise<Map<number, OwnerRow>> {
  const rows = await db.query<OwnerRow>(
    `SELECT id, name, permission_level AS "permissionLevel", parent_id AS "parentId" FROM users
      WHERE permission_level IN ('2', '3') AND ($1::int[] IS NULL OR id = ANY($1))`,
    [ids ?? null],
  );
  return new Map(rows.map((r) => [r.id, r]));
}
