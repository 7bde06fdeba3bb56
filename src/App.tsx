import { Suspense, useMemo, type ComponentType } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { Admin, CustomRoutes, Loading, Resource, memoryStore } from 'react-admin';
import { BrowserRouter, Navigate, Route, useNavigate } from 'react-router-dom';
import { createAuthProvider } from './authProvider';
import { createDataProvider } from './dataProvider';
import { createI18nProvider } from './i18n/i18nProvider';
import { Layout } from './layout/Layout';
import { LoginPage } from './pages/login/LoginPage';
import AuthRedirect from './pages/AuthRedirect';
import { ENDPOINTS, RESOURCES, resourceMessages } from './resources';
import { ResourceCreate } from './resources/generic/ResourceCreate';
import { ResourceEdit } from './resources/generic/ResourceEdit';
import { ResourceList } from './resources/generic/ResourceList';
import { ResourceShow } from './resources/generic/ResourceShow';
import { layoutRoutes } from './routes';
import { getState } from './state/clientState';
import { buildTheme } from './theme/buildTheme';
import { useClientState } from './state/useClientState';

/** No refetch storms: the bell polls on its own clock; lists refresh on navigation. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, refetchOnReconnect: false, retry: false, staleTime: 10_000 } },
});

const dataProvider = createDataProvider(ENDPOINTS);
const authProvider = createAuthProvider();
const i18nProvider = createI18nProvider(getState().language, { zh: resourceMessages('zh'), en: resourceMessages('en') });

/** A view override is loaded when its page opens (lazyView); the generic views are here already. */
const own = (View: ComponentType | undefined) => View && (() => <Suspense fallback={<Loading />}><View /></Suspense>);
const VIEWS = RESOURCES.map((definition) => ({
  definition,
  List: own(definition.views?.list) ?? (() => <ResourceList definition={definition} />),
  Create: definition.endpoints.create ? own(definition.views?.create) ?? (() => <ResourceCreate definition={definition} />) : undefined,
  Edit: definition.endpoints.update ? own(definition.views?.edit) ?? (() => <ResourceEdit definition={definition} />) : undefined,
  Show: own(definition.views?.show) ?? (definition.show && definition.endpoints.one ? () => <ResourceShow definition={definition} /> : undefined),
}));

function RaLogin() {
  const navigate = useNavigate();
  return <LoginPage onLoggedIn={(to) => navigate(to, { replace: true })} />;
}

const ToDashboard = () => <Navigate to="/dashboard" replace />;
const To404 = () => <Navigate to="/404" replace />;
const To401 = () => <Navigate to="/401" replace />;

/** The console: react-admin with our providers, layout, routes and resources. */
export default function App() {
  const primary = useClientState((s) => s.theme);
  const size = useClientState((s) => s.size);
  const language = useClientState((s) => s.language);
  // Re-built on a language change so MUI's own texts (pagination, autocomplete) follow it.
  const theme = useMemo(() => buildTheme(primary, size, language), [primary, size, language]);
  return (
    <BrowserRouter>
    <Admin
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      queryClient={queryClient}
      store={memoryStore()}
      theme={theme}
      layout={Layout}
      dashboard={ToDashboard}
      loginPage={RaLogin}
      catchAll={To404}
      accessDenied={To401}
      disableTelemetry
    >
      <CustomRoutes noLayout>
        <Route path="/auth-redirect" element={<AuthRedirect />} />
      </CustomRoutes>
      <CustomRoutes>{layoutRoutes()}</CustomRoutes>
      {VIEWS.map(({ definition, List, Create, Edit, Show }) => (
        <Resource key={definition.name} name={definition.name} list={List} create={Create} edit={Edit} show={Show} recordRepresentation={definition.recordRepresentation} />
      ))}
    </Admin>
    </BrowserRouter>
  );
}
