import VideocamIcon from '@mui/icons-material/Videocam';
import { DEVICE_EDITORS } from '../../domain/levels';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { cameraSchema, updateCameraSchema } from '../../domain/vesselSchemas';
import { fieldsBody } from '../../data/resourceEndpoints';
import type { ResourceDefinition } from '../types';
import { lazyView } from '../lazyView';

const M = '/deviceModule/camera';
/** What camera/add and camera/update take (docs/api.md); '' is "not given". */
export const CAMERA_FIELDS = ['deviceId', 'name', 'link', 'description'] as const;
const label = (source: string) => `vessel.camera.fields.${source}`;

/**
 * Device video link (/device/cameraInfo?id=): a vessel's cameras, feature "camera".
 * camera/getAll needs deviceId: a required filter. The list view is the page's own (CameraPage):
 * the vessel picker and links header drive the deviceId filter, the feature lock is shown before
 * any call, cameras play in the page (stream player) and are added/edited in dialogs.
 */
export const camerasResource: ResourceDefinition = {
  name: 'device/cameraInfo',
  access: { list: PAGE_LEVELS.all, show: PAGE_LEVELS.all, create: DEVICE_EDITORS, edit: DEVICE_EDITORS, delete: DEVICE_EDITORS },
  menu: { group: 'device', order: 70, titleKey: 'menu.cameraInfo', icon: VideocamIcon, hidden: true },
  endpoints: {
    // The server answers every camera of the vessel, by name ({ list, total }); paging parameters are ignored.
    list: { path: `${M}/getAll`, paged: true, filters: ['deviceId'], sortable: [] },
    one: { path: `${M}/getById` },
    create: { path: `${M}/add`, send: 'json', params: fieldsBody(CAMERA_FIELDS) },
    update: { path: `${M}/update`, send: 'json', params: fieldsBody(CAMERA_FIELDS, true) },
    delete: { path: `${M}/deleteById`, method: 'DELETE' },
  },
  fields: [
    {
      source: 'deviceId',
      kind: 'reference',
      reference: { resource: 'system/deviceManagement', optionText: 'name', searchField: 'search' },
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
      reference: { resource: 'system/deviceManagement', optionText: 'name', searchField: 'search' },
      required: true,
      alwaysOn: true,
    },
  ],
  sort: { field: 'name', order: 'ASC' },
  perPage: 1000,
  createSchema: cameraSchema,
  editSchema: updateCameraSchema,
  recordRepresentation: 'name',
  views: {
    list: lazyView(
      () => import('../../pages/vessel/CameraPage'),
      (m) => m.default,
    ),
  },
};
