import type { Queryable } from '../../db/connection';
import type { SessionUser } from '../../auth/sessionUser';
import { visibleDevicesSql, scopeParams } from '../../auth/deviceScope';

/** A row of live_events (migration 014) as the hub hands it out. */
export interface LiveEvent {
  id: number;
  kind: string;
  deviceId: number;
  ownerId: number;
  data: Record<string, unknown>;
}

type Row = { id: string; kind: string; device_id: number; owner_id: number; data: Record<string, unknown> };
const toEvent = (r: Row): LiveEvent => ({ id: Number(r.id), kind: r.kind, deviceId: r.device_id, ownerId: r.owner_id, data: r.data ?? {} });

/** The highest id written before the grace period (0 for none): the hub's first floor. */
export async function readStartFloor(db: Queryable, gapGraceMs: number): Promise<number> {
  const [row] = await db.query<{ floor: string | null }>(
    `SELECT coalesce((SELECT max(id) FROM live_events WHERE at < now() - make_interval(secs => $1::float8 / 1000)), 0)::text AS floor`,
    [gapGraceMs],
  );
  return Number(row?.floor ?? 0);
}

/** The ids above a floor, in order. */
export async function readIdsAbove(db: Queryable, floor: number): Promise<number[]> {
  const rows = await db.query<{ id: string }>('SELECT id::text AS id FROM live_events WHERE id > $1 ORDER BY id', [floor]);
  return rows.map((r) => Number(r.id));
}

/** At most `limit` rows above the floor that were not sent yet, in id order. */
export async function readNewEvents(db: Queryable, floor: number, sent: readonly number[], limit: number): Promise<LiveEvent[]> {
  const rows = await db.query<Row>(
    `SELECT id::text AS id, kind, device_id, owner_id, data FROM live_events
      WHERE id > $1 AND NOT (id = ANY($2::bigint[])) ORDER BY id LIMIT $3`,
    [floor, sent, limit],
  );
  return rows.map(toEvent);
}

/** A caller's visible device ids (server/auth/deviceScope.ts). */
export async function readVisibleDeviceIds(db: Queryable, user: SessionUser): Promise<Set<number>> {
  const rows = await db.query<{ id: number }>(`SELECT d.id FROM devices d WHERE ${visibleDevicesSql(user)}`, scopeParams(user));
  return new Set(rows.map((r) => r.id));
}

/** The table's highest and lowest ids, and whether a row after `after` is older than the replay window. */
export async function readReplayBounds(
  db: Queryable,
  after: number,
  windowMs: number,
): Promise<{ max: number; min: number | null; stale: boolean }> {
  const [bounds] = await db.query<{ max: string | null; min: string | null; stale: boolean }>(
    `SELECT (SELECT max(id) FROM live_events)::text AS max, (SELECT min(id) FROM live_events)::text AS min,
            EXISTS (SELECT 1 FROM live_events WHERE id > $1 AND at < now() - make_interval(secs => $2::float8 / 1000)) AS stale`,
    [after, windowMs],
  );
  return {
    max: Number(bounds?.max ?? 0),
    min: bounds?.min === null || bounds?.min === undefined ? null : Number(bounds.min),
    stale: !!bounds?.stale,
  };
}

/**
 * The rows after a cursor and the ids it names missing, within the replay window and a scope
 * (ownerId null: every enterprise; visible null: every device of it), in id order, at most `limit`.
 */
export async function readReplayEvents(
  db: Queryable,
  cursor: { max: number; missing: number[] },
  scope: { windowMs: number; ownerId: number | null; visible: number[] | null; limit: number },
): Promise<LiveEvent[]> {
  const rows = await db.query<Row>(
    `SELECT id::text AS id, kind, device_id, owner_id, data FROM live_events
      WHERE (id > $1 OR id = ANY($2::bigint[])) AND at >= now() - make_interval(secs => $3::float8 / 1000)
        AND ($4::int IS NULL OR owner_id = $4) AND ($5::int[] IS NULL OR device_id = ANY($5::int[]))
      ORDER BY id LIMIT $6`,
    [cursor.max, cursor.missing, scope.windowMs, scope.ownerId, scope.visible, scope.limit],
  );
  return rows.map(toEvent);
}
