import type { SvgIconComponent } from '@mui/icons-material';
import DashboardIcon from '@mui/icons-material/Dashboard';
import SettingsIcon from '@mui/icons-material/Settings';
import PeopleIcon from '@mui/icons-material/People';
import RouterIcon from '@mui/icons-material/Router';
import PaletteIcon from '@mui/icons-material/Palette';
import LinkIcon from '@mui/icons-material/Link';
import SystemUpdateIcon from '@mui/icons-material/SystemUpdateAlt';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import SatelliteIcon from '@mui/icons-material/SatelliteAlt';
import GroupWorkIcon from '@mui/icons-material/GroupWork';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import MapIcon from '@mui/icons-material/Map';
import InsightsIcon from '@mui/icons-material/Insights';
import PlaceIcon from '@mui/icons-material/Place';
import BarChartIcon from '@mui/icons-material/BarChart';
import VideocamIcon from '@mui/icons-material/Videocam';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import BuildIcon from '@mui/icons-material/Build';
import AssignmentIcon from '@mui/icons-material/Assignment';
import PowerIcon from '@mui/icons-material/PowerSettingsNew';
import PersonIcon from '@mui/icons-material/Person';
import BadgeIcon from '@mui/icons-material/Badge';
import KeyIcon from '@mui/icons-material/Key';
import TuneIcon from '@mui/icons-material/Tune';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import HistoryIcon from '@mui/icons-material/History';
import { canAccessPage } from '../domain/pageAccess';

/** The sidebar of SPEC section 2: groups, their redirects, children (some hidden), menu names. */
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

export const DASHBOARD: PageEntry = { path: '/dashboard', titleKey: 'menu.dashboard', icon: DashboardIcon };

export const MENU: readonly MenuGroup[] = [
  {
    path: '/system', titleKey: 'menu.system', icon: SettingsIcon, redirect: '/system/user',
    children: [
      { path: '/system/user', titleKey: 'menu.user', icon: PeopleIcon },
      { path: '/system/deviceManagement', titleKey: 'menu.deviceManagement', icon: RouterIcon },
      { path: '/system/icon', titleKey: 'menu.icon', icon: PaletteIcon },
      { path: '/system/extraLink', titleKey: 'menu.extraLink', icon: LinkIcon },
      { path: '/system/firmware', titleKey: 'menu.firmware', icon: SystemUpdateIcon },
      { path: '/system/deviceAuth', titleKey: 'menu.deviceAuth', icon: VerifiedUserIcon },
      { path: '/system/permissionConfig', titleKey: 'support.menu.permissionConfig', icon: AdminPanelSettingsIcon },
      { path: '/system/auditLog', titleKey: 'menu.auditLog', icon: HistoryIcon },
    ],
  },
  {
    path: '/device', titleKey: 'menu.device', icon: SatelliteIcon, redirect: '/device/deviceData',
    children: [
      { path: '/device/deviceData', titleKey: 'menu.deviceData', icon: GroupWorkIcon },
      { path: '/device/deviceManageData', titleKey: 'menu.deviceManageData', icon: MonitorHeartIcon },
      { path: '/device/map', titleKey: 'menu.map', icon: MapIcon },
      { path: '/device/deviceDataDetail', titleKey: 'menu.deviceDataDetail', icon: InsightsIcon, hidden: true },
      { path: '/device/deviceLocation', titleKey: 'menu.deviceLocation', icon: PlaceIcon, hidden: true },
      { path: '/device/timeStatistics', titleKey: 'menu.timeStatistics', icon: BarChartIcon, hidden: true },
      { path: '/device/cameraInfo', titleKey: 'menu.cameraInfo', icon: VideocamIcon, hidden: true },
    ],
  },
  {
    path: '/service', titleKey: 'menu.service', icon: SupportAgentIcon, redirect: '/service/faultClearing',
    children: [
      { path: '/service/faultClearing', titleKey: 'menu.faultClearing', icon: BuildIcon },
      { path: '/service/afterService', titleKey: 'menu.afterService', icon: AssignmentIcon },
    ],
  },
  {
    path: '/activation', titleKey: 'menu.activation', icon: PowerIcon, redirect: '/activation/ActivateDevice',
    children: [{ path: '/activation/ActivateDevice', titleKey: 'menu.activateDevice', icon: PowerIcon }],
  },
  {
    path: '/personal', titleKey: 'menu.personal', icon: PersonIcon, redirect: '/personal/info',
    children: [
      { path: '/personal/info', titleKey: 'menu.info', icon: BadgeIcon },
      { path: '/personal/password', titleKey: 'menu.password', icon: KeyIcon },
      { path: '/personal/preference', titleKey: 'menu.preference', icon: TuneIcon },
    ],
  },
];

export const ALL_PAGES: readonly PageEntry[] = [DASHBOARD, ...MENU.flatMap((g) => g.children)];

/** The menu a level sees: visible children it may open; groups left empty disappear. */
export function menuFor(level: string | null): MenuGroup[] {
  return MENU.map((group) => ({ ...group, children: group.children.filter((c) => !c.hidden && canAccessPage(level, c.path)) }))
    .filter((group) => group.children.length > 0);
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
