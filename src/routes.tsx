import { lazy, Suspense, type ComponentType } from 'react';
import { Loading } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { MENU } from './navigation/menu';
import { NotFoundPage, UnauthorizedPage } from './pages/ErrorPage';
import RedirectPage from './pages/RedirectPage';
import { RESOURCES } from './resources';

const Dashboard = lazy(() => import('./pages/Dashboard'));
const IconManagement = lazy(() => import('./pages/icons/IconManagement'));
const InfoPage = lazy(() => import('./pages/personal/InfoPage'));
const PasswordPage = lazy(() => import('./pages/personal/PasswordPage'));
const PlaceholderPage = lazy(() => import('./pages/PlaceholderPage'));
const StatusMonitorPage = lazy(() => import('./pages/monitor/StatusMonitorPage'));
const FaultClearingPage = lazy(() => import('./pages/service/FaultClearingPage'));
const PreferencePage = lazy(() => import('./pages/personal/PreferencePage'));
const PermissionConfigPage = lazy(() => import('./pages/system/PermissionConfigPage'));
const DeviceGroupsPage = lazy(() => import('./pages/devices/DeviceGroupsPage'));
const ActivateDevicePage = lazy(() => import('./pages/devices/ActivateDevicePage'));
const DeviceDetailPage = lazy(() => import('./pages/vessel/DeviceDetailPage'));
const TimeStatisticsPage = lazy(() => import('./pages/vessel/TimeStatisticsPage'));
const CameraPage = lazy(() => import('./pages/vessel/CameraPage'));
const TrackPage = lazy(() => import('./pages/history/TrackPage'));
const LocationPage = lazy(() => import('./pages/history/LocationPage'));

const suspended = (Page: ComponentType) => (
  <Suspense fallback={<Loading />}>
    <Page />
  </Suspense>
);

/** Pages built in this issue; every other menu page is a placeholder until its issue lands. */
const BUILT: Record<string, ComponentType> = {
  '/device/deviceManageData': StatusMonitorPage,
  '/system/icon': IconManagement,
  '/personal/info': InfoPage,
  '/personal/password': PasswordPage,
  '/service/faultClearing': FaultClearingPage,
  '/personal/preference': PreferencePage,
  '/system/permissionConfig': PermissionConfigPage,
  '/device/deviceData': DeviceGroupsPage,
  '/activation/ActivateDevice': ActivateDevicePage,
  '/device/deviceDataDetail': DeviceDetailPage,
  '/device/timeStatistics': TimeStatisticsPage,
  '/device/cameraInfo': CameraPage,
  '/device/map': TrackPage,
  '/device/deviceLocation': LocationPage,
};
const RESOURCE_PATHS = new Set(RESOURCES.map((r) => `/${r.name}`));

/** Routes inside the layout: dashboard, redirect, error pages, group redirects, pages. */
export function layoutRoutes() {
  return [
    <Route key="dashboard" path="/dashboard" element={suspended(Dashboard)} />,
    <Route key="redirect" path="/redirect/*" element={<RedirectPage />} />,
    <Route key="404" path="/404" element={<NotFoundPage />} />,
    <Route key="401" path="/401" element={<UnauthorizedPage />} />,
    ...MENU.map((group) => <Route key={group.path} path={group.path} element={<Navigate to={group.redirect} replace />} />),
    ...MENU.flatMap((group) => group.children)
      .filter((page) => !RESOURCE_PATHS.has(page.path))
      .map((page) => <Route key={page.path} path={`${page.path}/*`} element={suspended(BUILT[page.path] ?? PlaceholderPage)} />),
  ];
}
