import AnchorIcon from '@mui/icons-material/Anchor';
import { GEOFENCE_EVENTS, GEOFENCE_EVENTS_NAME as NAME, GEOFENCE_EVENTS_TABLE, GEOFENCES_NAME } from '../../domain/geofences';
import type { ResourceDeclaration } from '../types';
import { VESSEL_REFERENCE } from '../references';

/**
 * Support > Port calls (geofence events): each vessel's arrival in and departure from a geofence,
 * written by the server's minute check (src/domain/geofences.ts). Read-only, newest first; each
 * level sees the rows of the vessels it sees.
 */
const eventChoices = GEOFENCE_EVENTS.map((id) => ({ id, nameKey: `resources.${NAME}.events.${id}` }));

export const geofenceEventsResource: ResourceDeclaration = {
  name: NAME,
  server: GEOFENCE_EVENTS_TABLE,
  menu: { group: 'service', order: 61.5, titleKey: `resources.${NAME}.name`, icon: AnchorIcon },
  fields: [],
  columns: [
    { source: 'at', kind: 'datetime', sortable: true },
    { source: 'deviceName', shows: 'deviceId' },
    { source: 'geofenceName' },
    { source: 'geofenceKind', kind: 'choice', choicePrefix: `resources.${GEOFENCES_NAME}.kinds.` },
    { source: 'event', kind: 'chip', choicePrefix: `resources.${NAME}.events.`, chipColors: { arrival: 'success' } },
  ],
  filters: [
    'search',
    { source: 'event', kind: 'select', choices: eventChoices },
    { source: 'deviceId', kind: 'reference', reference: VESSEL_REFERENCE },
  ],
  // A log reads newest first.
  sort: { field: 'at', order: 'DESC' },
  recordRepresentation: 'geofenceName',
  messages: {
    zh: {
      name: '进出港记录',
      fields: {
        id: '编号',
        at: '时间',
        deviceId: '船舶',
        deviceName: '船舶',
        geofenceId: '围栏编号',
        geofenceName: '地理围栏',
        geofenceKind: '类型',
        event: '事件',
        lat: '纬度',
        lon: '经度',
      },
      events: { arrival: '到达', departure: '离开' },
    },
    en: {
      name: 'Port call / geofence event |||| Port calls / geofence events',
      fields: {
        id: 'ID',
        at: 'Time',
        deviceId: 'Vessel',
        deviceName: 'Vessel',
        geofenceId: 'Geofence ID',
        geofenceName: 'Geofence',
        geofenceKind: 'Kind',
        event: 'Event',
        lat: 'Latitude',
        lon: 'Longitude',
      },
      events: { arrival: 'Arrival', departure: 'Departure' },
    },
  },
};
