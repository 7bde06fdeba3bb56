import type { Queryable } from '../db/connection';

/**
 * The SQL of alarm notifications (docs/architecture.md, "Notification delivery"): the outbox the
 * alarms trigger fills, the rules that match, the delivery log the workers claim and write.
 */

export interface AlarmEvent {
  outboxId: number;
  alarmId: number;
  event: 'raised' | 'cleared';
  deviceId: number | null;
  ownerId: number | null;
  groupId: number | null;
  code: string;
  severity: 'critical' | 'major' | 'minor';
  raisedAt: Date;
  clearedAt: Date | null;
  /** The geofence a geofence alarm is about. */
  sourceId: number | null;
}

/** The oldest outbox events, locked for this transaction (another replica skips them). */
export const claimAlarmEvents = (tx: Queryable, limit: number) =>
  tx.query<AlarmEvent>(
    `SELECT o.id::int AS "outboxId", o.alarm_id::int AS "alarmId", o.event, a.device_id AS "deviceId", d.owner_id AS "ownerId",
            m.group_id AS "groupId", a.code, a.severity, a.raised_at AS "raisedAt", a.cleared_at AS "clearedAt",
            a.source_id AS "sourceId"
       FROM alarm_outbox o
       LEFT JOIN alarms a ON a.id = o.alarm_id
       LEFT JOIN devices d ON d.id = a.device_id
       LEFT JOIN device_group_members m ON m.device_id = a.device_id
      ORDER BY o.id LIMIT $1 FOR UPDATE OF o SKIP LOCKED`,
    [limit],
  );

export const deleteAlarmEvents = (tx: Queryable, ids: readonly number[]) =>
  tx.query('DELETE FROM alarm_outbox WHERE id = ANY($1::bigint[])', [ids]);

export interface RuleRow {
  id: number;
  ownerId: number;
  name: string;
  codes: string[] | null;
  minSeverity: 'critical' | 'major' | 'minor';
  deviceIds: number[] | null;
  groupIds: number[] | null;
  contactPointIds: number[] | null;
  userIds: number[] | null;
  offlineMinutes: number | null;
  lowMinutes: number | null;
  geofenceIds: number[] | null;
  geofenceTrigger: 'enter' | 'leave' | null;
  notifyCleared: boolean;
  escalateMinutes: number | null;
  escalateContactPointIds: number[] | null;
  repeatMinutes: number | null;
  repeatLimit: number | null;
}

/** The enabled rules of these enterprises. */
export const enabledRules = (tx: Queryable, ownerIds: readonly number[]) =>
  tx.query<RuleRow>(
    `SELECT id, owner_id AS "ownerId", name, codes, min_severity AS "minSeverity", device_ids AS "deviceIds", group_ids AS "groupIds",
            contact_point_ids AS "contactPointIds", user_ids AS "userIds", offline_minutes AS "offlineMinutes", low_minutes AS "lowMinutes",
            geofence_ids AS "geofenceIds", geofence_trigger AS "geofenceTrigger", notify_cleared AS "notifyCleared", escalate_minutes AS "escalateMinutes",
            escalate_contact_point_ids AS "escalateContactPointIds", repeat_minutes AS "repeatMinutes", repeat_limit AS "repeatLimit"
       FROM alarm_rules WHERE enabled AND owner_id = ANY($1::int[])`,
    [ownerIds],
  );

export interface ContactRow {
  id: number;
  ownerId: number;
  name: string;
  channel: string;
  target: string;
  secret: string | null;
  language: string;
  timeZone: string;
  enabled: boolean;
  createdBy: number | null;
  quietFrom: string | null;
  quietTo: string | null;
}

export const contactPointsByIds = (db: Queryable, ids: readonly number[]) =>
  db.query<ContactRow>(
    `SELECT id, owner_id AS "ownerId", name, channel, target, secret, language, time_zone AS "timeZone", enabled, created_by AS "createdBy",
            quiet_from AS "quietFrom", quiet_to AS "quietTo"
       FROM contact_points WHERE id = ANY($1::int[])`,
    [ids],
  );

export interface UserReader {
  id: number;
  name: string;
  /** Its enterprise, for a sub-user (null: an enterprise user). */
  parentId: number | null;
  email: string | null;
  language: string | null;
  /** The console's UTC offset in hours at the user's last login. */
  offsetHours: number | null;
  quietFrom: string | null;
  quietTo: string | null;
}

/** Users told by mail: their address, and the language and zone of their last login. */
export const usersByIds = (db: Queryable, ids: readonly number[]) =>
  db.query<UserReader>(
    `SELECT id, name, parent_id AS "parentId", NULLIF(trim(email), '') AS email, language, time_zone_offset AS "offsetHours",
            quiet_from AS "quietFrom", quiet_to AS "quietTo" FROM users WHERE id = ANY($1::int[])`,
    [ids],
  );

export interface NewNotification {
  key: string;
  alarmId: number;
  deviceId: number;
  ruleId: number;
  ruleName: string;
  event: 'raised' | 'cleared' | 'escalated' | 'repeated';
  contactPointId: number | null;
  userId: number | null;
  recipient: string;
  recipientName: string;
  channel: string;
  state: 'pending' | 'held';
  nextAt: Date;
}

/** The delivery log's new rows; a key already written (the same event fanned out again) is skipped. */
export async function insertNotifications(tx: Queryable, rows: readonly NewNotification[]): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof NewNotification>(k: K) => rows.map((r) => r[k]);
  await tx.query(
    `INSERT INTO notifications (key, alarm_id, device_id, rule_id, rule_name, event, contact_point_id, recipient, recipient_name, channel, state, next_at, user_id)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[], $10::text[], $11::text[], $12::timestamptz[], $13::int[])
     ON CONFLICT (key) DO NOTHING`,
    [
      col('key'),
      col('alarmId'),
      col('deviceId'),
      col('ruleId'),
      col('ruleName'),
      col('event'),
      col('contactPointId'),
      col('recipient'),
      col('recipientName'),
      col('channel'),
      col('state'),
      col('nextAt'),
      col('userId'),
    ],
  );
}

/** Escalations and repeats due now whose alarm was acknowledged or cleared meanwhile are not sent. */
export const cancelSettledFollowUps = (db: Queryable) =>
  db.query(
    `UPDATE notifications n SET state = 'cancelled', lease_until = NULL
       FROM alarms a
      WHERE n.state = 'pending' AND n.event IN ('escalated', 'repeated') AND n.next_at <= now() AND a.id = n.alarm_id
        AND (a.acked_at IS NOT NULL OR a.cleared_at IS NOT NULL)`,
  );

export interface ClaimedNotification {
  id: number;
  key: string;
  alarmId: number;
  deviceId: number;
  event: 'raised' | 'cleared' | 'escalated' | 'repeated';
  contactPointId: number | null;
  userId: number | null;
  recipient: string;
  attempts: number;
  createdAt: Date;
}

/** A row due now (and not leased by a live worker), of the table alias given. */
const due = (t: string) => `${t}.state = 'pending' AND ${t}.next_at <= now() AND (${t}.lease_until IS NULL OR ${t}.lease_until < now())`;

/**
 * Claims due rows for `leaseMs` (a worker that dies leaves them to the next after that): up to
 * `recipients` recipients, each with all its due rows up to `perMessage` (they go as one message).
 * A recipient that got `perWindow` messages within the last `windowMs` waits: what comes due
 * meanwhile goes as one digest when its window passes (storm control).
 */
export const claimDueNotifications = (
  db: Queryable,
  o: { recipients: number; perMessage: number; leaseMs: number; windowMs: number; perWindow: number },
) =>
  db.query<ClaimedNotification>(
    `UPDATE notifications n SET lease_until = now() + make_interval(secs => $2::float8 / 1000), attempts = n.attempts + 1
      WHERE n.id IN (
        SELECT c.id
          FROM (SELECT DISTINCT d.recipient FROM notifications d
                 WHERE ${due('d')}
                   AND (SELECT count(DISTINCT s.message_id) FROM notifications s
                         WHERE s.recipient = d.recipient AND s.sent_at > now() - make_interval(secs => $3::float8 / 1000)) < $4
                 LIMIT $1) r
          CROSS JOIN LATERAL (
                SELECT e.id FROM notifications e WHERE e.recipient = r.recipient AND ${due('e')}
                 ORDER BY e.next_at, e.id LIMIT $5 FOR UPDATE SKIP LOCKED) c)
      RETURNING n.id::int AS id, n.key, n.alarm_id::int AS "alarmId", n.device_id AS "deviceId", n.event, n.contact_point_id AS "contactPointId",
                n.user_id AS "userId", n.recipient, n.attempts, n.created_at AS "createdAt"`,
    [o.recipients, o.leaseMs, o.windowMs, o.perWindow, o.perMessage],
  );

export interface AlarmDetail {
  alarmId: number;
  deviceId: number;
  deviceName: string;
  code: string;
  detail: string | null;
  severity: 'critical' | 'major' | 'minor';
  raisedAt: Date;
  clearedAt: Date | null;
  lat: number | null;
  lon: number | null;
}

export const alarmDetails = (db: Queryable, ids: readonly number[]) =>
  db.query<AlarmDetail>(
    `SELECT a.id::int AS "alarmId", a.device_id AS "deviceId", d.name AS "deviceName", a.code, a.detail, a.severity, a.raised_at AS "raisedAt",
            a.cleared_at AS "clearedAt", s.lat, s.lon
       FROM alarms a JOIN devices d ON d.id = a.device_id LEFT JOIN device_state s ON s.device_id = a.device_id
      WHERE a.id = ANY($1::bigint[])`,
    [ids],
  );

/** Sent as one message (`messageId`: its first row's id); latency from the row's writing to the service's answer. */
export const markSent = (db: Queryable, ids: readonly number[], messageId: number) =>
  db.query<{ latencyMs: number }>(
    `UPDATE notifications SET state = 'sent', sent_at = now(), message_id = $2, lease_until = NULL, last_error = NULL,
            latency_ms = (extract(epoch FROM now() - created_at) * 1000)::int
      WHERE id = ANY($1::bigint[]) RETURNING latency_ms AS "latencyMs"`,
    [ids, messageId],
  );

/** Another attempt at `nextAt`, or `failed` when none is left. */
export const markAttemptFailed = (db: Queryable, ids: readonly number[], error: string, nextAt: Date | null) =>
  db.query(
    `UPDATE notifications SET lease_until = NULL, last_error = $2, state = CASE WHEN $3::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
            next_at = COALESCE($3::timestamptz, next_at)
      WHERE id = ANY($1::bigint[])`,
    [ids, error, nextAt],
  );

export interface MailServer {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
  fromAddress: string;
}

/** The mail server email contact points go through: the first enabled one (Support > Mail server). */
export const activeMailServer = async (db: Queryable): Promise<MailServer | null> =>
  (
    await db.query<MailServer>(
      `SELECT host, port, secure, user_name AS "user", password, from_address AS "fromAddress"
         FROM mail_servers WHERE enabled ORDER BY id LIMIT 1`,
    )
  )[0] ?? null;

/** The (sub-user, vessel) pairs among these that are granted: a sub-user is told only of the vessels it was granted. */
export const grantedPairs = (tx: Queryable, userIds: readonly number[], deviceIds: readonly number[]) =>
  tx.query<{ userId: number; deviceId: number }>(
    `SELECT sub_user_id AS "userId", device_id AS "deviceId" FROM sub_user_grants
      WHERE sub_user_id = ANY($1::int[]) AND device_id = ANY($2::int[])`,
    [userIds, deviceIds],
  );
