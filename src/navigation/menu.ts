import type { SvgIconComponent } from '@mui/icons-material';
import { PAGES } from '../pages';
import { RESOURCES } from '../resources';
import { canAccessPage } from './access';
import { MENU_GROUPS } from './groups';
import type { MenuEntry } from './types';

/**
 * The sidebar of docs/requirements.md §2, derived: each group's children are the resources and pages that
 * declare it in their menu entry, in their order; a group redirects to its first child.
 */
export interface PageEntry {
  path: string;
  titleKey: string;
  icon: SvgIconComponent;
  hidden?: boolean;
}

export interface MenuGroup extends PageEntry {
  redirect: string;
  children: PageEntry[];
}

const DECLARED: readonly { path: string; menu: MenuEntry }[] = [
  ...PAGES.map((p) => ({ path: p.path, menu: p.menu })),
  ...RESOURCES.map((r) => ({ path: `/${r.name}`, menu: r.menu })),
];
const entryOf = ({ path, menu }: { path: string; menu: MenuEntry }): PageEntry => ({
  path,
  titleKey: menu.titleKey,
  icon: menu.icon,
  ...(menu.hidden ? { hidden: true } : {}),
});

const dashboard = DECLARED.find((d) => d.menu.group === null);
if (!dashboard) throw new Error('no top-level page (the dashboard) is declared');
export const DASHBOARD: PageEntry = entryOf(dashboard);

export const MENU: readonly MenuGroup[] = MENU_GROUPS.map((group) => {
  const children = DECLARED.filter((d) => d.menu.group === group.key)
    .sort((a, b) => a.menu.order - b.menu.order)
    .map(entryOf);
  return { path: group.path, titleKey: group.titleKey, icon: group.icon, redirect: children[0]?.path ?? '/dashboard', children };
}).filter((group) => group.children.length > 0);

export const ALL_PAGES: readonly PageEntry[] = [DASHBOARD, ...MENU.flatMap((g) => g.children)];

/** The menu a level sees: visible children it may open; groups left empty disappear. */
export function menuFor(level: string | null): MenuGroup[] {
  return MENU.map((group) => ({ ...group, children: group.children.filter((c) => !c.hidden && canAccessPage(level, c.path)) })).filter(
    (group) => group.children.length > 0,
  );
}

/** The page a path shows (for tabs and the breadcrumb), matching sub-paths such as /system/user/3. */
export function pageOf(path: string): { page: PageEntry; group: MenuGroup | null } | null {
  for (const group of MENU) {
    const page = group.children.find((c) => path === c.path || path.startsWith(`${c.path}/`));
    if (page) return { page, group };
  }
  if (path === DASHBOARD.path || path === '/') return { page: DASHBOARD, group: null };
  return null;
}
