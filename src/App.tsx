import { Suspense, useMemo, type ComponentType } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { Admin, CustomRoutes, Loading, Resource, memoryStore } from 'react-admin';
import { BrowserRouter, Navigate, Route, useNavigate } from 'react-router-dom';
import { createAuthProvider } from './authProvider';
import { createDataProvider } from './data/dataProvider';
import { createI18nProvider } from './i18n/i18nProvider';
import { Layout } from './layout/Layout';
import { LoginPage } from './pages/login/LoginPage';
import AuthRedirect from './pages/AuthRedirect';
import { ENDPOINTS, RESOURCES, resourceMessages } from './resources';
import { lazyView } from './resources/lazyView';
import type { ResourceDefinition } from './resources/types';
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

/** Every view, generic or a resource's own, is loaded when its page opens: the dashboard carries none of them. */
type GenericView = ComponentType<{ definition: ResourceDefinition }>;
const ResourceList = lazyView(
  () => import('./resources/generic/ResourceList'),
  (m) => m.ResourceList,
);
const ResourceCreate = lazyView(
  () => import('./resources/generic/ResourceCreate'),
  (m) => m.ResourceCreate,
);
const ResourceEdit = lazyView(
  () => import('./resources/generic/ResourceEdit'),
  (m) => m.ResourceEdit,
);
const ResourceShow = lazyView(
  () => import('./resources/generic/ResourceShow'),
  (m) => m.ResourceShow,
);
const view = (own: ComponentType | undefined, Generic: GenericView, definition: ResourceDefinition) => {
  const View = own ?? (() => <Generic definition={definition} />);
  return () => (
    <Suspense fallback={<Loading />}>
      <View />
    </Suspense>
  );
};
const VIEWS = RESOURCES.map((definition) => ({
  definition,
  List: view(definition.views?.list, ResourceList, definition),
  Create: definition.endpoints.create ? view(definition.views?.create, ResourceCreate, definition) : undefined,
  Edit: definition.endpoints.update ? view(definition.views?.edit, ResourceEdit, definition) : undefined,
  Show:
    definition.views?.show || (definition.show && definition.endpoints.one)
      ? view(definition.views?.show, ResourceShow, definition)
      : undefined,
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
          <Resource
            key={definition.name}
            name={definition.name}
            list={List}
            create={Create}
            edit={Edit}
            show={Show}
            recordRepresentation={definition.recordRepresentation}
          />
        ))}
      </Admin>
    </BrowserRouter>
  );
}
