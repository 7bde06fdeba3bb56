import { Level, type Level as LevelT } from './levels';

/**
 * The level sets of the page table of docs/requirements.md §6. Each resource definition and page declaration
 * names the set it is open to (per action for resources); the console's access matrix is derived
 * from them (src/navigation/access.ts), and a page nobody declares is denied.
 */
export const PAGE_LEVELS = {
  /** firmware, deviceAuth, afterService, activation, preference */
  adminOnly: [Level.Admin],
  /** user accounts, extraLink */
  adminEnterprise: [Level.Admin, Level.Enterprise],
  /** icon management */
  enterpriseSub: [Level.Enterprise, Level.SubUser],
  /** deviceManagement, device monitoring pages, troubleshooting, basic information, password change */
  all: [Level.Admin, Level.Enterprise, Level.SubUser],
} as const satisfies Record<string, readonly LevelT[]>;
