import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { ErrorCode } from '../../src/domain/errorCodes';
import { previousPeriod } from '../../src/domain/reports';
import { runDueReports } from '../../server/reports/reportService';
import { createTestServer, engines, type TestServer } from './helpers';

/**
 * Scheduled reports (docs/api.md, "Reports"): a schedule written through its declared routes, run
 * now or when its cron comes (by the leader's minute), mailed with its workbook to a real SMTP
 * server, recorded with its state and file, downloadable by its enterprise only; a run that cannot
 * be mailed fails with the reason and is tried again.
 */
const mails: ParsedMail[] = [];
let smtp: SMTPServer;
let smtpPort = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, callback) => {
      simpleParser(stream)
        .then((mail) => mails.push(mail))
        .then(() => callback(), callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

describe.each(engines)('scheduled reports (%s)', (engine) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  const S = (path: string) => `${s.base}/supportModule/${path}`;
  const call = (who: string, path: string, options: { method?: 'GET' | 'POST'; payload?: object; lang?: 'zh' | 'en' } = {}) =>
    s.call({ url: S(path), token: tokens[who], method: options.method ?? 'GET', payload: options.payload, lang: options.lang ?? 'en' });
  const runOf = async (who: string, id: number) => (await call(who, `reportRun/getById?id=${id}`)).data;
  const settled = (who: string, id: number) =>
    vi.waitFor(
      async () => {
        const run = await runOf(who, id);
        expect(run.state).not.toBe('running');
        return run;
      },
      { timeout: 20_000, interval: 100 },
    );
  let scheduleId = 0;

  beforeAll(async () => {
    // Runs are numbered per database: each engine reads only its own mails.
    mails.length = 0;
    s = await createTestServer(engine);
    for (const name of ['admin', 'polaris', 'oceanic', 'oceanops']) tokens[name] = await s.login(name);
    await s.db.query(`UPDATE users SET email = 'fleet@polaris.example' WHERE name = 'polaris'`);
  });
  afterAll(() => s.close());

  it('refuses a bad schedule field by field, in the caller language', async () => {
    const bad = await call('polaris', 'reportSchedule/add', {
      method: 'POST',
      lang: 'zh',
      payload: { name: 'Weekly', kinds: ['availability', 'weather'], period: 'year', cron: '61 7 * * 1', language: 'zh', timeZone: 14 },
    });
    expect(bad.code).toBe(ErrorCode.Validation);
    const fields = Object.fromEntries(bad.data.map((e: { field: string; message: string }) => [e.field, e.message]));
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['period', 'cron', 'timeZone', 'userIds']));
    expect(fields.cron).toContain('分 时 日 月 周');
    expect(fields.timeZone).toMatch(/[\u4e00-\u9fff]/);
    // A user of another enterprise is refused as a recipient.
    const [oceanic] = await s.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'oceanic'`);
    const foreign = await call('polaris', 'reportSchedule/add', {
      method: 'POST',
      payload: {
        name: 'Weekly',
        kinds: ['alarms'],
        period: 'week',
        cron: '0 7 * * 1',
        language: 'en',
        timeZone: 8,
        userIds: [oceanic!.id],
      },
    });
    expect(foreign.code).toBe(ErrorCode.Validation);
    expect(foreign.data[0].field).toBe('userIds');
  });

  it('runs a schedule now and mails its workbook; the run is recorded and downloads for its enterprise only', async () => {
    const [polaris] = await s.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'polaris'`);
    // No mail server yet: the run fails and says why, in the schedule's language.
    const added = await call('polaris', 'reportSchedule/add', {
      method: 'POST',
      payload: {
        name: 'Owner weekly',
        kinds: ['availability', 'alarms', 'commands'],
        period: 'week',
        cron: '0 7 * * 1',
        language: 'zh',
        timeZone: 8,
        userIds: [polaris!.id],
      },
    });
    expect(added.code).toBe(ErrorCode.Ok);
    scheduleId = added.data.id;
    const first = await call('polaris', `reportSchedule/runNow?id=${scheduleId}`, { method: 'POST' });
    expect(first.code).toBe(ErrorCode.Ok);
    const failed = await settled('polaris', first.data.runId);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.error).toContain('邮件服务器');

    const server = await call('admin', 'mailServer/add', {
      method: 'POST',
      payload: {
        name: 'Office',
        host: '127.0.0.1',
        port: smtpPort,
        secure: false,
        fromAddress: 'reports@fleet.example.com',
        enabled: true,
      },
    });
    expect(server.code).toBe(ErrorCode.Ok);
    // The failed run tries again once its wait is over (the leader's minute), and goes through.
    await s.db.query(`UPDATE report_runs SET started_at = now() - interval '6 minutes' WHERE id = $1`, [first.data.runId]);
    await runDueReports(s.db);
    const retried = await runOf('polaris', first.data.runId);
    expect(retried).toMatchObject({ state: 'done', attempts: 2, recipients: 1, error: null });

    const mail = mails.find((m) => m.headers.get('x-fleet-report') === String(first.data.runId))!;
    expect(mail).toBeDefined();
    expect((mail.to as { text: string }).text).toBe('fleet@polaris.example');
    const attachment = mail.attachments[0]!;
    expect(attachment.filename).toMatch(/^report-\d+-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(attachment.content as unknown as ArrayBuffer);
    expect(book.worksheets.length).toBe(4);
    // The period is last week, Monday to Monday at UTC+8.
    const week = previousPeriod('week', 8);
    expect(new Date(retried.periodFrom).getTime()).toBe(week.fromMs);
    expect(new Date(retried.periodTo).getTime()).toBe(week.toMs);

    const file = await s.app.inject({ url: `${S('reportRun/download')}?id=${first.data.runId}&token=${tokens.polaris}` });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(attachment.content)).toBe(true);
    // The PDF goes with it, and downloads too.
    const pdf = mail.attachments[1]!;
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdf.filename).toBe(attachment.filename!.replace(/\.xlsx$/, '.pdf'));
    const pdfFile = await s.app.inject({ url: `${S('reportRun/download')}?id=${first.data.runId}&format=pdf&token=${tokens.polaris}` });
    expect(pdfFile.headers['content-type']).toBe('application/pdf');
    expect(pdfFile.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdfFile.rawPayload.equals(pdf.content)).toBe(true);
    const foreign = await call('oceanic', `reportRun/download?id=${first.data.runId}`);
    expect(foreign.code).toBe(ErrorCode.NotFound);
    expect((await call('oceanic', `reportRun/getById?id=${first.data.runId}`)).code).toBe(ErrorCode.NotFound);
    expect((await call('oceanic', `reportSchedule/runNow?id=${scheduleId}`, { method: 'POST' })).code).toBe(ErrorCode.NotFound);
    expect((await call('oceanops', 'reportRun/getAll')).code).toBe(ErrorCode.Forbidden);
  });

  it('runs a past range of days, and refuses a range that is not one', async () => {
    const ok = await call('polaris', `reportSchedule/runNow?id=${scheduleId}&from=2026-11-01&to=2026-11-10`, { method: 'POST' });
    expect(ok.code).toBe(ErrorCode.Ok);
    const run = await settled('polaris', ok.data.runId);
    expect(run.state).toBe('done');
    expect(new Date(run.periodFrom).toISOString()).toBe('2026-10-31T16:00:00.000Z');
    expect(new Date(run.periodTo).toISOString()).toBe('2026-11-10T16:00:00.000Z');
    for (const [query, field] of [
      ['&from=2026-11-10&to=2026-11-01', 'to'],
      ['&from=2026-02-30&to=2026-03-02', 'from'],
      ['&from=2099-01-01&to=2099-01-02', 'from'],
      ['&from=2026-11-01', 'to'],
    ] as const) {
      const refused = await call('polaris', `reportSchedule/runNow?id=${scheduleId}${query}`, { method: 'POST', lang: 'zh' });
      expect(refused.code, query).toBe(ErrorCode.Validation);
      expect(refused.data[0].field, query).toBe(field);
    }
  });

  it("with each recipient's own zone, builds the report once per zone and language and mails each group its own", async () => {
    const [polaris] = await s.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'polaris'`);
    const users = await s.db.query<{ id: number; email: string }>(
      `INSERT INTO users (name, nickname, password_hash, permission_level, parent_id, email, language, time_zone_offset)
       SELECT 'zoned' || g, 'Zoned ' || g, 'x', '3', $1, 'zoned' || g || '@polaris.example', l, z
         FROM unnest(ARRAY[1, 2, 3, 4], ARRAY['zh', 'zh', 'en', NULL], ARRAY[8, 8, -5, NULL]) AS u(g, l, z)
       RETURNING id, email`,
      [polaris!.id],
    );
    const added = await call('polaris', 'reportSchedule/add', {
      method: 'POST',
      payload: {
        name: 'Zoned daily',
        kinds: ['availability'],
        period: 'day',
        cron: '0 6 * * *',
        language: 'en',
        timeZone: 0,
        userIds: users.map((u) => u.id),
        recipientZones: true,
      },
    });
    expect(added.code).toBe(ErrorCode.Ok);
    const started = await call('polaris', `reportSchedule/runNow?id=${added.data.id}`, { method: 'POST' });
    expect(started.code).toBe(ErrorCode.Ok);
    // Four recipients, three (zone, language) pairs: UTC-5 in English, UTC (the schedule's, for the one never logged in), UTC+8 in Chinese.
    expect(started.data.runIds).toHaveLength(3);
    const runs = [];
    for (const id of started.data.runIds) runs.push(await settled('polaris', id));
    expect(runs.map((r) => [r.state, r.timeZone, r.language, r.recipients])).toEqual([
      ['done', -5, 'en', 1],
      ['done', 0, 'en', 1],
      ['done', 8, 'zh', 2],
    ]);
    for (const run of runs) {
      const period = previousPeriod('day', run.timeZone);
      expect([new Date(run.periodFrom).getTime(), new Date(run.periodTo).getTime()]).toEqual([period.fromMs, period.toMs]);
      const mail = mails.find((m) => m.headers.get('x-fleet-report') === String(run.id))!;
      const to = (Array.isArray(mail.to) ? mail.to : [mail.to!]).flatMap((a) => a.value.map((v) => v.address)).sort();
      const expected = {
        '-5': ['zoned3@polaris.example'],
        '0': ['zoned4@polaris.example'],
        '8': ['zoned1@polaris.example', 'zoned2@polaris.example'],
      };
      expect(to).toEqual(expected[String(run.timeZone) as keyof typeof expected]);
      expect(/[\u4e00-\u9fff]/.test(mail.text ?? '')).toBe(run.language === 'zh');
    }
  });

  it('runs a schedule once when its cron comes, over its last period, and not again until the next', async () => {
    const added = await call('polaris', 'reportSchedule/add', {
      method: 'POST',
      payload: {
        name: 'Daily',
        kinds: ['alarms'],
        period: 'day',
        cron: '0 6 * * *',
        language: 'en',
        timeZone: 0,
        userIds: [],
        contactPointIds: [],
      },
    });
    // A schedule needs someone to send to.
    expect(added.code).toBe(ErrorCode.Validation);
    const [polaris] = await s.db.query<{ id: number }>(`SELECT id FROM users WHERE name = 'polaris'`);
    const daily = await call('polaris', 'reportSchedule/add', {
      method: 'POST',
      payload: { name: 'Daily', kinds: ['alarms'], period: 'day', cron: '0 6 * * *', language: 'en', timeZone: 0, userIds: [polaris!.id] },
    });
    expect(daily.code).toBe(ErrorCode.Ok);
    const id = daily.data.id;
    const today6 = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate(), 6);
    // Created the evening before: due at 06:00, not before.
    await s.db.query(`UPDATE report_schedules SET created_at = to_timestamp($2::float8 / 1000) WHERE id = $1`, [
      id,
      today6 - 12 * 3_600_000,
    ]);
    const count = async () =>
      (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM report_runs WHERE schedule_id = $1`, [id]))[0]!.n;
    await runDueReports(s.db, today6 - 60_000);
    expect(await count()).toBe(0);
    await runDueReports(s.db, today6 + 60_000);
    expect(await count()).toBe(1);
    await runDueReports(s.db, today6 + 120_000);
    expect(await count()).toBe(1);
    const [run] = (await call('polaris', `reportRun/getAll?scheduleId=${id}`)).data.list;
    expect(run).toMatchObject({ state: 'done', name: 'Daily' });
    expect(new Date(run.periodTo).getTime()).toBe(today6 - 6 * 3_600_000);
    const mail = mails.find((m) => m.headers.get('x-fleet-report') === String(run.id))!;
    expect(mail.subject).toContain('Daily');
  });

  it("lets a run's files go after the admin's setting, and keeps the run's record", async () => {
    const settings = (token: string, payload: object) =>
      s.call({ method: 'POST', url: `${s.base}/deviceModule/monitor/updateSettings`, token, payload, lang: 'zh' });
    const bad = await settings(tokens.admin!, { reportKeepDays: 0 });
    expect(bad.code).toBe(ErrorCode.Validation);
    expect(bad.data[0].field).toBe('reportKeepDays');
    expect(bad.data[0].message).toContain('3650');
    expect((await settings(tokens.polaris!, { reportKeepDays: 5 })).code).toBe(ErrorCode.Forbidden);
    const set = await settings(tokens.admin!, { reportKeepDays: 5 });
    expect(set.code).toBe(ErrorCode.Ok);
    expect(set.data.reportKeepDays).toBe(5);
    const [young, old] = await s.db.query<{ id: number }>(
      `SELECT r.id::float8 AS id FROM report_runs r JOIN users u ON u.id = r.owner_id WHERE u.name = 'polaris' AND r.file IS NOT NULL ORDER BY r.id LIMIT 2`,
    );
    await s.db.query(`UPDATE report_runs SET created_at = now() - interval '6 days' WHERE id = $1`, [old!.id]);
    await s.db.query(`UPDATE report_runs SET created_at = now() - interval '4 days' WHERE id = $1`, [young!.id]);
    await runDueReports(s.db);
    const gone = await call('polaris', `reportRun/download?id=${old!.id}`, { lang: 'zh' });
    expect(gone.code).toBe(ErrorCode.NotFound);
    expect(gone.msg).toMatch(/[\u4e00-\u9fff]/);
    expect((await runOf('polaris', old!.id)).state).toBe('done');
    const kept = await s.app.inject({ url: `${S('reportRun/download')}?id=${young!.id}&token=${tokens.polaris}` });
    expect(kept.statusCode).toBe(200);
    expect(kept.rawPayload.length).toBeGreaterThan(1000);
  });
});
