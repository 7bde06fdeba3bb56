import type { Queryable } from '../../db/connection';

export interface QuietHours {
  quietFrom: string | null;
  quietTo: string | null;
}

export const quietHoursOf = async (db: Queryable, userId: number): Promise<QuietHours> =>
  (await db.query<QuietHours>('SELECT quiet_from AS "quietFrom", quiet_to AS "quietTo" FROM users WHERE id = $1', [userId]))[0] ?? {
    quietFrom: null,
    quietTo: null,
  };

export const setQuietHours = (db: Queryable, userId: number, q: QuietHours) =>
  db.query('UPDATE users SET quiet_from = $2, quiet_to = $3 WHERE id = $1', [userId, q.quietFrom, q.quietTo]);
