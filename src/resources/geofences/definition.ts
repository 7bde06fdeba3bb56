import FenceIcon from '@mui/icons-material/Fence';
import { Level } from '../../domain/levels';
import { GEOFENCE_KINDS, GEOFENCE_SHAPES, GEOFENCES_TABLE, GEOFENCES_NAME as NAME } from '../../domain/geofences';
import type { ResourceDeclaration } from '../types';
import { lazyView } from '../lazyView';
import { ENTERPRISE_REFERENCE } from '../references';

/**
 * Support > Geofences (levels 1 and 2 draw them, level 3 reads them): an enterprise's named areas,
 * a port, an anchorage, a restricted area, drawn on the map as a circle or a polygon
 * (src/domain/geofences.ts). The server records each vessel's arrival in and departure from them
 * (Support > Port calls) and alarm rules raise alarms on entering and leaving. The area is one
 * `geometry` field: the form draws it on a map (src/map/GeometryInput.tsx, with lat, lon and radius
 * as number boxes for the keyboard), the Show page on a small one. The list draws every listed area
 * on a map above its table (`listPanel`), in the generic list.
 */

const kindChoices = GEOFENCE_KINDS.map((id) => ({ id, nameKey: `resources.${NAME}.kinds.${id}` }));
const shapeChoices = GEOFENCE_SHAPES.map((id) => ({ id, nameKey: `resources.${NAME}.shapes.${id}` }));
const both = { create: true, edit: true };

export const geofencesResource: ResourceDeclaration = {
  name: NAME,
  server: GEOFENCES_TABLE,
  menu: { group: 'service', order: 61, titleKey: `resources.${NAME}.name`, icon: FenceIcon },
  fields: [
    { source: 'ownerId', kind: 'reference', reference: ENTERPRISE_REFERENCE, on: both, when: (_, level) => level === Level.Admin },
    { source: 'name', kind: 'text', on: both },
    { source: 'kind', kind: 'select', choices: kindChoices, on: both },
    { source: 'shape', kind: 'select', choices: shapeChoices, on: both },
    // Writes lat, lon and radiusM (a circle) or points (a polygon).
    { source: 'points', kind: 'geometry', label: `resources.${NAME}.fields.area`, on: both },
  ],
  columns: [
    { source: 'name', sortable: true },
    { source: 'kind', kind: 'choice', choicePrefix: `resources.${NAME}.kinds.` },
    { source: 'shape', kind: 'choice', choicePrefix: `resources.${NAME}.shapes.` },
  ],
  filters: ['search', { source: 'kind', kind: 'select', choices: kindChoices }],
  sort: { field: 'name', order: 'ASC' },
  defaults: () => ({ kind: 'port', shape: 'polygon', radiusM: 1000, points: [] }),
  recordRepresentation: 'name',
  show: true,
  listPanel: lazyView(
    () => import('./GeofencesListMap'),
    (m) => m.GeofencesListMap,
  ),
  messages: {
    zh: {
      name: '地理围栏',
      fields: {
        id: '编号',
        ownerId: '所属企业',
        name: '名称',
        kind: '类型',
        shape: '形状',
        lat: '中心纬度',
        lon: '中心经度',
        radiusM: '半径（米）',
        points: '多边形顶点',
        area: '区域',
      },
      kinds: { port: '港口', anchorage: '锚地', restricted: '禁航区', area: '其他区域' },
      shapes: { circle: '圆形', polygon: '多边形' },
      draw: {
        hintCircle: '点击地图设置中心点，在下方填写半径',
        hintPolygon: '点击地图逐个添加顶点，拖动顶点可移动',
        count: '已添加 %{smart_count} 个点（需要 3 到 %{max} 个）',
        undo: '删除最后一点',
        clear: '清除全部',
        addCentre: '在地图中心加点',
        setCentre: '以地图中心为中心点',
        centre: '中心点',
        point: '第 %{n} 个点',
        circleSummary: '圆形：中心 %{centre}，半径 %{radius} 米',
        polygonSummary: '多边形：%{smart_count} 个顶点',
        listMap: '列表中的区域（点击区域查看详情）',
      },
    },
    en: {
      name: 'Geofence |||| Geofences',
      fields: {
        id: 'ID',
        ownerId: 'Enterprise',
        name: 'Name',
        kind: 'Kind',
        shape: 'Shape',
        lat: 'Centre latitude',
        lon: 'Centre longitude',
        radiusM: 'Radius (m)',
        points: 'Polygon points',
        area: 'Area',
      },
      kinds: { port: 'Port', anchorage: 'Anchorage', restricted: 'Restricted area', area: 'Other area' },
      shapes: { circle: 'Circle', polygon: 'Polygon' },
      draw: {
        hintCircle: 'Click the map to set the centre, then type the radius below',
        hintPolygon: 'Click the map to add points one by one; drag a point to move it',
        count: 'Points: %{smart_count} (3 to %{max} needed)',
        undo: 'Remove last point',
        clear: 'Clear all',
        addCentre: 'Add a point at the map centre',
        setCentre: 'Centre on the map centre',
        centre: 'Centre',
        point: 'Point %{n}',
        circleSummary: 'Circle: centre %{centre}, radius %{radius} m',
        polygonSummary: 'Polygon of %{smart_count} point |||| Polygon of %{smart_count} points',
        listMap: 'The listed areas (click one to open it)',
      },
    },
  },
};
