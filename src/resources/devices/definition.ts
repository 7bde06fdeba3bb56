import RouterIcon from '@mui/icons-material/Router';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { DEVICE_EDITORS } from '../../domain/levels';
import { DEVICE_FIELDS, deviceSchema, updateDeviceSchema } from '../../domain/deviceSchemas';
import { fieldsBody } from '../../data/resourceEndpoints';
import { DEVICES_RESOURCE } from '../../data/resourceNames';
import type { ResourceDefinition } from '../types';
import { DEVICE_COLUMNS, DEVICE_FIELD_DEFS, DEVICE_FILTER_DEFS, DEVICE_SORT } from './fields';
import { lazyView } from '../lazyView';
import { ErrorCode } from '../../domain/errorCodes';

const M = '/deviceModule/device';
/** Filters of device/getAll (and device/export), docs/api.md. */
export const DEVICE_FILTERS = ['search', 'deviceKind', 'deviceType', 'ownerId', 'ownerSubId', 'status', 'activated', 'groupId'] as const;
const FORM_SHOWS = [ErrorCode.Validation, ErrorCode.Duplicate];
export const DEVICE_SORTS = ['id', 'name', 'deviceKind', 'deviceType', 'status', 'activated', 'ownerId'] as const;

/** Only the device fields go to add/update (update is a full replacement); empty text is "not given". */

/**
 * System > Device (levels 1, 2, 3; writes 1, 2): the device catalogue of docs/requirements.md §3. Fields,
 * columns, filters and sort are declared here (src/resources/devices/fields.ts) and the overridden
 * views render from them; the list view brings its own bulk actions (DeviceBulkActions.tsx), so the
 * definition stays data that the server can read without loading the console's components.
 */
export const devicesResource: ResourceDefinition = {
  name: DEVICES_RESOURCE,
  access: { list: PAGE_LEVELS.all, create: DEVICE_EDITORS, edit: DEVICE_EDITORS, delete: DEVICE_EDITORS },
  menu: { group: 'system', order: 20, titleKey: 'menu.deviceManagement', icon: RouterIcon },
  endpoints: {
    list: { path: `${M}/getAll`, paged: true, filters: DEVICE_FILTERS, sortable: DEVICE_SORTS },
    one: { path: `${M}/getById` },
    // Field errors and duplicates are shown under their fields by the form (DeviceEdit.tsx), not as a message.
    create: { path: `${M}/add`, send: 'json', params: fieldsBody(DEVICE_FIELDS), quiet: FORM_SHOWS },
    update: { path: `${M}/update`, send: 'json', params: fieldsBody(DEVICE_FIELDS, true), quiet: FORM_SHOWS },
    delete: { path: `${M}/deleteById`, method: 'DELETE' },
  },
  fields: DEVICE_FIELD_DEFS,
  columns: DEVICE_COLUMNS,
  filters: DEVICE_FILTER_DEFS,
  sort: DEVICE_SORT,
  perPage: 20,
  createSchema: deviceSchema,
  editSchema: updateDeviceSchema,
  defaults: () => ({ ownerSubId: 0 }),
  recordRepresentation: 'name',
  // list: status icons, pin star, import/export, "about N" estimated totals and per-level filters/columns;
  // create/edit: the owner/sub-owner cascade, sectioned form, read-only for sub-users, validated as you type.
  views: {
    list: lazyView(
      () => import('./DeviceList'),
      (m) => m.DeviceList,
    ),
    create: lazyView(
      () => import('./DeviceEdit'),
      (m) => m.DeviceCreate,
    ),
    edit: lazyView(
      () => import('./DeviceEdit'),
      (m) => m.DeviceEdit,
    ),
  },
};
