import AssignmentIcon from '@mui/icons-material/Assignment';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { AFTER_SALES_FIELDS, AFTER_SALES_SORTS, afterSalesSchema, updateAfterSalesSchema } from '../../domain/afterSales';
import type { Row } from '../../resourceEndpoints';
import type { ResourceDefinition } from '../types';
import { AfterSalesList } from './AfterSalesList';
import { AfterSalesCreate, AfterSalesEdit } from './AfterSalesEdit';

const M = '/supportModule/afterSales';
/** Filters of afterSales/getAll and afterSales/export (docs/api.md). */
export const AFTER_SALES_FILTERS = ['dateFrom', 'dateTo', 'classification', 'department', 'device'] as const;

/** The form's fields (as SPEC spells them) plus the fault it was started from; '' is "not given". */
const body = (record: Row, withId: boolean): Row => {
  const out: Row = withId ? { id: record.id } : {};
  for (const field of [...AFTER_SALES_FIELDS, 'deviceId', 'faultCode'] as const) {
    const value = record[field];
    out[field] = value === '' || value === undefined ? null : value;
  }
  return out;
};

/**
 * Support > After-sales Report (level 1): SPEC section 3's form and catalogue. The list (date
 * range, classification, department and device filters, Excel export) and the form (validated as
 * you type with the server's yup schema) are this resource's own views.
 */
export const afterSalesResource: ResourceDefinition = {
  name: 'service/afterService',
  access: { list: PAGE_LEVELS.adminOnly },
  menu: { group: 'service', order: 20, titleKey: 'menu.afterService', icon: AssignmentIcon },
  endpoints: {
    list: { path: `${M}/getAll`, paged: true, filters: AFTER_SALES_FILTERS, sortable: AFTER_SALES_SORTS },
    one: { path: `${M}/getById` },
    create: { path: `${M}/add`, send: 'json', params: (r) => body(r, false) },
    update: { path: `${M}/update`, send: 'json', params: (r) => body(r, true) },
    delete: { path: `${M}/deleteById`, method: 'DELETE' },
  },
  fields: [],
  columns: [],
  filters: ['device'],
  createSchema: afterSalesSchema,
  editSchema: updateAfterSalesSchema,
  recordRepresentation: 'DeviceSn',
  views: { list: AfterSalesList, create: AfterSalesCreate, edit: AfterSalesEdit },
};
