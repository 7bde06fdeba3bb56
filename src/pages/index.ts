import { lazy } from 'react';
import DashboardIcon from '@mui/icons-material/Dashboard';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import MapIcon from '@mui/icons-material/Map';
import InsightsIcon from '@mui/icons-material/Insights';
import PlaceIcon from '@mui/icons-material/Place';
import SatelliteAltIcon from '@mui/icons-material/SatelliteAlt';
import BarChartIcon from '@mui/icons-material/BarChart';
import BuildIcon from '@mui/icons-material/Build';
import PowerIcon from '@mui/icons-material/PowerSettingsNew';
import BadgeIcon from '@mui/icons-material/Badge';
import KeyIcon from '@mui/icons-material/Key';
import TuneIcon from '@mui/icons-material/Tune';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import { PAGE_LEVELS } from '../domain/pageAccess';
import type { PageDeclaration } from '../navigation/types';

/**
 * The pages that are not resources, declared as data like the resources (path, levels, menu
 * entry, component): the routes, the menu, the tabs, the breadcrumb and the access matrix are
 * derived from these and from the resource definitions. A path nobody declares is denied.
 */
export const PAGES: readonly PageDeclaration[] = [
  {
    path: '/dashboard',
    levels: PAGE_LEVELS.all,
    menu: { group: null, order: 0, titleKey: 'menu.dashboard', icon: DashboardIcon },
    component: lazy(() => import('./Dashboard')),
  },
  {
    path: '/system/permissionConfig',
    levels: PAGE_LEVELS.adminOnly,
    menu: { group: 'system', order: 70, titleKey: 'support.menu.permissionConfig', icon: AdminPanelSettingsIcon },
    component: lazy(() => import('./system/PermissionConfigPage')),
  },
  {
    path: '/device/deviceManageData',
    levels: PAGE_LEVELS.all,
    menu: { group: 'device', order: 20, titleKey: 'menu.deviceManageData', icon: MonitorHeartIcon },
    component: lazy(() => import('./monitor/StatusMonitorPage')),
  },
  {
    path: '/device/map',
    levels: PAGE_LEVELS.all,
    menu: { group: 'device', order: 30, titleKey: 'menu.map', icon: MapIcon },
    component: lazy(() => import('./history/TrackPage')),
  },
  {
    path: '/device/coverage',
    levels: PAGE_LEVELS.all,
    menu: { group: 'device', order: 35, titleKey: 'menu.coverage', icon: SatelliteAltIcon },
    component: lazy(() => import('./coverage/CoveragePage')),
  },
  {
    path: '/device/deviceDataDetail',
    levels: PAGE_LEVELS.all,
    menu: { group: 'device', order: 40, titleKey: 'menu.deviceDataDetail', icon: InsightsIcon, hidden: true },
    component: lazy(() => import('./vessel/DeviceDetailPage')),
  },
  {
    path: '/device/deviceLocation',
    levels: PAGE_LEVELS.all,
    menu: { group: 'device', order: 50, titleKey: 'menu.deviceLocation', icon: PlaceIcon, hidden: true },
    component: lazy(() => import('./history/LocationPage')),
  },
  {
    path: '/device/timeStatistics',
    levels: PAGE_LEVELS.all,
    menu: { group: 'device', order: 60, titleKey: 'menu.timeStatistics', icon: BarChartIcon, hidden: true },
    component: lazy(() => import('./vessel/TimeStatisticsPage')),
  },
  {
    path: '/service/faultClearing',
    levels: PAGE_LEVELS.all,
    menu: { group: 'service', order: 10, titleKey: 'menu.faultClearing', icon: BuildIcon },
    component: lazy(() => import('./service/FaultClearingPage')),
  },
  {
    path: '/activation/ActivateDevice',
    levels: PAGE_LEVELS.adminOnly,
    menu: { group: 'activation', order: 10, titleKey: 'menu.activateDevice', icon: PowerIcon },
    component: lazy(() => import('./devices/ActivateDevicePage')),
  },
  {
    path: '/personal/info',
    levels: PAGE_LEVELS.all,
    menu: { group: 'personal', order: 10, titleKey: 'menu.info', icon: BadgeIcon },
    component: lazy(() => import('./personal/InfoPage')),
  },
  {
    path: '/personal/password',
    levels: PAGE_LEVELS.all,
    menu: { group: 'personal', order: 20, titleKey: 'menu.password', icon: KeyIcon },
    component: lazy(() => import('./personal/PasswordPage')),
  },
  {
    path: '/personal/preference',
    levels: PAGE_LEVELS.adminOnly,
    menu: { group: 'personal', order: 30, titleKey: 'menu.preference', icon: TuneIcon },
    component: lazy(() => import('./personal/PreferencePage')),
  },
];
