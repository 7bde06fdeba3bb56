import type { Queryable } from './connection';
import { SEA_ROUTES } from '../simulator/seaRoutes';
import { REPORT_DEFAULT_CRON, REPORT_KINDS } from '../../src/domain/reports';

/** The demo routes' ports in Chinese (the zh enterprise names its geofences in its language). */
const PORTS_ZH: Record<string, string> = {
  'Los Angeles': '洛杉矶港',
  Rotterdam: '鹿特丹港',
  Santos: '桑托斯港',
  Shanghai: '上海港',
  Singapore: '新加坡港',
  'Cape Town': '开普敦港',
  Colombo: '科伦坡港',
  Honolulu: '檀香山港',
  'New York': '纽约港',
};
/** Each port at the ends of the demo's sea routes, once, at its end waypoint. */
const PORTS = [
  ...new Map(
    SEA_ROUTES.flatMap((r) => [
      [r.from, r.waypoints[0]!],
      [r.to, r.waypoints[r.waypoints.length - 1]!],
    ]),
  ).entries(),
];

/**
 * The demo's alarm notifications (docs/api.md, "Notifications"): each enterprise has a webhook
 * contact point, left disabled (its address is an example), and a rule that sends it the major
 * and critical alarms of its fleet. The live demo's faults fire the rules: their messages show in
 * Support > Delivery log as "contact point disabled" until someone points it somewhere real and
 * enables it. The alarms of the loaded history are not notified (their outbox is emptied). Each
 * enterprise also has a 30 km geofence round every port of the demo's routes, so the vessels' port
 * calls show in Support > Port calls: those of the loaded history, then the live ones. And each
 * enterprise has a weekly fleet report scheduled (Support > Report schedules), to its own account.
 */
export async function seedNotifications(tx: Queryable, ids: ReadonlyMap<string, number>): Promise<void> {
  for (const [enterprise, language, timeZone] of [
    ['oceanic', 'zh', 'Asia/Shanghai'],
    ['polaris', 'en', 'Europe/Oslo'],
  ] as const) {
    const owner = ids.get(enterprise)!;
    const [contact] = await tx.query<{ id: number }>(
      `INSERT INTO contact_points (owner_id, name, channel, target, secret, language, time_zone, enabled, created_by)
       VALUES ($1, $2, 'webhook', $3, $4, $5, $6, false, $1) RETURNING id`,
      [
        owner,
        language === 'zh' ? '值班 Webhook（示例）' : 'Duty webhook (example)',
        `https://alarms.example.com/${enterprise}`,
        `demo-${enterprise}-secret`,
        language,
        timeZone,
      ],
    );
    await tx.query(
      `INSERT INTO alarm_rules (owner_id, name, enabled, codes, min_severity, device_ids, group_ids, contact_point_ids, user_ids,
                                notify_cleared, escalate_contact_point_ids, created_by)
       VALUES ($1, $2, true, '[]', 'major', '[]', '[]', $3::jsonb, '[]', true, '[]', $1)`,
      [owner, language === 'zh' ? '重要及紧急告警' : 'Major and critical alarms', JSON.stringify([contact!.id])],
    );
    // A weekly report (Mondays 07:00 in the enterprise's zone, over the week before) to the enterprise's own account.
    await tx.query(
      `INSERT INTO report_schedules (owner_id, name, kinds, period, cron, language, time_zone, user_ids, contact_point_ids, enabled, created_by)
       VALUES ($1, $2, $7::jsonb, 'week', $3, $4, $5, $6::jsonb, '[]', true, $1)`,
      [
        owner,
        language === 'zh' ? '船队周报' : 'Fleet weekly report',
        REPORT_DEFAULT_CRON,
        language,
        language === 'zh' ? 8 : 1,
        JSON.stringify([owner]),
        JSON.stringify(REPORT_KINDS),
      ],
    );
    await tx.query(
      `INSERT INTO geofences (owner_id, name, kind, shape, lat, lon, radius_m, created_by)
       SELECT $1, name, 'port', 'circle', lat, lon, 30000, $1 FROM unnest($2::text[], $3::float8[], $4::float8[]) AS p(name, lat, lon)`,
      [
        owner,
        PORTS.map(([name]) => (language === 'zh' ? (PORTS_ZH[name] ?? name) : `Port of ${name}`)),
        PORTS.map(([, at]) => at[0]),
        PORTS.map(([, at]) => at[1]),
      ],
    );
  }
  await seedPortCalls(tx);
  await tx.query('DELETE FROM alarm_outbox');
}

/**
 * The port calls of the loaded history: each report near a port geofence is tested against it
 * (haversine, in SQL), and every change between in and out is an arrival or a departure at that
 * report's time. The vessels in a port at the end of the history are in its presence, so the
 * leader's minute check (server/notify/geofenceCheck.ts) goes on from there without a second arrival.
 */
async function seedPortCalls(tx: Queryable): Promise<void> {
  await tx.query(
    `WITH near AS (
       SELECT r.device_id, f.id AS geofence_id, f.name, f.kind, r.device_time AS at, r.lat, r.lon,
              2 * 6371000 * asin(sqrt(power(sin(radians(f.lat - r.lat) / 2), 2)
                + cos(radians(r.lat)) * cos(radians(f.lat)) * power(sin(radians(f.lon - r.lon) / 2), 2))) <= f.radius_m AS inside
         FROM device_reports r JOIN devices d ON d.id = r.device_id
         JOIN geofences f ON f.owner_id = d.owner_id AND f.shape = 'circle'
        WHERE abs(r.lat - f.lat) < 1 AND abs(r.lon - f.lon) < 1.5),
     steps AS (SELECT *, lag(inside) OVER (PARTITION BY device_id, geofence_id ORDER BY at) AS was FROM near)
     INSERT INTO geofence_events (device_id, geofence_id, geofence_name, geofence_kind, event, at, lat, lon)
     SELECT device_id, geofence_id, name, kind, CASE WHEN inside THEN 'arrival' ELSE 'departure' END, at, lat, lon
       FROM steps WHERE inside <> COALESCE(was, false)`,
  );
  await tx.query(
    `INSERT INTO geofence_presence (device_id, geofence_id, since)
     SELECT device_id, geofence_id, at FROM (
       SELECT DISTINCT ON (device_id, geofence_id) device_id, geofence_id, event, at FROM geofence_events
        ORDER BY device_id, geofence_id, at DESC, id DESC) last
      WHERE event = 'arrival'`,
  );
}
