import SystemUpdateIcon from '@mui/icons-material/SystemUpdateAlt';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { firmwareSchema, updateFirmwareSchema } from '../../domain/firmware';
import type { Row } from '../../data/resourceEndpoints';
import type { ResourceDefinition } from '../types';
import { FIRMWARE_COLUMNS, FIRMWARE_FIELDS, FIRMWARE_FILTER_DEFS, FIRMWARE_SORT } from './fields';
import { lazyView } from '../lazyView';

const M = '/deviceModule/firmware';
export const FIRMWARE_FILTERS = ['name', 'deviceType', 'model', 'customer', 'versionType', 'enabled', 'status'] as const;
export const FIRMWARE_SORTS = [
  'id',
  'name',
  'version',
  'deviceType',
  'customer',
  'model',
  'versionType',
  'enabled',
  'fileSize',
  'createdAt',
  'status',
] as const;

const editable = (r: Row): Row => ({
  id: r.id,
  customer: r.customer,
  versionType: r.versionType,
  enabled: r.enabled,
  updateInfo: r.updateInfo === '' || r.updateInfo === undefined ? null : r.updateInfo,
});

/**
 * System > Firmware (level 1): packages (the catalogue of docs/requirements.md §3), the upload with its progress
 * bar, and each package's page with its paced rollouts.
 * Overrides, and why:
 * - list: an enable switch in the row (firmware/setEnabled), the status with its updated/total count, sizes in units, a "Roll out" link to the package page;
 * - create: the upload is multipart with a real progress bar and a cancel (firmwareApi.upload over XMLHttpRequest), not the dataProvider's JSON create;
 * - edit: the package page: the package, its rollouts polled while devices update, a new rollout, and the edit of the fields below in a dialog (useUpdate).
 */
export const firmwareResource: ResourceDefinition = {
  name: 'system/firmware',
  access: { list: PAGE_LEVELS.adminOnly },
  menu: { group: 'system', order: 50, titleKey: 'menu.firmware', icon: SystemUpdateIcon },
  endpoints: {
    list: { path: `${M}/getAll`, paged: true, filters: FIRMWARE_FILTERS, sortable: FIRMWARE_SORTS },
    one: { path: `${M}/getById` },
    // The upload view sends multipart itself (dataProvider.call('firmware', 'upload')); this entry gives the create route.
    create: { path: `${M}/add`, send: 'json' },
    update: { path: `${M}/update`, send: 'json', params: editable },
    delete: { path: `${M}/deleteById`, method: 'DELETE' },
  },
  fields: FIRMWARE_FIELDS,
  columns: FIRMWARE_COLUMNS,
  filters: FIRMWARE_FILTER_DEFS,
  sort: FIRMWARE_SORT,
  perPage: 20,
  createSchema: firmwareSchema,
  editSchema: updateFirmwareSchema,
  recordRepresentation: 'name',
  views: {
    list: lazyView(
      () => import('./FirmwareList'),
      (m) => m.FirmwareList,
    ),
    create: lazyView(
      () => import('./FirmwareUpload'),
      (m) => m.FirmwareUpload,
    ),
    edit: lazyView(
      () => import('./FirmwareDetail'),
      (m) => m.FirmwareDetail,
    ),
  },
};
