import HistoryIcon from '@mui/icons-material/History';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import type { ResourceDefinition } from '../types';
import { lazyView } from '../lazyView';

const ChangesCell = lazyView(
  () => import('./AuditChangesCell'),
  (m) => m.AuditChangesCell,
);

const EntityCell = lazyView(
  () => import('./AuditChangesCell'),
  (m) => m.auditNameCell('entity'),
);
const ActionCell = lazyView(
  () => import('./AuditChangesCell'),
  (m) => m.auditNameCell('action'),
);

const M = '/supportModule/auditLog';

/**
 * System > Audit log (levels 1 and 2): every change made through the API, newest first, read-only.
 * Level 1 sees all, level 2 its enterprise (the server decides). Filters by user, entity and day.
 * Each entry shows only the fields that changed, under their console names (AuditChangesCell.tsx).
 */
export const auditLogResource: ResourceDefinition = {
  name: 'system/auditLog',
  access: { list: PAGE_LEVELS.adminEnterprise },
  menu: { group: 'system', order: 80, titleKey: 'menu.auditLog', icon: HistoryIcon },
  endpoints: {
    list: { path: `${M}/getAll`, paged: true, filters: ['userName', 'entity', 'entityId', 'from', 'to'] },
    export: { path: `${M}/export` },
  },
  fields: [],
  columns: [
    { source: 'at', kind: 'datetime' },
    { source: 'userName' },
    { source: 'address' },
    { source: 'entity', component: EntityCell },
    { source: 'entityId' },
    { source: 'action', component: ActionCell },
    { source: 'changes', component: ChangesCell },
  ],
  filters: ['userName', 'entity', { source: 'from', kind: 'date' }, { source: 'to', kind: 'date' }],
  recordRepresentation: 'action',
};
