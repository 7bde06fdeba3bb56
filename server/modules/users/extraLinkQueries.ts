import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import { VISIBLE_USERS_SQL, visibleUsersParams } from '../../auth/userScope';

const LINK_COLUMNS = `l.user_id AS "userId", u.name AS "userName", l.content, l.created_at AS "createdAt", l.updated_at AS "updatedAt"`;

/** A user's extra link, or undefined when it has none. */
export async function findExtraLink(db: Queryable, userId: number) {
  const [row] = await db.query(`SELECT ${LINK_COLUMNS} FROM extra_links l JOIN users u ON u.id = l.user_id WHERE l.user_id = $1`, [userId]);
  return row;
}

/** The extra links of every user the caller sees, by user name. */
export async function visibleExtraLinks(db: Queryable, caller: Principal) {
  return db.query(
    `SELECT ${LINK_COLUMNS} FROM extra_links l JOIN users u ON u.id = l.user_id WHERE ${VISIBLE_USERS_SQL} ORDER BY u.name`,
    visibleUsersParams(caller),
  );
}

/** Creates or replaces a user's extra link. */
export async function saveExtraLink(db: Queryable, userId: number, content: string) {
  await db.query(
    `INSERT INTO extra_links (user_id, content) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET content = EXCLUDED.content, updated_at = now()`,
    [userId, content],
  );
}
