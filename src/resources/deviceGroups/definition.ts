import GroupWorkIcon from '@mui/icons-material/GroupWork';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { DEVICE_EDITORS, Level } from '../../domain/levels';
import { deviceGroupSchema, updateDeviceGroupSchema } from '../../domain/deviceSchemas';
import type { ResourceDefinition } from '../types';
import { lazyView } from '../lazyView';
import { ENTERPRISE_REFERENCE } from '../references';

const M = '/deviceModule/deviceGroup';

/** The resource's words are the device catalogue's group strings (no new keys). */
/**
 * Live Monitor > Device Group (levels 1, 2, 3; writes 1, 2 as deviceGroup/add, update, deleteById
 * allow): the list is getGroupList (Special Focus -1 and Ungrouped Device 0 first, then the
 * groups). The list view is overridden because the page is master-detail (groups on the left,
 * the selected group's devices with pin/unpin/move on the right, create/rename in a dialog).
 */
export const deviceGroupsResource: ResourceDefinition = {
  name: 'device/deviceData',
  access: { list: PAGE_LEVELS.all, show: PAGE_LEVELS.all, create: DEVICE_EDITORS, edit: DEVICE_EDITORS, delete: DEVICE_EDITORS },
  menu: { group: 'device', order: 10, titleKey: 'menu.deviceData', icon: GroupWorkIcon },
  endpoints: {
    list: { path: `${M}/getGroupList`, paged: false, filters: [], matchHere: ['name', 'ownerId'] },
    one: { path: `${M}/getById` },
    create: {
      path: `${M}/add`,
      send: 'json',
      params: (r) => ({ name: typeof r.name === 'string' ? r.name.trim() : r.name, ...(r.ownerId ? { ownerId: Number(r.ownerId) } : {}) }),
    },
    update: {
      path: `${M}/update`,
      send: 'json',
      params: (r) => ({ id: Number(r.id), name: typeof r.name === 'string' ? r.name.trim() : r.name }),
    },
    delete: { path: `${M}/deleteById`, method: 'DELETE' },
  },
  fields: [
    {
      source: 'ownerId',
      kind: 'reference',
      reference: ENTERPRISE_REFERENCE,
      on: { create: true },
      when: (_values, level) => level === Level.Admin,
    },
    { source: 'name', kind: 'text', on: { create: true, edit: true } },
  ],
  columns: [{ source: 'name' }, { source: 'deviceCount', kind: 'number' }, { source: 'ownerName' }],
  filters: ['name'],
  createSchema: deviceGroupSchema,
  editSchema: updateDeviceGroupSchema,
  recordRepresentation: 'name',
  views: {
    list: lazyView(
      () => import('./DeviceGroupsList'),
      (m) => m.DeviceGroupsList,
    ),
  },
};
