import type { Queryable } from '../db/connection';
import { REPORT_KINDS } from '../../src/domain/reports';
import type { ReportRequest } from './buildReport';
import { reportFigures, type ReportFigures } from './reportFigures';
import { reportPdf } from './reportPdf';

/**
 * A report's figures and PDF straight from its request, the way buildReport reads them (the kinds in
 * their fixed order). buildReport itself should call reportPdf with the figures it has already read
 * rather than this (and must not import this file: it imports buildReport's types).
 */
export async function reportFiguresOf(db: Queryable, request: ReportRequest): Promise<ReportFigures> {
  const kinds = REPORT_KINDS.filter((k) => request.kinds.includes(k));
  return reportFigures(db, request.caller, kinds, request.range, request.offsetHours);
}

export async function buildReportPdf(db: Queryable, request: ReportRequest): Promise<{ pdf: Buffer; figures: ReportFigures }> {
  const figures = await reportFiguresOf(db, request);
  return { pdf: await reportPdf(figures, request), figures };
}
