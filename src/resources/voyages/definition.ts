import SailingIcon from '@mui/icons-material/Sailing';
import { DEVICE_EDITORS } from '../../domain/levels';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { updateVoyageSchema, voyageSchema } from '../../domain/vesselSchemas';
import { fieldsBody } from '../../data/resourceEndpoints';
import type { ResourceDefinition } from '../types';

const M = '/deviceModule/voyage';
/** What voyage/add and voyage/update take (docs/api.md); '' is "not given". */
export const VOYAGE_FIELDS = ['deviceId', 'voyageNo', 'destination', 'etd', 'eta', 'agent', 'email', 'phone', 'remark'] as const;
const label = (source: string) => `vessel.voyage.fields.${source}`;
const DEVICES = { resource: 'system/deviceManagement', optionText: 'name', searchField: 'search' };

/**
 * Voyages: a hidden resource. The vessel detail page lists one vessel's voyages with
 * useGetManyReference (target deviceId) and writes them with useCreate/useUpdate/useDelete; its
 * own route lists every visible voyage. Read by every level, written by levels 1 and 2.
 */
export const voyagesResource: ResourceDefinition = {
  name: 'device/voyage',
  access: { list: PAGE_LEVELS.all, show: PAGE_LEVELS.all, create: DEVICE_EDITORS, edit: DEVICE_EDITORS, delete: DEVICE_EDITORS },
  menu: { group: 'device', order: 80, titleKey: 'menu.voyage', icon: SailingIcon, hidden: true },
  endpoints: {
    list: { path: `${M}/getAll`, paged: true, filters: ['deviceId', 'search'], sortable: ['etd'] },
    one: { path: `${M}/getById` },
    create: { path: `${M}/add`, send: 'json', params: fieldsBody(VOYAGE_FIELDS) },
    update: { path: `${M}/update`, send: 'json', params: fieldsBody(VOYAGE_FIELDS, true) },
    delete: { path: `${M}/deleteById`, method: 'DELETE' },
  },
  fields: [
    { source: 'deviceId', kind: 'reference', reference: DEVICES, on: { create: true, edit: true }, disabledOnEdit: true },
    { source: 'voyageNo', kind: 'text', label: label('voyageNo'), on: { create: true, edit: true } },
    { source: 'destination', kind: 'text', label: label('destination'), on: { create: true, edit: true } },
    { source: 'etd', kind: 'datetime', label: label('etd'), on: { create: true, edit: true } },
    { source: 'eta', kind: 'datetime', label: label('eta'), on: { create: true, edit: true } },
    { source: 'agent', kind: 'text', label: label('agent'), on: { create: true, edit: true } },
    { source: 'email', kind: 'email', label: label('email'), on: { create: true, edit: true } },
    { source: 'phone', kind: 'text', label: label('phone'), on: { create: true, edit: true } },
    { source: 'remark', kind: 'textarea', label: label('remark'), on: { create: true, edit: true } },
  ],
  columns: [
    { source: 'voyageNo', label: label('voyageNo') },
    { source: 'deviceName' },
    { source: 'destination', label: label('destination') },
    { source: 'etd', kind: 'datetime', label: label('etd'), sortable: true },
    { source: 'eta', kind: 'datetime', label: label('eta') },
    { source: 'agent', label: label('agent') },
    { source: 'status', kind: 'choice', choicePrefix: 'vessel.voyage.status.', label: label('status') },
  ],
  filters: ['search', { source: 'deviceId', kind: 'reference', reference: DEVICES, alwaysOn: true }],
  sort: { field: 'etd', order: 'DESC' },
  createSchema: voyageSchema,
  editSchema: updateVoyageSchema,
  recordRepresentation: 'voyageNo',
};
