import type { Queryable } from '../db/connection';
import type { Language } from '../../src/domain/constants';
import { translateDomain } from '../../src/domain/messages';
import { REPORT_ATTEMPTS, REPORT_KEEP_DAYS, nextRunAfter, previousPeriod, type ReportRange } from '../../src/domain/reports';
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
  type ScheduleRow,
} from './reportRunQueries';

/**
 * Scheduled reports (docs/architecture.md, "Scheduled reports"): a run builds the report once for
 * its schedule's zone and language, mails it with the workbook and the PDF attached to the schedule's users and
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

/** Records a run of a schedule over `range` and makes its first attempt; answers the run's id once recorded. */
export async function startRun(
  db: Queryable,
  schedule: ScheduleRow,
  range: ReportRange,
  createdBy: number | null,
): Promise<{ runId: number; done: Promise<void> }> {
  const runId = await insertRun(db, {
    ownerId: schedule.ownerId,
    scheduleId: schedule.id,
    name: schedule.name,
    kinds: schedule.kinds,
    fromMs: range.fromMs,
    toMs: range.toMs,
    timeZone: schedule.timeZone,
    language: schedule.language,
    createdBy,
  });
  return { runId, done: attemptRun(db, runId) };
}

/**
 * The leader's minute (server/simulator/startDemo.ts): each enabled schedule whose cron (read in its
 * zone) has come since its last run runs over its last complete period; failed runs try again;
 * files older than REPORT_KEEP_DAYS are let go. Answers how many runs it started.
 */
export async function runDueReports(db: Queryable, now = Date.now()): Promise<number> {
  await failAbandonedRuns(db, ABANDONED_MIN);
  let started = 0;
  for (const schedule of await enabledSchedules(db)) {
    const due = nextRunAfter(schedule.cron, schedule.timeZone, (schedule.lastRunAt ?? schedule.createdAt).getTime());
    if (due === null || due > now) continue;
    if (!(await claimSchedule(db, schedule.id, schedule.lastRunAt, new Date(now)))) continue;
    const { done } = await startRun(db, schedule, previousPeriod(schedule.period, schedule.timeZone, now), null);
    await done;
    started += 1;
  }
  for (const { id } of await retryableRuns(db, REPORT_ATTEMPTS, RETRY_WAIT_MIN)) await attemptRun(db, id);
  await pruneRunFiles(db, REPORT_KEEP_DAYS);
  return started;
}
