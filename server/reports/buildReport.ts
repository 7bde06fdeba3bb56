import type { Queryable } from '../db/connection';
import type { Principal } from '../../src/domain/levels';
import type { Language } from '../../src/domain/constants';
import { translateDomain } from '../../src/domain/messages';
import type { ReportKind, ReportRange } from '../../src/domain/reports';
import { REPORT_KINDS } from '../../src/domain/reports';
import { escapeHtml } from '../notify/delivery';
import { reportFigures, type ReportFigures } from './reportFigures';
import { headlines } from './reportHeadlines';
import { periodText, reportWorkbook } from './reportWorkbook';
import { reportPdf } from './reportPdf';

export { periodText };

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
  /** The fleet summary with its chart and the per-vessel table (server/reports/reportPdf.ts). */
  pdf: Buffer;
  subject: string;
  html: string;
  text: string;
  /** The caller's visible vessels the report covers. */
  vessels: number;
  figures: ReportFigures;
}

export async function buildReport(db: Queryable, request: ReportRequest): Promise<BuiltReport> {
  const { caller, range, lang, offsetHours, title } = request;
  const kinds = REPORT_KINDS.filter((k) => request.kinds.includes(k));
  const figures = await reportFigures(db, caller, kinds, range, offsetHours);
  const xlsx = await reportWorkbook({ lang, offsetHours }, title, kinds, range, figures);
  const pdf = await reportPdf(figures, { ...request, kinds });
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
  return { xlsx, pdf, subject, html, text, vessels: figures.vessels, figures };
}
