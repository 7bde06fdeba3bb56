import type { Queryable } from '../db/connection';
import type { Principal } from '../../src/domain/levels';
import type { Language } from '../../src/domain/constants';
import { translateDomain } from '../../src/domain/messages';
import type { ReportKind, ReportRange } from '../../src/domain/reports';
import { REPORT_KINDS } from '../../src/domain/reports';
import { escapeHtml } from '../notify/delivery';
import { reportFigures } from './reportFigures';
import { headlines } from './reportHeadlines';
import { atZone, reportWorkbook } from './reportWorkbook';

/**
 * The content of a scheduled report (docs/requirements.md, "Reports"): its Excel workbook and its
 * mail, over a past range, for the caller's visible vessels, in the recipient's language and zone.
 * Every figure is read set-based (server/reports/reportQueries.ts and the statistics module), so a
 * fleet of 10,000 vessels costs a few statements, never one per vessel.
 */
export interface ReportRequest {
  caller: Principal;
  kinds: readonly ReportKind[];
  range: ReportRange;
  lang: Language;
  /** The recipient's UTC offset in whole hours: dates are written in it. */
  offsetHours: number;
  /** The report's title, e.g. "周报" / "Weekly report" (subject and Summary sheet). */
  title: string;
}

export interface BuiltReport {
  xlsx: Buffer;
  subject: string;
  html: string;
  text: string;
  /** The caller's visible vessels the report covers. */
  vessels: number;
}

const dateAt = (ms: number, offsetHours: number) => atZone(ms, offsetHours).toISOString().slice(0, 10);

/** "2026-11-16 – 2026-11-22" (the range's first and last local day), or one date for one day. */
export function periodText(range: ReportRange, offsetHours: number): string {
  const from = dateAt(range.fromMs, offsetHours);
  const last = dateAt(Math.max(range.fromMs, range.toMs - 1), offsetHours);
  return from === last ? from : `${from} – ${last}`;
}

export async function buildReport(db: Queryable, request: ReportRequest): Promise<BuiltReport> {
  const { caller, range, lang, offsetHours, title } = request;
  const kinds = REPORT_KINDS.filter((k) => request.kinds.includes(k));
  const figures = await reportFigures(db, caller, kinds, range, offsetHours);
  const xlsx = await reportWorkbook({ lang, offsetHours }, title, kinds, range, figures);
  const subject = translateDomain(lang, 'report.mail.subject', { title, period: periodText(range, offsetHours) });
  const lines = headlines(lang, figures).filter((h) => h.mail);
  const attached = translateDomain(lang, 'report.mail.attached');
  const text = [subject, '', ...lines.map((h) => `${h.label}: ${h.text}`), '', attached].join('\n');
  const cell = 'padding:4px 12px;border-bottom:1px solid #e0e0e0';
  const rows = lines
    .map(
      (h) =>
        `<tr><th style="${cell};text-align:left;font-weight:normal;color:#555">${escapeHtml(h.label)}</th>` +
        `<td style="${cell};text-align:right;font-weight:bold">${escapeHtml(h.text)}</td></tr>`,
    )
    .join('');
  const html =
    `<div style="font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#222">` +
    `<h3 style="margin:0 0 12px">${escapeHtml(subject)}</h3>` +
    `<table style="border-collapse:collapse">${rows}</table>` +
    `<p style="color:#555">${escapeHtml(attached)}</p></div>`;
  return { xlsx, subject, html, text, vessels: figures.vessels };
}
