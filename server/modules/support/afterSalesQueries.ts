import type { Queryable } from '../../db/connection';
import type { AfterSalesInput } from '../../../src/domain/afterSales';
import { containsPattern } from '../../db/likePattern';

/** The API's field (as docs/requirements.md §3 spells it) -> its column. */
export const AFTER_SALES_COLUMNS = {
  DeviceModel: 'device_model',
  DeviceSn: 'device_sn',
  FeedbackApartment: 'feedback_apartment',
  FeedbackPeople: 'feedback_people',
  Customer: 'customer',
  DeviceNum: 'device_num',
  DispatchOfData: 'dispatch_of_data',
  CustomerSuggestion: 'customer_suggestion',
  Classification: 'classification',
  Description: 'description',
  Department: 'department',
  Reamrk: 'reamrk',
  deviceId: 'device_id',
  faultCode: 'fault_code',
} as const;
type Writable = keyof typeof AFTER_SALES_COLUMNS;
const WRITABLE = Object.keys(AFTER_SALES_COLUMNS) as Writable[];

const SELECT = `SELECT r.id, r.device_model AS "DeviceModel", r.device_sn AS "DeviceSn", r.feedback_apartment AS "FeedbackApartment",
  r.feedback_people AS "FeedbackPeople", r.customer AS "Customer", r.device_num AS "DeviceNum",
  to_char(r.dispatch_of_data, 'YYYY-MM-DD') AS "DispatchOfData", r.customer_suggestion AS "CustomerSuggestion",
  r.classification AS "Classification", r.description AS "Description", r.department AS "Department", r.reamrk AS "Reamrk",
  r.device_id AS "deviceId", r.fault_code AS "faultCode", r.reporter_id AS "reporterId", u.name AS "reporterName",
  r.created_at AS "createdAt", r.updated_at AS "updatedAt"
  FROM after_sales_reports r LEFT JOIN users u ON u.id = r.reporter_id`;

export interface AfterSalesReport extends Record<string, unknown> {
  id: number;
}

export interface AfterSalesFilter {
  dateFrom?: string;
  dateTo?: string;
  classification?: string;
  department?: string;
  device?: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** Sortable fields -> their SQL (a whitelist: user text never reaches the statement). */
const SORTS: Record<string, string> = {
  id: 'r.id',
  DispatchOfData: 'r.dispatch_of_data',
  FeedbackPeople: 'r.feedback_people',
  FeedbackApartment: 'r.feedback_apartment',
  Classification: 'r.classification',
  Department: 'r.department',
  createdAt: 'r.created_at',
};

function whereOf(filter: AfterSalesFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const where: string[] = [];
  if (filter.dateFrom) where.push(`r.dispatch_of_data >= $${params.push(filter.dateFrom)}::date`);
  if (filter.dateTo) where.push(`r.dispatch_of_data <= $${params.push(filter.dateTo)}::date`);
  if (filter.classification) where.push(`r.classification = ANY($${params.push(filter.classification.split(','))}::text[])`);
  if (filter.department) {
    const i = params.push(containsPattern(filter.department));
    where.push(`(r.department ILIKE $${i} OR r.feedback_apartment ILIKE $${i})`);
  }
  if (filter.device)
    where.push(`(r.device_sn ILIKE $${params.push(containsPattern(filter.device))} OR r.device_num ILIKE $${params.length})`);
  return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

const orderOf = (filter: AfterSalesFilter) =>
  `ORDER BY ${SORTS[filter.sort ?? 'id'] ?? 'r.id'} ${filter.order === 'asc' ? 'ASC' : 'DESC'}, r.id ${filter.order === 'asc' ? 'ASC' : 'DESC'}`;

export async function listReports(db: Queryable, filter: AfterSalesFilter, limit: number, offset: number) {
  const { sql, params } = whereOf(filter);
  const [count] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM after_sales_reports r ${sql}`, params);
  const list = await db.query<AfterSalesReport>(
    `${SELECT} ${sql} ${orderOf(filter)} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { list, total: count!.total };
}

export async function findReport(db: Queryable, id: number): Promise<AfterSalesReport | undefined> {
  const [row] = await db.query<AfterSalesReport>(`${SELECT} WHERE r.id = $1`, [id]);
  return row;
}

const valuesOf = (input: AfterSalesInput) => WRITABLE.map((f) => (input[f] === '' || input[f] === undefined ? null : input[f]));

export async function insertReport(db: Queryable, input: AfterSalesInput, reporterId: number): Promise<number> {
  const values = valuesOf(input);
  const cols = WRITABLE.map((f) => AFTER_SALES_COLUMNS[f]).join(', ');
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO after_sales_reports (${cols}, reporter_id) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')}, $${values.length + 1}) RETURNING id`,
    [...values, reporterId],
  );
  return row!.id;
}

export async function updateReport(db: Queryable, id: number, input: AfterSalesInput): Promise<void> {
  const values = valuesOf(input);
  const sets = WRITABLE.map((f, i) => `${AFTER_SALES_COLUMNS[f]} = $${i + 2}`).join(', ');
  await db.query(`UPDATE after_sales_reports SET ${sets}, updated_at = now() WHERE id = $1`, [id, ...values]);
}

/** Deletes a report; answers whether there was one. */
export async function deleteReport(db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query('DELETE FROM after_sales_reports WHERE id = $1 RETURNING id', [id]);
  return rows.length > 0;
}
