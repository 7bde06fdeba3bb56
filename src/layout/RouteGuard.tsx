import { useEffect, type ReactNode } from 'react';
import { Loading, useCheckAuth } from 'react-admin';
import { Navigate, useLocation } from 'react-router-dom';
import { canAccessPage, isDeclaredPath } from '../navigation/access';
import { useClientState } from '../state/useClientState';

/**
 * The session states of docs/requirements.md §4 for every page inside the layout: no token -> /login;
 * token without roles -> the user is fetched (checkAuth) and the page shows once it is there;
 * a path nobody declares -> /404; a page (or a resource's action) the level may not open -> /401.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const token = useClientState((s) => s.token);
  const level = useClientState((s) => s.permissionLevel);
  const checkAuth = useCheckAuth();

  useEffect(() => {
    if (token && !level) checkAuth().catch(() => undefined);
  }, [token, level, checkAuth]);

  if (!token) return <Navigate to={`/login?redirect=${encodeURIComponent(pathname + search)}`} replace />;
  if (!level) return <Loading />;
  // Nothing declared there: not found. Declared, but not for this level (or this action): denied.
  if (!isDeclaredPath(pathname)) return <Navigate to="/404" replace />;
  if (!canAccessPage(level, pathname)) return <Navigate to="/401" replace />;
  return <>{children}</>;
}
