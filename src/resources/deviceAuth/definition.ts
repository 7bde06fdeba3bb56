import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { deviceAuthGrantSchema, updateDeviceAuthGrantSchema } from '../../domain/deviceSchemas';
import { FEATURES, FEATURE_KEYS } from '../../domain/features';
import { fieldsBody } from '../../data/resourceEndpoints';
import type { Choice, ReferenceDef, ResourceDefinition } from '../types';
import { ENTERPRISE_REFERENCE, VESSEL_REFERENCE } from '../references';

const M = '/deviceModule/deviceAuth';
const FIELDS = ['enterpriseId', 'deviceId', 'feature', 'deviceCount', 'subscriptionQuantity', 'deadline'] as const;

const featureChoices: readonly Choice[] = FEATURES.map((id) => ({ id, nameKey: FEATURE_KEYS[id] }));
/**
 * Only enterprises hold grants; one device of it (none: every device of the enterprise), which the
 * server checks is the enterprise's: the device picker (and the list's device filter) offers only the
 * devices of the enterprise named (device/getAll's ownerId).
 */
const enterprise = ENTERPRISE_REFERENCE;
const device: ReferenceDef = { ...VESSEL_REFERENCE, filterFrom: { ownerId: 'enterpriseId' } };

/**
 * System > Device Auth (level 1): which lockable features (src/domain/features.ts) an enterprise,
 * or one of its devices, has unlocked, with device count, subscription quantity and deadline.
 * Every view is the generic one.
 */
export const deviceAuthResource: ResourceDefinition = {
  name: 'system/deviceAuth',
  access: { list: PAGE_LEVELS.adminOnly },
  menu: { group: 'system', order: 60, titleKey: 'menu.deviceAuth', icon: VerifiedUserIcon },
  endpoints: {
    // The server orders grants itself (enterprise, feature, id): nothing is sortable.
    list: { path: `${M}/getAll`, paged: true, filters: ['enterpriseId', 'deviceId', 'feature'], sortable: [] },
    one: { path: `${M}/getById` },
    create: { path: `${M}/add`, send: 'json', params: fieldsBody(FIELDS) },
    update: { path: `${M}/update`, send: 'json', params: fieldsBody(FIELDS, true) },
    delete: { path: `${M}/deleteById`, method: 'DELETE' },
  },
  fields: [
    { source: 'enterpriseId', kind: 'reference', reference: enterprise, on: { create: true, edit: true } },
    { source: 'deviceId', kind: 'reference', reference: device, on: { create: true, edit: true } },
    { source: 'feature', kind: 'select', choices: featureChoices, on: { create: true, edit: true } },
    { source: 'deviceCount', kind: 'number', min: 0, step: 1, on: { create: true, edit: true } },
    { source: 'subscriptionQuantity', kind: 'number', min: 0, step: 1, on: { create: true, edit: true } },
    { source: 'deadline', kind: 'date', on: { create: true, edit: true } },
  ],
  columns: [
    { source: 'enterpriseName' },
    { source: 'deviceName' },
    { source: 'feature', kind: 'choice', choicePrefix: 'feature.' },
    { source: 'deviceCount', kind: 'number' },
    { source: 'subscriptionQuantity', kind: 'number' },
    // A calendar day (YYYY-MM-DD) shown as the server sends it: the date kind would shift it by the user's time zone.
    { source: 'deadline' },
    { source: 'createdAt', kind: 'datetime' },
  ],
  filters: [
    { source: 'enterpriseId', kind: 'reference', reference: enterprise, alwaysOn: true },
    { source: 'feature', kind: 'select', choices: featureChoices, alwaysOn: true },
    { source: 'deviceId', kind: 'reference', reference: device },
  ],
  sort: { field: 'id', order: 'ASC' },
  createSchema: deviceAuthGrantSchema,
  editSchema: updateDeviceAuthGrantSchema,
  recordRepresentation: 'enterpriseName',
};
