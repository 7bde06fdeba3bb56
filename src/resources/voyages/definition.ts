import SailingIcon from '@mui/icons-material/Sailing';
import { DEVICE_EDITORS } from '../../domain/levels';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { updateVoyageSchema, voyageSchema, voyageStatusOf } from '../../domain/vesselSchemas';
import { TIME_COLUMNS, VESSEL_COLUMNS, type TableResource } from '../../domain/tableResource';
import type { ResourceDeclaration } from '../types';
import { VESSEL_REFERENCE } from '../references';

/**
 * The server half (docs/api.md, "vessel"): deviceModule/voyage/getAll, getById, add, update and
 * deleteById are built from this declaration; getCurrent stays a route of the vessel module.
 */
const server: TableResource = {
  path: '/deviceModule/voyage',
  table: 'voyages',
  generate: false,
  createdBy: 'created_by',
  scope: 'vessel',
  columns: {
    ...VESSEL_COLUMNS,
    voyageNo: { type: 'text' },
    destination: { type: 'text' },
    etd: { type: 'timestamp' },
    eta: { type: 'timestamp' },
    agent: { type: 'text' },
    email: { type: 'text' },
    phone: { type: 'text' },
    remark: { type: 'text' },
    ...TIME_COLUMNS,
  },
  levels: { list: PAGE_LEVELS.all, create: DEVICE_EDITORS, edit: DEVICE_EDITORS, delete: DEVICE_EDITORS },
  schema: { create: voyageSchema, update: updateVoyageSchema },
  search: ['voyageNo', 'destination', 'agent'],
  sortable: ['etd'],
  order: 'desc',
  audit: 'voyage',
  notFound: 'error.voyageNotFound',
  present: (row) => ({ status: voyageStatusOf(String(row.etd), String(row.eta)) }),
};

const label = (source: string) => `vessel.voyage.fields.${source}`;

/**
 * Voyages: a hidden resource. The vessel detail page lists one vessel's voyages with
 * useGetManyReference (target deviceId) and writes them with useCreate/useUpdate/useDelete; its
 * own route lists every visible voyage. Read by every level, written by levels 1 and 2.
 */
export const voyagesResource: ResourceDeclaration = {
  name: 'device/voyage',
  server,
  menu: { group: 'device', order: 80, titleKey: 'menu.voyage', icon: SailingIcon, hidden: true },
  fields: [
    { source: 'deviceId', kind: 'reference', reference: VESSEL_REFERENCE, on: { create: true, edit: true }, disabledOnEdit: true },
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
    { source: 'deviceName', shows: 'deviceId' },
    { source: 'destination', label: label('destination') },
    { source: 'etd', kind: 'datetime', label: label('etd'), sortable: true },
    { source: 'eta', kind: 'datetime', label: label('eta') },
    { source: 'agent', label: label('agent') },
    { source: 'status', kind: 'choice', choicePrefix: 'vessel.voyage.status.', label: label('status') },
  ],
  filters: ['search', { source: 'deviceId', kind: 'reference', reference: VESSEL_REFERENCE, alwaysOn: true }],
  sort: { field: 'etd', order: 'DESC' },
  recordRepresentation: 'voyageNo',
};
