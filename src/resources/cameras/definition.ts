import VideocamIcon from '@mui/icons-material/Videocam';
import { DEVICE_EDITORS } from '../../domain/levels';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { cameraSchema, streamKindOf, updateCameraSchema } from '../../domain/vesselSchemas';
import { Feature } from '../../domain/features';
import { TIME_COLUMNS, VESSEL_COLUMNS, type TableResource } from '../../domain/tableResource';
import type { ResourceDeclaration } from '../types';
import { lazyView } from '../lazyView';
import { VESSEL_REFERENCE } from '../references';

/**
 * The server half (docs/api.md, "vessel"): deviceModule/camera/getAll (one vessel's cameras, all of
 * them, by name), getById, add, update and deleteById, under the vessel's "camera" feature.
 */
const server: TableResource = {
  path: '/deviceModule/camera',
  table: 'cameras',
  generate: false,
  scope: 'vessel',
  feature: Feature.Camera,
  paged: false,
  columns: {
    ...VESSEL_COLUMNS,
    name: { type: 'text' },
    link: { type: 'text' },
    description: { type: 'text' },
    ...TIME_COLUMNS,
  },
  levels: { list: PAGE_LEVELS.all, create: DEVICE_EDITORS, edit: DEVICE_EDITORS, delete: DEVICE_EDITORS },
  schema: { create: cameraSchema, update: updateCameraSchema },
  sortable: ['name'],
  audit: 'camera',
  notFound: 'error.cameraNotFound',
  present: (row) => ({ kind: streamKindOf(String(row.link)) }),
};
const label = (source: string) => `vessel.camera.fields.${source}`;

/**
 * Device video link (/device/cameraInfo?id=): a vessel's cameras, feature "camera".
 * camera/getAll needs deviceId: a required filter. The list view is the page's own (CameraPage):
 * the vessel picker and links header drive the deviceId filter, the feature lock is shown before
 * any call, cameras play in the page (stream player) and are added/edited in dialogs.
 */
export const camerasResource: ResourceDeclaration = {
  name: 'device/cameraInfo',
  server,
  menu: { group: 'device', order: 70, titleKey: 'menu.cameraInfo', icon: VideocamIcon, hidden: true },
  fields: [
    {
      source: 'deviceId',
      kind: 'reference',
      reference: VESSEL_REFERENCE,
      on: { create: true, edit: true },
      disabledOnEdit: true,
    },
    { source: 'name', kind: 'text', label: label('name'), on: { create: true, edit: true } },
    { source: 'link', kind: 'text', label: label('link'), on: { create: true, edit: true } },
    { source: 'description', kind: 'textarea', label: label('description'), on: { create: true, edit: true } },
  ],
  columns: [
    { source: 'name', label: label('name') },
    { source: 'kind', kind: 'choice', choicePrefix: 'vessel.camera.kinds.', label: label('kind') },
    { source: 'link', label: label('link') },
    { source: 'description', label: label('description') },
  ],
  filters: [
    {
      source: 'deviceId',
      kind: 'reference',
      reference: VESSEL_REFERENCE,
      required: true,
      alwaysOn: true,
    },
  ],
  sort: { field: 'name', order: 'ASC' },
  perPage: 1000,
  recordRepresentation: 'name',
  views: {
    list: lazyView(
      () => import('../../pages/vessel/CameraPage'),
      (m) => m.default,
    ),
  },
};
