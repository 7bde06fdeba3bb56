import SystemUpdateIcon from '@mui/icons-material/SystemUpdateAlt';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { firmwareSchema, updateFirmwareSchema } from '../../domain/firmware';
import type { Row } from '../../resourceEndpoints';
import type { ResourceDefinition } from '../types';
import { FirmwareList } from './FirmwareList';
import { FirmwareUpload } from './FirmwareUpload';
import { FirmwareDetail } from './FirmwareDetail';

const M = '/deviceModule/firmware';
export const FIRMWARE_FILTERS = ['name', 'deviceType', 'model', 'customer', 'versionType', 'enabled', 'status'] as const;
export const FIRMWARE_SORTS = ['id', 'name', 'version', 'deviceType', 'customer', 'model', 'versionType', 'enabled', 'fileSize', 'createdAt', 'status'] as const;

const editable = (r: Row): Row => ({ id: r.id, customer: r.customer, versionType: r.versionType, enabled: r.enabled, updateInfo: r.updateInfo === '' ? null : r.updateInfo });

/**
 * System > Firmware (level 1): packages (SPEC section 3's catalogue), the upload with its progress
 * bar (multipart, not the dataProvider), and each package's page with its paced rollouts.
 */
export const firmwareResource: ResourceDefinition = {
  name: 'system/firmware',
  access: { list: PAGE_LEVELS.adminOnly },
  menu: { group: 'system', order: 50, titleKey: 'menu.firmware', icon: SystemUpdateIcon },
  endpoints: {
    list: { path: `${M}/getAll`, paged: true, filters: FIRMWARE_FILTERS, sortable: FIRMWARE_SORTS },
    one: { path: `${M}/getById` },
    // The upload view sends multipart itself (firmwareApi.upload); this entry gives the create route.
    create: { path: `${M}/add`, send: 'json' },
    update: { path: `${M}/update`, send: 'json', params: editable },
    delete: { path: `${M}/deleteById`, method: 'DELETE' },
  },
  fields: [],
  columns: [],
  filters: ['name'],
  createSchema: firmwareSchema,
  editSchema: updateFirmwareSchema,
  recordRepresentation: 'name',
  views: { list: FirmwareList, create: FirmwareUpload, edit: FirmwareDetail },
};
