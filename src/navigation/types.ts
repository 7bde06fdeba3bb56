import type { ComponentType } from 'react';
import type { SvgIconComponent } from '@mui/icons-material';
import type { Level } from '../domain/levels';

/** The sidebar groups of docs/requirements.md §2 (src/navigation/groups.ts gives their titles and icons). */
export type MenuGroupKey = 'system' | 'device' | 'service' | 'activation' | 'personal';

/**
 * Where a page sits in the menu: its group (null: top level, as the dashboard), its order in the
 * group, its title (also the tab's and the breadcrumb's) and icon; hidden pages have a route, a
 * tab and a breadcrumb but no menu line (the vessel pages opened from a vessel).
 */
export interface MenuEntry {
  group: MenuGroupKey | null;
  order: number;
  titleKey: string;
  icon: SvgIconComponent;
  hidden?: boolean;
}

/** A page that is not a resource (dashboard, status monitor, personal pages...), declared as data like a resource. */
export interface PageDeclaration {
  path: string;
  /** The levels that may open it (docs/requirements.md §6). */
  levels: readonly Level[];
  menu: MenuEntry;
  component: ComponentType;
}
