import type { Queryable } from '../db/connection';
import { Level, type Principal } from '../../src/domain/levels';
import type { ReportKind, ReportPeriod } from '../../src/domain/reports';

/** A schedule as the scheduler reads it. */
export interface ScheduleRow {
  id: number;
  ownerId: number | null;
  name: string;
  kinds: ReportKind[];
  period: ReportPeriod;
  cron: string;
  language: 'zh' | 'en';
  timeZone: number;
  userIds: number[];
  contactPointIds: number[];
  /** Each user in the zone and language of its last login (one run per zone and language). */
  recipientZones: boolean;
  lastRunAt: Date | null;
  createdAt: Date;
}

const SCHEDULE_COLUMNS = `id, owner_id AS "ownerId", name, kinds, period, cron, language, time_zone AS "timeZone",
  user_ids AS "userIds", contact_point_ids AS "contactPointIds", recipient_zones AS "recipientZones", last_run_at AS "lastRunAt", created_at AS "createdAt"`;

export const enabledSchedules = (db: Queryable) =>
  db.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM report_schedules WHERE enabled ORDER BY id`);

/** One schedule the caller's enterprise owns (level 1: any); null when it does not see it. */
export async function visibleSchedule(db: Queryable, caller: Principal, id: number, enterpriseId: number): Promise<ScheduleRow | null> {
  const [row] = await db.query<ScheduleRow>(
    `SELECT ${SCHEDULE_COLUMNS} FROM report_schedules WHERE id = $1 AND ($2::boolean OR owner_id = $3)`,
    [id, caller.permissionLevel === Level.Admin, enterpriseId],
  );
  return row ?? null;
}

/** Marks a schedule as run at `at`, if no one else did since `seen` (answers whether this caller claimed it). */
export async function claimSchedule(db: Queryable, id: number, seen: Date | null, at: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE report_schedules SET last_run_at = $3 WHERE id = $1 AND last_run_at IS NOT DISTINCT FROM $2::timestamptz RETURNING id`,
    [id, seen?.toISOString() ?? null, at.toISOString()],
  );
  return rows.length > 0;
}

/** Whom a report is built for: its owner (a schedule without one is level 1's, and sees every vessel). */
export async function ownerPrincipal(db: Queryable, ownerId: number | null): Promise<Principal> {
  const [row] = ownerId
    ? await db.query<Principal>(`SELECT id, permission_level AS "permissionLevel", parent_id AS "parentId" FROM users WHERE id = $1`, [
        ownerId,
      ])
    : [];
  return row ?? { id: 1, permissionLevel: Level.Admin, parentId: null };
}

/** The mail addresses of a schedule's users (those with one) and of its enabled email contact points. */
export async function recipientAddresses(db: Queryable, userIds: readonly number[], contactPointIds: readonly number[]): Promise<string[]> {
  const rows = await db.query<{ address: string }>(
    `SELECT DISTINCT trim(email) AS address FROM users WHERE id = ANY($1::int[]) AND coalesce(trim(email), '') <> ''
     UNION SELECT DISTINCT trim(target) FROM contact_points WHERE id = ANY($2::int[]) AND channel = 'email' AND enabled`,
    [userIds, contactPointIds],
  );
  return rows.map((r) => r.address);
}

/** A schedule's users by the zone (clamped to -12..12) and language of their last login; unknown ones take the schedule's. */
export const usersByZone = (db: Queryable, userIds: readonly number[], zone: number, language: string) =>
  db.query<{ zone: number; language: string; userIds: number[] }>(
    `SELECT CASE WHEN time_zone_offset IS NULL THEN $2::int ELSE least(12, greatest(-12, time_zone_offset)) END AS zone,
            CASE WHEN language IN ('zh', 'en') THEN language ELSE $3::text END AS language, array_agg(id ORDER BY id) AS "userIds"
       FROM users WHERE id = ANY($1::int[]) GROUP BY 1, 2 ORDER BY 1, 2`,
    [userIds, zone, language],
  );

export interface NewRun {
  ownerId: number | null;
  scheduleId: number;
  name: string;
  kinds: readonly ReportKind[];
  fromMs: number;
  toMs: number;
  timeZone: number;
  language: string;
  /** Whom this run is for; null: every recipient of the schedule. */
  userIds: readonly number[] | null;
  contactPointIds: readonly number[] | null;
  createdBy: number | null;
}

export async function insertRun(db: Queryable, run: NewRun): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO report_runs (owner_id, schedule_id, name, kinds, period_from, period_to, time_zone, language, user_ids, contact_point_ids, created_by)
     VALUES ($1, $2, $3, $4, to_timestamp($5::float8 / 1000), to_timestamp($6::float8 / 1000), $7, $8, $9, $10, $11) RETURNING id::float8 AS id`,
    [
      run.ownerId,
      run.scheduleId,
      run.name,
      JSON.stringify(run.kinds),
      run.fromMs,
      run.toMs,
      run.timeZone,
      run.language,
      run.userIds && JSON.stringify(run.userIds),
      run.contactPointIds && JSON.stringify(run.contactPointIds),
      run.createdBy,
    ],
  );
  return row!.id;
}

/** Takes a run for an attempt: running, one attempt more (answers false when it is not waiting for one). */
export async function startAttempt(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE report_runs SET state = 'running', attempts = attempts + 1, started_at = now(), error = NULL
      WHERE id = $1 AND state <> 'done' RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

/** A run done: its workbook and PDF kept for download, their size, to how many it went, how long it took. */
export const finishRun = (db: Queryable, id: number, files: { xlsx: Buffer; pdf: Buffer; name: string }, recipients: number, ms: number) =>
  db.query(
    `UPDATE report_runs SET state = 'done', file = $2, pdf = $3, file_name = $4, size_bytes = $5, recipients = $6, duration_ms = $7 WHERE id = $1`,
    [id, files.xlsx, files.pdf, files.name, files.xlsx.length + files.pdf.length, recipients, ms],
  );

export const failRun = (db: Queryable, id: number, error: string, ms: number) =>
  db.query(`UPDATE report_runs SET state = 'failed', error = $2, duration_ms = $3 WHERE id = $1`, [id, error.slice(0, 500), ms]);

/** Failed runs that may try again: fewer than `attempts` tries, the last one `waitMinutes` × tries ago, within a day. */
export const retryableRuns = (db: Queryable, attempts: number, waitMinutes: number) =>
  db.query<{ id: number }>(
    `SELECT id::float8 AS id FROM report_runs
      WHERE state = 'failed' AND attempts < $1 AND created_at > now() - interval '1 day'
        AND started_at < now() - make_interval(mins => $2 * attempts) ORDER BY id`,
    [attempts, waitMinutes],
  );

/** A run left "running" by a server that stopped is failed, so it may try again. */
export const failAbandonedRuns = (db: Queryable, minutes: number) =>
  db.query(
    `UPDATE report_runs SET state = 'failed', error = 'interrupted' WHERE state = 'running' AND started_at < now() - make_interval(mins => $1)`,
    [minutes],
  );

export interface RunRow extends ScheduleRow {
  scheduleId: number | null;
  periodFrom: Date;
  periodTo: Date;
}

export async function runById(db: Queryable, id: number): Promise<RunRow | null> {
  const [row] = await db.query<RunRow>(
    `SELECT r.id::float8 AS id, r.owner_id AS "ownerId", r.schedule_id AS "scheduleId", r.name, r.kinds, r.language,
            r.time_zone AS "timeZone", r.period_from AS "periodFrom", r.period_to AS "periodTo",
            coalesce(r.user_ids, s.user_ids, '[]') AS "userIds", coalesce(r.contact_point_ids, s.contact_point_ids, '[]') AS "contactPointIds"
       FROM report_runs r LEFT JOIN report_schedules s ON s.id = r.schedule_id WHERE r.id = $1`,
    [id],
  );
  return row ?? null;
}

/** A run's files (workbook and PDF), if the caller's enterprise owns the run (level 1: any). */
export async function runFile(db: Queryable, caller: Principal, id: number, enterpriseId: number) {
  const [row] = await db.query<{ file: Buffer | null; pdf: Buffer | null; fileName: string | null }>(
    `SELECT file, pdf, file_name AS "fileName" FROM report_runs WHERE id = $1 AND ($2::boolean OR owner_id = $3)`,
    [id, caller.permissionLevel === Level.Admin, enterpriseId],
  );
  return row ?? null;
}

/** Forgets the files of runs older than the setting's days (monitor_settings.report_keep_days; the record stays). Answers how many. */
export async function pruneRunFiles(db: Queryable): Promise<number> {
  const rows = await db.query(
    `UPDATE report_runs SET file = NULL, pdf = NULL
      WHERE file IS NOT NULL AND created_at < now() - make_interval(days => (SELECT report_keep_days FROM monitor_settings WHERE id = 1))
      RETURNING id`,
  );
  return rows.length;
}
