import type { FastifyReply } from 'fastify';

export type CellValue = string | number | null;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Text a spreadsheet would run as a formula (=, +, -, @) is written as text. */
export const safeCell = <T extends CellValue>(value: T): T | string =>
  typeof value === 'string' && /^[=+\-@]/.test(value) ? `'${value}` : value;

/** A file download named `{base}-{UTC stamp}.{ext}`. */
export function attachment(reply: FastifyReply, base: string, ext: string, type: string) {
  const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
  return reply.header('content-disposition', `attachment; filename="${base}-${stamp}.${ext}"`).type(type);
}
