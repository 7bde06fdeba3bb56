import type { Queryable } from '../../db/connection';
import { Level, type Principal } from '../../../src/domain/levels';
import type { CommandKind, CommandState, DeviceCommand } from '../../../src/domain/commands';
import { ownedRecordSql, scopeParams, visibleDevicesSql } from '../../auth/deviceScope';

export const COMMAND_COLUMNS = `c.id, c.device_id AS "deviceId", d.name AS "deviceName", d.device_num AS "deviceNum", c.kind, c.params, c.state,
  c.created_by AS "createdBy", u.name AS "createdByName", c.created_at AS "createdAt", c.sent_at AS "sentAt", c.acked_at AS "ackedAt",
  c.done_at AS "doneAt", c.deadline, c.message, c.result`;
const COMMAND_FROM = `device_commands c JOIN devices d ON d.id = c.device_id LEFT JOIN users u ON u.id = c.created_by`;

type CommandRow = Omit<DeviceCommand, 'createdAt' | 'sentAt' | 'ackedAt' | 'doneAt' | 'deadline'> & {
  createdAt: Date | string;
  sentAt: Date | string | null;
  ackedAt: Date | string | null;
  doneAt: Date | string | null;
  deadline: Date | string;
};
const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
/** A command as the API returns it: times in ISO UTC. */
export const present = (r: CommandRow): DeviceCommand => ({
  ...r,
  createdAt: iso(r.createdAt)!,
  sentAt: iso(r.sentAt),
  ackedAt: iso(r.ackedAt),
  doneAt: iso(r.doneAt),
  deadline: iso(r.deadline)!,
});

/** A command is the caller's when its vessel is and it was made since the vessel came to the caller's enterprise (docs/requirements.md §6). */
const COMMAND_OWNED = ownedRecordSql('c.created_at');

export async function findVisibleCommand(db: Queryable, caller: Principal, id: number): Promise<DeviceCommand | undefined> {
  const [row] = await db.query<CommandRow>(
    `SELECT ${COMMAND_COLUMNS} FROM ${COMMAND_FROM} WHERE c.id = $4 AND ${visibleDevicesSql(caller)} AND ${COMMAND_OWNED}`,
    [...scopeParams(caller), id],
  );
  return row ? present(row) : undefined;
}

export interface CommandListQuery {
  pageIndex: number;
  pageSize: number;
  deviceId?: number;
  state?: CommandState;
  kind?: CommandKind;
  order?: 'asc' | 'desc';
}

/** The caller's visible vessels' commands, newest first: one vessel's (deviceId) or the fleet's, by state and kind. */
export async function listCommands(
  db: Queryable,
  caller: Principal,
  q: CommandListQuery,
): Promise<{ list: DeviceCommand[]; total: number }> {
  const params: unknown[] = [...scopeParams(caller)];
  const where = [visibleDevicesSql(caller), COMMAND_OWNED];
  if (q.deviceId) where.push(`c.device_id = $${params.push(q.deviceId)}`);
  if (q.state) where.push(`c.state = $${params.push(q.state)}`);
  if (q.kind) where.push(`c.kind = $${params.push(q.kind)}`);
  const direction = q.order === 'asc' ? 'ASC' : 'DESC';
  const filter = where.join(' AND ');
  const rows = await db.query<CommandRow>(
    `SELECT ${COMMAND_COLUMNS} FROM ${COMMAND_FROM} WHERE ${filter} ORDER BY c.id ${direction}
      LIMIT $${params.push(q.pageSize)} OFFSET $${params.push((q.pageIndex - 1) * q.pageSize)}`,
    params,
  );
  // The count is a second query over the same filter (no window over the page's wide rows).
  const total =
    q.pageIndex === 1 && rows.length < q.pageSize
      ? rows.length
      : (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM device_commands c JOIN devices d ON d.id = c.device_id WHERE ${filter}`,
            params.slice(0, -2),
          )
        )[0]!.n;
  return { list: rows.map(present), total };
}

/**
 * Whether the caller may send commands to a vessel it sees: levels 1 and 2 always; a sub-user
 * only where its enterprise granted it the vessel with can_command (sub_user_grants).
 */
export async function maySendTo(db: Queryable, caller: Principal, deviceId: number): Promise<boolean> {
  if (caller.permissionLevel === Level.Admin || caller.permissionLevel === Level.Enterprise) return true;
  if (caller.permissionLevel !== Level.SubUser) return false;
  const rows = await db.query('SELECT 1 FROM sub_user_grants WHERE sub_user_id = $1 AND device_id = $2 AND can_command', [
    caller.id,
    deviceId,
  ]);
  return rows.length > 0;
}

export async function insertCommand(
  db: Queryable,
  c: { deviceId: number; kind: string; params: object; deadlineMinutes: number; createdBy: number },
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO device_commands (device_id, kind, params, created_by, deadline)
     VALUES ($1, $2, $3, $4, now() + make_interval(mins => $5::int)) RETURNING id`,
    [c.deviceId, c.kind, JSON.stringify(c.params), c.createdBy, c.deadlineMinutes],
  );
  return row!.id;
}

/** Withdraws a command that is still queued; answers whether it was. */
export async function cancelQueuedCommand(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query(`UPDATE device_commands SET state = 'cancelled' WHERE id = $1 AND state = 'queued' RETURNING id`, [id]);
  return rows.length > 0;
}

/** A reboot the vessel acknowledged and is carrying out: it is down until it connects again (docs/api.md, "command"). */
export interface RebootUnderWay {
  commandId: number;
  /** When the vessel acknowledged it (went down). */
  since: string;
  /** How long the vessel said it would be down, when it said so. */
  downForS: number | null;
}

export async function rebootUnderWay(db: Queryable, deviceId: number): Promise<RebootUnderWay | null> {
  const [row] = await db.query<{ commandId: number; since: Date | string; downForS: number | string | null }>(
    `SELECT id AS "commandId", acked_at AS since, result->>'downForS' AS "downForS" FROM device_commands
      WHERE device_id = $1 AND state = 'acknowledged' AND kind = 'reboot' ORDER BY acked_at DESC LIMIT 1`,
    [deviceId],
  );
  if (!row) return null;
  const down = row.downForS === null ? null : Number(row.downForS);
  return { commandId: row.commandId, since: new Date(row.since).toISOString(), downForS: Number.isFinite(down) ? down : null };
}
