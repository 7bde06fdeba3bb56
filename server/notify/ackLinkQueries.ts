import type { Queryable } from '../db/connection';

/** The SQL of acknowledge links (docs/api.md, "Notifications"): the server's signing secret, a link's target, its single use. */

/** The server's secret of this name, made once (the first replica's wins). */
export async function serverSecret(db: Queryable, name: string, fresh: string): Promise<string> {
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, fresh]);
  const [row] = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  return row!.value;
}

export interface AckTarget {
  notificationId: number;
  ackUsedAt: Date | null;
  alarmId: number;
  code: string;
  ackedAt: Date | null;
  deviceName: string;
  language: string;
  userId: number | null;
  userName: string | null;
  userLevel: string | null;
  enterpriseId: number | null;
}

/** A notification's alarm and the user its acknowledgement is recorded as: the user told, or who set up the contact point. */
export const ackTarget = async (db: Queryable, id: number): Promise<AckTarget | null> =>
  (
    await db.query<AckTarget>(
      `SELECT n.id::int AS "notificationId", n.ack_used_at AS "ackUsedAt", a.id::int AS "alarmId", a.code, a.acked_at AS "ackedAt",
              d.name AS "deviceName", COALESCE(c.language, u.language, 'zh') AS language, u.id AS "userId", u.name AS "userName",
              u.permission_level AS "userLevel", COALESCE(u.parent_id, u.id) AS "enterpriseId"
         FROM notifications n JOIN alarms a ON a.id = n.alarm_id JOIN devices d ON d.id = a.device_id
         LEFT JOIN contact_points c ON c.id = n.contact_point_id LEFT JOIN users u ON u.id = COALESCE(n.user_id, c.created_by)
        WHERE n.id = $1`,
      [id],
    )
  )[0] ?? null;

/** Uses the link (once) and acknowledges the alarm as the user, in one statement each, in the caller's transaction. */
export async function useAckLink(tx: Queryable, notificationId: number, alarmId: number, userId: number): Promise<boolean> {
  const used = await tx.query('UPDATE notifications SET ack_used_at = now() WHERE id = $1 AND ack_used_at IS NULL RETURNING id', [
    notificationId,
  ]);
  if (!used.length) return false;
  await tx.query('UPDATE alarms SET acked_by = $2, acked_at = now() WHERE id = $1 AND acked_at IS NULL', [alarmId, userId]);
  return true;
}
