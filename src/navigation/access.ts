import type { Level } from '../domain/levels';
import { PAGES } from '../pages';
import { RESOURCES } from '../resources';
import type { ResourceAction, ResourceDefinition } from '../resources/types';

/**
 * The access matrix, derived from the resource definitions and the page declarations
 * (docs/requirements.md §6): no second list to keep in step. A path nobody declares is denied, except the few
 * open to every logged-in user (the dashboard's root, the error pages, the redirect page).
 */
export const OPEN_PATHS: readonly string[] = ['/', '/401', '/404', '/redirect'];

const RESOURCE_BY_PATH = new Map<string, ResourceDefinition>(RESOURCES.map((r) => [`/${r.name}`, r]));

/** The levels of each declared page (a resource: its list's levels). */
export const PAGE_ACCESS: Readonly<Record<string, readonly Level[]>> = Object.fromEntries([
  ...PAGES.map((p) => [p.path, p.levels] as const),
  ...RESOURCES.map((r) => [`/${r.name}`, r.access.list] as const),
]);

const clean = (path: string) => `/${path.split(/[?#]/)[0]!.replace(/^\/+|\/+$/g, '')}`;

/** The declared page a path belongs to: the longest key that is the path or a prefix of it. */
export function pageKeyOf(path: string): string | null {
  const p = clean(path);
  let best: string | null = null;
  for (const key of Object.keys(PAGE_ACCESS)) {
    if ((p === key || p.startsWith(`${key}/`)) && (!best || key.length > best.length)) best = key;
  }
  return best;
}

/** Which endpoint an action needs: an action whose endpoint is missing is never allowed. */
const ENDPOINT_OF: Record<ResourceAction, keyof ResourceDefinition['endpoints']> = {
  list: 'list',
  show: 'one',
  create: 'create',
  edit: 'update',
  delete: 'delete',
  export: 'export',
};

/** May this level do this action on this resource (react-admin's canAccess)? */
export function canAccessResource(level: string | null | undefined, resource: string, action: string): boolean {
  const definition = RESOURCE_BY_PATH.get(clean(resource));
  if (!definition) {
    const page = PAGES.find((p) => p.path === clean(resource));
    return Boolean(page && (page.levels as readonly string[]).includes(level ?? ''));
  }
  const known = action in ENDPOINT_OF ? (action as ResourceAction) : null;
  if (!known || !definition.endpoints[ENDPOINT_OF[known]]) return false;
  const levels = definition.access[known] ?? definition.access.list;
  return (levels as readonly string[]).includes(level ?? '');
}

/** The action a resource's sub-path opens: /res list, /res/create, /res/:id edit, /res/:id/show. */
export function actionOfPath(key: string, path: string): ResourceAction {
  const rest = clean(path).slice(key.length).split('/').filter(Boolean);
  if (rest.length === 0) return 'list';
  if (rest[0] === 'create') return 'create';
  return rest[1] === 'show' ? 'show' : 'edit';
}

const isOpen = (p: string) => OPEN_PATHS.some((open) => p === open || (open !== '/' && p.startsWith(`${open}/`)));

/** Does anything live at this path (an open path or a declared page or resource)? */
export const isDeclaredPath = (path: string): boolean => isOpen(clean(path)) || pageKeyOf(path) !== null;

/** May a user of this level open this path? A resource's sub-path needs its action's levels; an undeclared path is denied. */
export function canAccessPage(level: string | null | undefined, path: string): boolean {
  const p = clean(path);
  if (isOpen(p)) return true;
  const key = pageKeyOf(p);
  if (!key) return false;
  const resource = RESOURCE_BY_PATH.get(key);
  if (resource) return canAccessResource(level, resource.name, actionOfPath(key, p));
  return (PAGE_ACCESS[key] as readonly string[]).includes(level ?? '');
}
