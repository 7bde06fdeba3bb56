import { Suspense, type ComponentType } from 'react';
import { Loading } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { MENU } from './navigation/menu';
import { NotFoundPage, UnauthorizedPage } from './pages/ErrorPage';
import RedirectPage from './pages/RedirectPage';
import { PAGES } from './pages';

const suspended = (Page: ComponentType) => (
  <Suspense fallback={<Loading />}>
    <Page />
  </Suspense>
);

/** Routes inside the layout: the declared pages, the group redirects, the redirect and error pages. */
export function layoutRoutes() {
  return [
    <Route key="redirect" path="/redirect/*" element={<RedirectPage />} />,
    <Route key="404" path="/404" element={<NotFoundPage />} />,
    <Route key="401" path="/401" element={<UnauthorizedPage />} />,
    ...MENU.map((group) => <Route key={group.path} path={group.path} element={<Navigate to={group.redirect} replace />} />),
    ...PAGES.map((page) => <Route key={page.path} path={`${page.path}/*`} element={suspended(page.component)} />),
  ];
}
