import type { Queryable } from '../db/connection';
import type { Language } from '../../src/domain/constants';
import { translateDomain } from '../../src/domain/messages';
import { REPORT_ATTEMPTS, nextRunAfter, previousPeriod, type ReportRange } from '../../src/domain/reports';
import { activeMailServer } from '../notify/notifyQueries';
import { smtpTransport } from '../notify/delivery';
import { XLSX_TYPE } from '../http/xlsx';
import { localTime } from '../http/exportFile';
import { buildReport } from './buildReport';
import {
  claimSchedule,
  enabledSchedules,
  failAbandonedRuns,
  failRun,
  finishRun,
  insertRun,
  ownerPrincipal,
  pruneRunFiles,
  recipientAddresses,
  retryableRuns,
  runById,
  startAttempt,
  usersByZone,
  type ScheduleRow,
} from './reportRunQueries';

/**
 * Scheduled reports (docs/architecture.md, "Scheduled reports"): a run builds the report once for
 * its zone and language (the schedule's, or with recipientZones each group of its users'), mails it with the workbook and the PDF attached to the schedule's users and
 * email contact points, and keeps the file for download. A run that fails says why and is tried
 * again (REPORT_ATTEMPTS in all, 5, then 10 minutes apart); the leader runs what is due every minute.
 */

/** Minutes after which a run still "running" is taken for one whose server stopped. */
const ABANDONED_MIN = 30;
/** Minutes between attempts, times the attempts made. */
const RETRY_WAIT_MIN = 5;
const MAIL_TIMEOUT_MS = 30_000;

/** One attempt at a run: built, mailed, stored; or failed with the reason in the schedule's language. */
export async function attemptRun(db: Queryable, runId: number): Promise<void> {
  if (!(await startAttempt(db, runId))) return;
  const started = performance.now();
  const run = (await runById(db, runId))!;
  const lang: Language = run.language === 'en' ? 'en' : 'zh';
  try {
    const range = { fromMs: run.periodFrom.getTime(), toMs: run.periodTo.getTime() };
    const built = await buildReport(db, {
      caller: await ownerPrincipal(db, run.ownerId),
      kinds: run.kinds,
      range,
      lang,
      offsetHours: run.timeZone,
      title: run.name,
    });
    const name = `report-${run.id}-${localTime(run.periodFrom, run.timeZone).slice(0, 10)}`;
    const to = await recipientAddresses(db, run.userIds, run.contactPointIds);
    if (to.length) {
      const server = await activeMailServer(db);
      if (!server) throw new Error(translateDomain(lang, 'notify.error.noMailServer'));
      const transport = smtpTransport(
        {
          host: server.host,
          port: server.port,
          secure: server.secure,
          user: server.user ?? undefined,
          password: server.password ?? undefined,
          from: server.fromAddress,
        },
        MAIL_TIMEOUT_MS,
      );
      try {
        await transport.sendMail({
          from: server.fromAddress,
          to,
          subject: built.subject,
          text: built.text,
          html: built.html,
          attachments: [
            { filename: `${name}.xlsx`, content: built.xlsx, contentType: XLSX_TYPE },
            { filename: `${name}.pdf`, content: built.pdf, contentType: 'application/pdf' },
          ],
          headers: { 'X-Fleet-Report': String(run.id) },
        });
      } catch (error) {
        throw new Error(translateDomain(lang, 'notify.error.unreachable', { detail: (error as Error).message }));
      } finally {
        transport.close();
      }
    }
    await finishRun(db, runId, { xlsx: built.xlsx, pdf: built.pdf, name }, to.length, Math.round(performance.now() - started));
  } catch (error) {
    await failRun(db, runId, (error as Error).message, Math.round(performance.now() - started));
  }
}

/** Whom a schedule's runs are for: one group (its zone and language), or with recipientZones one per users' (zone, language), the contact points in the schedule's. */
async function recipientGroups(db: Queryable, schedule: ScheduleRow) {
  const all = { zone: schedule.timeZone, language: schedule.language as string, userIds: null, contactPointIds: null };
  if (!schedule.recipientZones)
    return [all] as { zone: number; language: string; userIds: number[] | null; contactPointIds: number[] | null }[];
  const groups = (await usersByZone(db, schedule.userIds, schedule.timeZone, schedule.language)).map((g) => ({
    ...g,
    contactPointIds: [] as number[] | null,
  }));
  if (schedule.contactPointIds.length) {
    const own = groups.find((g) => g.zone === schedule.timeZone && g.language === schedule.language);
    if (own) own.contactPointIds = schedule.contactPointIds;
    else groups.push({ zone: schedule.timeZone, language: schedule.language, userIds: [], contactPointIds: schedule.contactPointIds });
  }
  return groups;
}

/**
 * Records the runs of a schedule, each over `rangeIn` its zone, and makes their first attempts: one
 * run, or with recipientZones one per (zone, language) of its recipients, so a report is built once
 * per zone and language whatever the number of recipients. Answers the runs' ids once recorded.
 */
export async function startRuns(
  db: Queryable,
  schedule: ScheduleRow,
  rangeIn: (zone: number) => ReportRange,
  createdBy: number | null,
): Promise<{ runIds: number[]; done: Promise<void> }> {
  const runIds: number[] = [];
  // Every range first: one that cannot be made records no run.
  const planned = (await recipientGroups(db, schedule)).map((group) => ({ group, range: rangeIn(group.zone) }));
  for (const { group, range } of planned) {
    runIds.push(
      await insertRun(db, {
        ownerId: schedule.ownerId,
        scheduleId: schedule.id,
        name: schedule.name,
        kinds: schedule.kinds,
        fromMs: range.fromMs,
        toMs: range.toMs,
        timeZone: group.zone,
        language: group.language,
        userIds: group.userIds,
        contactPointIds: group.contactPointIds,
        createdBy,
      }),
    );
  }
  const done = (async () => {
    for (const id of runIds) await attemptRun(db, id);
  })();
  return { runIds, done };
}

/**
 * The leader's minute (server/simulator/startDemo.ts): each enabled schedule whose cron (read in its
 * zone) has come since its last run runs over its last complete period; failed runs try again;
 * files older than the setting (monitor_settings.report_keep_days, 90 days by default) are let go. Answers how many runs it started.
 */
export async function runDueReports(db: Queryable, now = Date.now()): Promise<number> {
  await failAbandonedRuns(db, ABANDONED_MIN);
  let started = 0;
  for (const schedule of await enabledSchedules(db)) {
    const due = nextRunAfter(schedule.cron, schedule.timeZone, (schedule.lastRunAt ?? schedule.createdAt).getTime());
    if (due === null || due > now) continue;
    if (!(await claimSchedule(db, schedule.id, schedule.lastRunAt, new Date(now)))) continue;
    const { runIds, done } = await startRuns(db, schedule, (zone) => previousPeriod(schedule.period, zone, now), null);
    await done;
    started += runIds.length;
  }
  for (const { id } of await retryableRuns(db, REPORT_ATTEMPTS, RETRY_WAIT_MIN)) await attemptRun(db, id);
  await pruneRunFiles(db);
  return started;
}
