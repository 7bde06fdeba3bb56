/** Permission levels of docs/requirements.md §6, carried as text. */
export const Level = { Admin: '1', Enterprise: '2', SubUser: '3' } as const;
export type Level = (typeof Level)[keyof typeof Level];
export const LEVELS: readonly Level[] = [Level.Admin, Level.Enterprise, Level.SubUser];

export const SUPER_USER_ID = 1;

export interface Principal {
  id: number;
  permissionLevel: Level;
  parentId: number | null;
}

export const isSuperUser = (user: Pick<Principal, 'id'>): boolean => user.id === SUPER_USER_ID;

/** docs/requirements.md §4: the enterprise whose icons and devices a user works with (0 for admins). */
export function enterpriseIdOf(user: Principal): number {
  if (user.permissionLevel === Level.Enterprise) return user.id;
  if (user.permissionLevel === Level.SubUser) return user.parentId ?? 0;
  return 0;
}

export const hasAnyLevel = (user: Pick<Principal, 'permissionLevel'>, levels: readonly Level[]): boolean =>
  levels.includes(user.permissionLevel);

/**
 * Levels that may change devices and what hangs on them (groups, voyages, cameras, positions,
 * thresholds); a sub-user only looks. The server's routes and the console's buttons both read it.
 */
export const DEVICE_EDITORS: readonly Level[] = [Level.Admin, Level.Enterprise];
export const canEditDevices = (level: string | null): boolean => (DEVICE_EDITORS as readonly (string | null)[]).includes(level);
