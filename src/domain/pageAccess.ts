import { Level, type Level as LevelT } from './levels';

/**
 * The page-access matrix of SPEC section 6, as data. Keys are the console's page paths; a page
 * not listed here is open to every logged-in level (dashboard, error pages).
 */
const ALL: readonly LevelT[] = [Level.Admin, Level.Enterprise, Level.SubUser];
const ADMIN: readonly LevelT[] = [Level.Admin];
const ADMIN_ENTERPRISE: readonly LevelT[] = [Level.Admin, Level.Enterprise];
const ENTERPRISE_SUB: readonly LevelT[] = [Level.Enterprise, Level.SubUser];

export const PAGE_ACCESS: Readonly<Record<string, readonly LevelT[]>> = {
  '/system/firmware': ADMIN,
  '/system/deviceAuth': ADMIN,
  '/service/afterService': ADMIN,
  '/activation/ActivateDevice': ADMIN,
  '/personal/preference': ADMIN,
  '/system/permissionConfig': ADMIN,
  '/system/user': ADMIN_ENTERPRISE,
  '/system/extraLink': ADMIN_ENTERPRISE,
  '/system/auditLog': ADMIN_ENTERPRISE,
  '/system/icon': ENTERPRISE_SUB,
  '/system/deviceManagement': ALL,
  '/device/deviceData': ALL,
  '/device/deviceManageData': ALL,
  '/device/map': ALL,
  '/device/deviceDataDetail': ALL,
  '/device/deviceLocation': ALL,
  '/device/timeStatistics': ALL,
  '/device/cameraInfo': ALL,
  '/service/faultClearing': ALL,
  '/personal/info': ALL,
  '/personal/password': ALL,
};

/** The listed page a path belongs to: the longest key that is the path or a prefix of it. */
export function pageKeyOf(path: string): string | null {
  const clean = `/${path.split(/[?#]/)[0]!.replace(/^\/+|\/+$/g, '')}`;
  let best: string | null = null;
  for (const key of Object.keys(PAGE_ACCESS)) {
    if ((clean === key || clean.startsWith(`${key}/`)) && (!best || key.length > best.length)) best = key;
  }
  return best;
}

/** May a user of this level open this path? Unknown levels see nothing restricted. */
export function canAccessPage(level: string | null | undefined, path: string): boolean {
  const key = pageKeyOf(path);
  if (!key) return true;
  return (PAGE_ACCESS[key] as readonly string[]).includes(level ?? '');
}
