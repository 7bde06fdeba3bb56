import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { deviceAuthGrantSchema, updateDeviceAuthGrantSchema } from '../../domain/deviceSchemas';
import type { Row } from '../../resourceEndpoints';
import type { ResourceDefinition } from '../types';
import { DeviceAuthCreate, DeviceAuthEdit, DeviceAuthList } from './DeviceAuthViews';

const M = '/deviceModule/deviceAuth';
const FIELDS = ['enterpriseId', 'deviceId', 'feature', 'deviceCount', 'subscriptionQuantity', 'deadline'] as const;
const grantBody = (record: Row, withId: boolean): Row => {
  const out: Row = withId ? { id: record.id } : {};
  for (const field of FIELDS) out[field] = record[field] === '' || record[field] === undefined ? null : record[field];
  return out;
};

/**
 * System > Device Auth (level 1): which lockable features (src/domain/features.ts) an enterprise,
 * or one of its devices, has unlocked, with device count, subscription quantity and deadline.
 */
export const deviceAuthResource: ResourceDefinition = {
  name: 'system/deviceAuth',
  access: { list: PAGE_LEVELS.adminOnly },
  menu: { group: 'system', order: 60, titleKey: 'menu.deviceAuth', icon: VerifiedUserIcon },
  endpoints: {
    list: { path: `${M}/getAll`, paged: true, filters: ['enterpriseId', 'deviceId', 'feature'], sortable: [] },
    one: { path: `${M}/getById` },
    create: { path: `${M}/add`, send: 'json', params: (r) => grantBody(r, false) },
    update: { path: `${M}/update`, send: 'json', params: (r) => grantBody(r, true) },
    delete: { path: `${M}/deleteById`, method: 'DELETE' },
  },
  fields: [],
  columns: [],
  filters: [],
  createSchema: deviceAuthGrantSchema,
  editSchema: updateDeviceAuthGrantSchema,
  recordRepresentation: 'enterpriseName',
  views: { list: DeviceAuthList, create: DeviceAuthCreate, edit: DeviceAuthEdit },
};
