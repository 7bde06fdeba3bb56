import * as yup from 'yup';
import { idRule } from './schemaRules';

/**
 * The permission groups of docs/requirements.md §3, as data: the modules, the actions each module offers,
 * and the permission names (action + module key, e.g. "viewuser", "addmachine").
 * View, add, edit and delete exist for every module; audit only for PPID, product, work order,
 * technical support, MAC order and file coding number; download and upload (the data
 * permissions "download file" and "upload file") only for file coding number.
 */
export const PERMISSION_ACTIONS = ['view', 'add', 'edit', 'delete', 'audit', 'download', 'upload'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

const BASIC: readonly PermissionAction[] = ['view', 'add', 'edit', 'delete'];
const WITH_AUDIT: readonly PermissionAction[] = [...BASIC, 'audit'];

export interface PermissionModule {
  key: string;
  actions: readonly PermissionAction[];
  /** true: the server of this product has the module and enforces its permissions. */
  enforced: boolean;
}

export const PERMISSION_MODULES: readonly PermissionModule[] = [
  { key: 'user', actions: BASIC, enforced: true },
  { key: 'machine', actions: BASIC, enforced: true },
  { key: 'macrange', actions: BASIC, enforced: false },
  { key: 'ppid', actions: WITH_AUDIT, enforced: false },
  { key: 'product', actions: WITH_AUDIT, enforced: false },
  { key: 'workorder', actions: WITH_AUDIT, enforced: false },
  { key: 'techsupport', actions: WITH_AUDIT, enforced: false },
  { key: 'shipborneversion', actions: BASIC, enforced: false },
  { key: 'macorder', actions: WITH_AUDIT, enforced: false },
  { key: 'filecodingnumber', actions: [...WITH_AUDIT, 'download', 'upload'], enforced: false },
  { key: 'filecodingproject', actions: BASIC, enforced: false },
  { key: 'course', actions: BASIC, enforced: false },
];

export const permissionName = (action: PermissionAction, moduleKey: string): string => `${action}${moduleKey}`;

/** Every valid permission name, in grid order. */
export const PERMISSION_NAMES: readonly string[] = PERMISSION_MODULES.flatMap((m) => m.actions.map((a) => permissionName(a, m.key)));
const VALID = new Set(PERMISSION_NAMES);
export const isPermissionName = (value: unknown): value is string => typeof value === 'string' && VALID.has(value);

/** The permissions the server checks (modules user and machine). */
export const Permission = {
  viewUser: permissionName('view', 'user'),
  addUser: permissionName('add', 'user'),
  editUser: permissionName('edit', 'user'),
  deleteUser: permissionName('delete', 'user'),
  viewMachine: permissionName('view', 'machine'),
  addMachine: permissionName('add', 'machine'),
  editMachine: permissionName('edit', 'machine'),
  deleteMachine: permissionName('delete', 'machine'),
} as const;

/**
 * May a user with these groups' permissions do this? A user in no group keeps its level's
 * defaults (null: no restriction); a user in one or more groups may do only what they grant.
 */
export const groupsAllow = (granted: readonly string[] | null, permission: string): boolean =>
  granted === null || granted.includes(permission);

export const PERMISSION_GROUP_NAME_MAX = 32;

export const permissionGroupSchema = yup.object({
  name: yup.string().trim().required('validation.required').max(PERMISSION_GROUP_NAME_MAX, 'validation.tooLong'),
  description: yup.string().trim().max(200, 'validation.tooLong').optional().nullable(),
  permissions: yup
    .array(yup.string().required().test('permission', 'validation.permissionName', isPermissionName))
    .required('validation.required')
    .max(PERMISSION_NAMES.length, 'validation.tooLong'),
});
export type PermissionGroupInput = yup.InferType<typeof permissionGroupSchema>;

export const updatePermissionGroupSchema = permissionGroupSchema.shape({
  id: idRule().required('validation.required'),
});

export const userGroupsSchema = yup.object({
  userId: idRule().required('validation.required'),
  groupIds: yup.array(idRule().required()).required('validation.required').max(100, 'validation.tooLong'),
});
