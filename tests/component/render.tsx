import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ConsoleI18nProvider } from '../../src/i18n/I18nContext';

/** Shows the current path, so tests can assert navigation. */
export function WhereAmI() {
  const { pathname, search } = useLocation();
  return (
    <>
      <output data-testid="where">{pathname}</output>
      <output data-testid="where-search">{search}</output>
    </>
  );
}

export function renderAt(path: string, ui: ReactNode) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <ConsoleI18nProvider>
        <Routes>
          <Route
            path="*"
            element={
              <>
                {ui}
                <WhereAmI />
              </>
            }
          />
        </Routes>
      </ConsoleI18nProvider>
    </MemoryRouter>,
  );
}
