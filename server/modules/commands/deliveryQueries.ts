import type { Queryable } from '../../db/connection';
import type { CommandPayload } from '../../../src/domain/commands';

/** The SQL of command delivery (delivery.ts): claims, requeues, acks and the deadline sweep. */

export type ClaimedCommand = CommandPayload & { deadline: Date | string; deviceNum: string };

/** Commands the broker did not take go back to queued for the device's next connect. */
export async function requeueCommands(db: Queryable, ids: readonly number[]): Promise<void> {
  await db.query(`UPDATE device_commands SET state = 'queued', sent_at = NULL WHERE id = ANY($1::int[]) AND state = 'sent'`, [ids]);
}

/** Claims (queued -> sent, one conditional UPDATE) the queued commands of these devices that are before their deadline. */
export function claimQueuedCommands(db: Queryable, deviceNums: readonly string[]): Promise<ClaimedCommand[]> {
  return db.query<ClaimedCommand>(
    `UPDATE device_commands c SET state = 'sent', sent_at = now()
       FROM devices d
      WHERE d.device_num = ANY($1::text[]) AND c.device_id = d.id AND c.state = 'queued' AND c.deadline > now()
      RETURNING c.id, c.kind, c.params, c.deadline, d.device_num AS "deviceNum"`,
    [deviceNums],
  );
}

/** Every command still "sent" and before its deadline queued again; answers how many. */
export async function requeueSentCommands(db: Queryable): Promise<number> {
  const rows = await db.query(
    `UPDATE device_commands SET state = 'queued', sent_at = NULL WHERE state = 'sent' AND deadline > now() RETURNING id`,
  );
  return rows.length;
}

/** Closes a sent (or still queued) command of that very device before its deadline; answers whether one changed. */
export async function closeCommand(
  db: Queryable,
  deviceNum: string,
  id: number,
  ok: boolean,
  message: string | null,
  result: string | null,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE device_commands c SET state = CASE WHEN $3::boolean THEN 'acknowledged' ELSE 'failed' END,
            acked_at = now(), message = $4, result = $5::jsonb
       FROM devices d
      WHERE c.id = $2 AND d.id = c.device_id AND d.device_num = $1 AND c.state IN ('sent', 'queued') AND c.deadline > now()
      RETURNING c.id`,
    [deviceNum, id, ok, message, result],
  );
  return rows.length > 0;
}

/** Open commands past their deadline become expired; answers how many. */
export async function expireOverdueCommands(db: Queryable): Promise<number> {
  const rows = await db.query(
    `UPDATE device_commands SET state = 'expired'
      WHERE state IN ('queued', 'sent') AND deadline <= now() RETURNING id`,
  );
  return rows.length;
}

/**
 * The reboots these devices acknowledged before they connected again (at the time given for each)
 * are over: done, at done_at. Answers how many.
 */
export async function completeReboots(db: Queryable, deviceNums: readonly string[], connectedAt: readonly Date[]): Promise<number> {
  const rows = await db.query(
    `UPDATE device_commands c SET state = 'done', done_at = now()
       FROM devices d, unnest($1::text[], $2::timestamptz[]) AS back(num, at)
      WHERE d.device_num = back.num AND c.device_id = d.id AND c.state = 'acknowledged' AND c.kind = 'reboot' AND c.acked_at < back.at
      RETURNING c.id`,
    [deviceNums, connectedAt.map((t) => t.toISOString())],
  );
  return rows.length;
}

/** Reboots whose vessel is not back this many minutes after its ack fail (result.reason notBack); answers how many. */
export async function failLostReboots(db: Queryable, withinMinutes: number): Promise<number> {
  const rows = await db.query(
    `UPDATE device_commands SET state = 'failed', result = coalesce(result, '{}'::jsonb) || '{"reason":"notBack"}'::jsonb
      WHERE state = 'acknowledged' AND kind = 'reboot' AND acked_at <= now() - make_interval(mins => $1) RETURNING id`,
    [withinMinutes],
  );
  return rows.length;
}
