import { Level } from '../../domain/levels';
import PeopleIcon from '@mui/icons-material/People';
import { PAGE_LEVELS } from '../../domain/pageAccess';
import { addUserSchema, updateUserSchema } from '../../domain/userSchemas';
import type { Row } from '../../data/resourceEndpoints';
import type { Choice, ResourceDefinition } from '../types';
import { lazyView } from '../lazyView';
import { ENTERPRISE_REFERENCE } from '../references';

const levelChoices = (level: string | null): Choice[] =>
  (level === Level.Admin ? [Level.Admin, Level.Enterprise, Level.SubUser] : [Level.SubUser]).map((id) => ({
    id,
    nameKey: `console.level.${id}`,
  }));

const EDITABLE = ['id', 'name', 'nickname', 'department', 'sex', 'email', 'signature', 'company', 'userType', 'parentId'] as const;
const CREATABLE = [...EDITABLE.filter((f) => f !== 'id'), 'password', 'repassword', 'permissionLevel'] as const;
const pick = (record: Row, keys: readonly string[]): Row => {
  const out: Row = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key] === '' ? null : record[key];
  return out;
};

/** User accounts (levels 1 and 2): docs/requirements.md §§3, 5 and 7. */
export const usersResource: ResourceDefinition = {
  name: 'system/user',
  access: { list: PAGE_LEVELS.adminEnterprise },
  menu: { group: 'system', order: 10, titleKey: 'menu.user', icon: PeopleIcon },
  endpoints: {
    list: {
      path: '/users/getAll',
      paged: true,
      filters: ['name', 'permissionLevel', 'parentId'],
      sortable: ['id', 'name', 'nickname', 'permissionLevel', 'createdAt'],
    },
    one: { path: '/users/getUserSimpleInfo' },
    create: { path: '/users/addUser', send: 'json', params: (r) => pick(r, CREATABLE) },
    update: { path: '/users/updateUser', send: 'json', params: (r) => pick(r, EDITABLE) },
    delete: { path: '/users/deleteUserById', method: 'DELETE' },
  },
  fields: [
    { source: 'name', kind: 'text', on: { create: true, edit: true } },
    { source: 'nickname', kind: 'text', on: { create: true, edit: true } },
    { source: 'password', kind: 'password', on: { create: true } },
    { source: 'repassword', kind: 'password', on: { create: true } },
    { source: 'permissionLevel', kind: 'select', choices: levelChoices, on: { create: true, edit: true }, disabledOnEdit: true },
    {
      source: 'parentId',
      kind: 'reference',
      reference: ENTERPRISE_REFERENCE,
      on: { create: true, edit: true },
      when: (values, level) => level === Level.Admin && values.permissionLevel === Level.SubUser,
    },
    { source: 'department', kind: 'text', on: { create: true, edit: true } },
    {
      source: 'sex',
      kind: 'select',
      choices: ['male', 'female', 'unknown'].map((id) => ({ id, nameKey: `console.sex.${id}` })),
      on: { create: true, edit: true },
    },
    { source: 'email', kind: 'email', on: { create: true, edit: true } },
    { source: 'company', kind: 'text', on: { create: true, edit: true } },
    {
      source: 'userType',
      kind: 'select',
      choices: ['admin', 'company', 'staff'].map((id) => ({ id, nameKey: `console.userType.${id}` })),
      on: { create: true, edit: true },
    },
    { source: 'signature', kind: 'textarea', on: { create: true, edit: true } },
  ],
  columns: [
    { source: 'id', sortable: true },
    { source: 'name', sortable: true },
    { source: 'nickname', sortable: true },
    { source: 'permissionLevel', kind: 'choice', choicePrefix: 'console.level.', sortable: true },
    { source: 'parentName' },
    { source: 'email' },
    { source: 'createdAt', kind: 'datetime', sortable: true },
  ],
  filters: ['name'],
  createSchema: addUserSchema,
  editSchema: updateUserSchema,
  defaults: (level) => ({ permissionLevel: level === Level.Admin ? Level.Enterprise : Level.SubUser }),
  recordRepresentation: 'name',
  // Loaded with the list, not with the definition (the server reads definitions too: docs/extending.md).
  rowActions: [
    {
      key: 'resetPassword',
      component: lazyView(
        () => import('./ResetPasswordButton'),
        (m) => m.ResetPasswordButton,
      ),
    },
    {
      key: 'vessels',
      component: lazyView(
        () => import('../devices/SubUserVesselsButton'),
        (m) => m.SubUserVesselsButton,
      ),
    },
  ],
};
