import AssignmentIcon from '@mui/icons-material/Assignment';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { AFTER_SALES_FIELDS, AFTER_SALES_SORTS, afterSalesSchema, updateAfterSalesSchema } from '../../domain/afterSales';
import { fieldsBody } from '../../data/resourceEndpoints';
import type { ResourceDefinition } from '../types';
import { AFTER_SALES_COLUMNS, AFTER_SALES_FIELD_DEFS, AFTER_SALES_FILTER_DEFS } from './fields';
import { lazyView } from '../lazyView';

const M = '/supportModule/afterSales';
/** Filters of afterSales/getAll and afterSales/export (docs/api.md). */
export const AFTER_SALES_FILTERS = ['dateFrom', 'dateTo', 'classification', 'department', 'device'] as const;

/**
 * Support > After-sales Report (level 1): the form and catalogue of docs/requirements.md §3. The list (date
 * range, classification, department and device filters, Excel export) and the edit page are the
 * generic views over the declarations below.
 */
export const afterSalesResource: ResourceDefinition = {
  name: 'service/afterService',
  access: { list: PAGE_LEVELS.adminOnly },
  menu: { group: 'service', order: 20, titleKey: 'menu.afterService', icon: AssignmentIcon },
  endpoints: {
    list: { path: `${M}/getAll`, paged: true, filters: AFTER_SALES_FILTERS, sortable: AFTER_SALES_SORTS },
    one: { path: `${M}/getById` },
    create: { path: `${M}/add`, send: 'json', params: fieldsBody([...AFTER_SALES_FIELDS, 'deviceId', 'faultCode']) },
    update: { path: `${M}/update`, send: 'json', params: fieldsBody([...AFTER_SALES_FIELDS, 'deviceId', 'faultCode'], true) },
    delete: { path: `${M}/deleteById`, method: 'DELETE' },
    export: { path: `${M}/export` },
  },
  fields: AFTER_SALES_FIELD_DEFS,
  columns: AFTER_SALES_COLUMNS,
  filters: AFTER_SALES_FILTER_DEFS,
  sort: { field: 'DispatchOfData', order: 'DESC' },
  perPage: 20,
  createSchema: afterSalesSchema,
  editSchema: updateAfterSalesSchema,
  recordRepresentation: 'DeviceSn',
  defaults: () => ({ DispatchOfData: new Date().toISOString().slice(0, 10) }),
  // create: started from a fault (fault clearing's ?source= prefill), it says which fault, and validates as you type.
  views: {
    create: lazyView(
      () => import('./AfterSalesEdit'),
      (m) => m.AfterSalesCreate,
    ),
  },
};
