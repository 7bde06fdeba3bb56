import type { Db } from '../db/connection';
import { afterQuietHours, userZone } from './quietHours';
import { ruleCovers } from './ruleScope';
import { OFFLINE_ALARM } from '../../src/domain/faultCodes';
import {
  claimAlarmEvents,
  contactPointsByIds,
  deleteAlarmEvents,
  enabledRules,
  insertNotifications,
  type AlarmEvent,
  type NewNotification,
  grantedPairs,
  usersByIds,
  type RuleRow,
} from './notifyQueries';

type Recipient = Pick<NewNotification, 'contactPointId' | 'userId' | 'recipient'>;
/** Contact points ('c') or users ('u') by id, as recipients ('c12', 'u5': a recipient's messages are counted together). */
const recipientsOf = (ids: readonly number[] | null, kind: 'c' | 'u'): Recipient[] =>
  (ids ?? []).map((id) => ({ contactPointId: kind === 'c' ? id : null, userId: kind === 'u' ? id : null, recipient: `${kind}${id}` }));

const RANK = { minor: 1, major: 2, critical: 3 } as const;
const GEOFENCE_CODES = { enter: 'GEOFENCE_IN', leave: 'GEOFENCE_OUT' } as const;
/** Repeats of a rule that names no limit. */
export const DEFAULT_REPEAT_LIMIT = 3;
const MINUTE = 60_000;

/** Whether a rule covers an alarm event: its vessels, then its codes (or, naming none, its severity). */
export function ruleMatches(rule: RuleRow, e: AlarmEvent): boolean {
  if (rule.ownerId !== e.ownerId) return false;
  if (e.event === 'cleared' && !rule.notifyCleared) return false;
  if (!ruleCovers(rule, e.deviceId!, e.groupId)) return false;
  // A rule notifies the alarms its own settings raise whatever its codes say: offline
  // (offlineMinutes), weak signal (lowMinutes), and a geofence it watches the way it watches it.
  if (e.code === OFFLINE_ALARM.code && rule.offlineMinutes) return true;
  if (e.code === 'SIGNAL_LOW' && rule.lowMinutes) return true;
  const trigger = GEOFENCE_CODES[rule.geofenceTrigger ?? 'enter'];
  if (e.code === trigger && e.sourceId !== null && (rule.geofenceIds ?? []).includes(e.sourceId)) return true;
  const codes = rule.codes ?? [];
  return codes.length ? codes.includes(e.code) : RANK[e.severity] >= RANK[rule.minSeverity];
}

/**
 * Turns outbox events into delivery-log rows, in one transaction per batch (docs/architecture.md,
 * "Notification delivery"): each matching rule's contact points now, its escalation contact points
 * after `escalateMinutes`, its repeats every `repeatMinutes`. A disabled contact point's row is
 * written as held. Keys make a batch that runs twice write each row once. Answers the events done.
 */
export async function fanOut(db: Db, limit = 500): Promise<number> {
  return db.transaction(async (tx) => {
    const events = await claimAlarmEvents(tx, limit);
    if (!events.length) return 0;
    const live = events.filter((e) => e.deviceId !== null && e.ownerId !== null);
    const rules = live.length ? await enabledRules(tx, [...new Set(live.map((e) => e.ownerId!))]) : [];
    type Row = Omit<NewNotification, 'recipientName' | 'channel' | 'state'>;
    const rows: Row[] = [];
    for (const e of live) {
      for (const rule of rules.filter((r) => ruleMatches(r, e))) {
        const primary = [...recipientsOf(rule.contactPointIds, 'c'), ...recipientsOf(rule.userIds, 'u')];
        const add = (event: Row['event'], tag: string, to: Recipient[], nextAt: Date) => {
          for (const r of to)
            rows.push({
              ...r,
              alarmId: e.alarmId,
              deviceId: e.deviceId!,
              ruleId: rule.id,
              ruleName: rule.name,
              key: `${e.alarmId}-${tag}-${rule.id}-${r.recipient}`,
              event,
              nextAt,
            });
        };
        const at = e.event === 'cleared' ? (e.clearedAt ?? new Date()) : e.raisedAt;
        add(e.event, e.event, primary, new Date());
        if (e.event !== 'raised') continue;
        if (rule.escalateMinutes)
          add(
            'escalated',
            'escalated',
            recipientsOf(rule.escalateContactPointIds, 'c'),
            new Date(at.getTime() + rule.escalateMinutes * MINUTE),
          );
        for (let k = 1; rule.repeatMinutes && k <= (rule.repeatLimit ?? DEFAULT_REPEAT_LIMIT); k++)
          add('repeated', `repeated${k}`, primary, new Date(at.getTime() + k * rule.repeatMinutes * MINUTE));
      }
    }
    const severities = new Map(live.map((e) => [e.alarmId, e.severity]));
    const contacts = new Map(
      (await contactPointsByIds(tx, [...new Set(rows.flatMap((r) => r.contactPointId ?? []))])).map((c) => [c.id, c]),
    );
    const users = new Map((await usersByIds(tx, [...new Set(rows.flatMap((r) => r.userId ?? []))])).map((u) => [u.id, u]));
    // A sub-user is told only of the vessels it was granted.
    const subUsers = [...users.values()].filter((u) => u.parentId !== null).map((u) => u.id);
    const granted = new Set(
      subUsers.length
        ? (await grantedPairs(tx, subUsers, [...new Set(rows.map((r) => r.deviceId))])).map((g) => `${g.userId}:${g.deviceId}`)
        : [],
    );
    await insertNotifications(
      tx,
      rows.flatMap((r) => {
        // A user is told by mail; a contact point as its channel says, held while it is disabled.
        const user = r.userId === null ? undefined : users.get(r.userId);
        if (user && user.parentId !== null && !granted.has(`${user.id}:${r.deviceId}`)) return [];
        // In a recipient's quiet hours what is not critical waits for their end (and then goes with the rest as one digest).
        const quiet = (from: string | null, to: string | null, timeZone: string) =>
          severities.get(r.alarmId) === 'critical' ? r.nextAt : afterQuietHours(r.nextAt, { from, to, timeZone });
        if (user)
          return [
            {
              ...r,
              nextAt: quiet(user.quietFrom, user.quietTo, userZone(user.offsetHours)),
              recipientName: user.name,
              channel: 'email',
              state: 'pending' as const,
            },
          ];
        const c = r.contactPointId === null ? undefined : contacts.get(r.contactPointId);
        // A contact point or user deleted since the rule named it is skipped.
        if (!c) return [];
        const nextAt = quiet(c.quietFrom, c.quietTo, c.timeZone);
        return [{ ...r, nextAt, recipientName: c.name, channel: c.channel, state: c.enabled ? ('pending' as const) : ('held' as const) }];
      }),
    );
    await deleteAlarmEvents(
      tx,
      events.map((e) => e.outboxId),
    );
    return events.length;
  });
}
