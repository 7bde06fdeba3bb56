import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { AdminContext, ResourceContextProvider, type DataProvider } from 'react-admin';
import Polyglot from 'node-polyglot';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { pageTitle } from '../../src/i18n/pageTitle';
import { Breadcrumb } from '../../src/layout/Breadcrumb';
import { Menu } from '../../src/layout/Menu';
import { TabsStrip } from '../../src/layout/TabsStrip';
import { levelAuthProvider } from './levelAuthProvider';
import { ALL_PAGES } from '../../src/navigation/menu';
import { RESOURCES, resourceMessages } from '../../src/resources';
import { ResourceCreate } from '../../src/resources/generic/ResourceCreate';
import { ResourceShow } from '../../src/resources/generic/ResourceShow';
import { requiredSources } from '../../src/resources/generic/requiredFields';
import { groupBySection } from '../../src/resources/generic/sections';
import { NO_USER, restoreState, setState } from '../../src/state/clientState';
import { buildTheme } from '../../src/theme/buildTheme';
import { PALETTES } from '../../src/theme/palettes';
import { builtKeys, definitionWordProblems } from '../console/catalogues';
import { crewCertificateSchema, crewCertificatesResource } from './fixtures/crewCertificates';

/**
 * An entity whose words live in its definition looks finished: its plural name reads as a title
 * in the menu, the tabs, the breadcrumb and the page heading; its Show page labels every value in
 * its sections; its form marks the fields its yup schema requires.
 */
vi.mock('../../src/resources/extensions', async () => ({
  EXTENSION_RESOURCES: [(await import('./fixtures/crewCertificates')).crewCertificatesResource],
}));

const NAME = 'device/crewCertificate';
const LIST = `/${NAME}`;
const definition = RESOURCES.find((r) => r.name === NAME)!;

const authProvider = levelAuthProvider;

const RECORD = {
  id: 7,
  holder: 'Li Wei',
  deviceId: 3,
  grade: 'A',
  issuedAt: '2026-01-01T23:30:00Z',
  expiresAt: '2027-01-01',
  authority: null,
  remark: '',
  createdAt: '2026-01-02T00:00:00Z',
};
const dataProvider = {
  getOne: async (_resource: string, { id }: { id: unknown }) => ({ data: { ...RECORD, id } }),
  getMany: async (_resource: string, { ids }: { ids: unknown[] }) => ({ data: ids.map((id) => ({ id, name: 'Ocean Star' })) }),
  getList: async () => ({ data: [{ id: 3, name: 'Ocean Star' }], total: 1 }),
} as unknown as DataProvider;

function renderAt(path: string, route: string, ui: ReactNode, language: 'zh' | 'en' = 'en') {
  const i18n = createI18nProvider(language, { zh: resourceMessages('zh'), en: resourceMessages('en') });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext i18nProvider={i18n} dataProvider={dataProvider} authProvider={authProvider} theme={buildTheme(PALETTES[0]!.primary)}>
        <ResourceContextProvider value={NAME}>
          <Routes>
            <Route path={route} element={ui} />
          </Routes>
        </ResourceContextProvider>
      </AdminContext>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  restoreState();
  setState({ token: 'T', permissionLevel: '1', id: 1, name: 'admin', roles: ['1'], timeZone: 8, tabs: [] });
});
afterEach(() => setState({ ...NO_USER, roles: [], token: null }));

describe('a title that is a plural', () => {
  it('is translated with a count: the many in English, the one form in Chinese, any other title as it is', () => {
    const en = new Polyglot({ locale: 'en', phrases: { a: 'Crew certificate |||| Crew certificates', b: 'User Account' } });
    const zh = new Polyglot({ locale: 'zh', phrases: { a: '船员证书' } });
    expect(pageTitle((k, o) => en.t(k, o), 'a')).toBe('Crew certificates');
    expect(pageTitle((k, o) => en.t(k, o), 'b')).toBe('User Account');
    expect(pageTitle((k, o) => zh.t(k, o), 'a')).toBe('船员证书');
  });

  it('reads as "Crew certificates" in the menu, the tab, the breadcrumb and the page heading, never with ||||', async () => {
    renderAt(
      `${LIST}/7/show`,
      `${LIST}/:id/show`,
      <>
        <Menu />
        <TabsStrip />
        <Breadcrumb />
        <ResourceShow definition={definition} />
      </>,
    );
    expect(screen.getByTestId(`menu-${LIST}`)).toHaveTextContent(/^Crew certificates$/);
    expect(screen.getByTestId(`tab-${LIST}`)).toHaveTextContent(/^Crew certificates$/);
    expect(within(screen.getByTestId('breadcrumb')).getByText('Crew certificates')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Crew certificates · Show');
    await screen.findByText('Li Wei');
    expect(document.body.textContent).not.toContain('||||');
  });

  it('reads as its one Chinese form in Chinese', () => {
    renderAt(LIST, LIST, <Breadcrumb />, 'zh');
    expect(within(screen.getByTestId('breadcrumb')).getByText('船员证书')).toBeInTheDocument();
  });
});

describe("a definition's own words in the language checks", () => {
  it('name its menu entry in both languages, from the catalogues as the console builds them', () => {
    const entry = ALL_PAGES.find((p) => p.path === LIST)!;
    expect(builtKeys('en')[entry.titleKey]).toBe('Crew certificate |||| Crew certificates');
    expect(builtKeys('zh')[entry.titleKey]).toBe('船员证书');
  });

  it('find keys in one language only and fields or columns without a label', () => {
    expect(definitionWordProblems(crewCertificatesResource)).toEqual([]);
    const { remark: _remark, ...fields } = crewCertificatesResource.messages!.en.fields;
    const broken = {
      ...crewCertificatesResource,
      columns: [...crewCertificatesResource.columns, { source: 'owner', label: 'resources.x.owner' }],
      messages: { zh: crewCertificatesResource.messages!.zh, en: { ...crewCertificatesResource.messages!.en, fields } },
    };
    expect(definitionWordProblems(broken)).toEqual([`${NAME}: fields.remark only in zh`, `${NAME}: no en label for remark`]);
  });
});

describe('the generic Show page', () => {
  const pairs = (section: HTMLElement) =>
    within(section)
      .getAllByRole('term')
      .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);

  it('labels each value, the untitled group first and then each section under its heading, values drawn as the list draws them', async () => {
    renderAt(`${LIST}/7/show`, `${LIST}/:id/show`, <ResourceShow definition={definition} />);
    const main = await screen.findByTestId('show-section-main');
    await waitFor(() => expect(within(main).getByText('Ocean Star')).toBeInTheDocument());
    expect(pairs(main)).toEqual([
      ['Holder', 'Li Wei'],
      ['Vessel', 'Ocean Star'],
      ['Grade', 'Grade A'],
      ['Created', '2026-01-02 08:00:00'],
    ]);
    const validity = screen.getByRole('region', { name: 'Validity' });
    expect(pairs(validity)).toEqual([
      ['Issued', '2026-01-02 07:30:00'],
      ['Valid until', '2027-01-01'],
      ['Issuing authority', '—'],
    ]);
    expect(pairs(screen.getByRole('region', { name: 'Notes' }))).toEqual([['Remark', '—']]);
    const order = [...document.querySelectorAll('[data-testid^="show-section-"]')].map((s) => s.getAttribute('data-testid'));
    expect(order).toEqual([
      'show-section-main',
      'show-section-resources.device/crewCertificate.sections.validity',
      'show-section-resources.device/crewCertificate.sections.notes',
    ]);
  });
});

describe('the generic form', () => {
  const labelOf = (source: string) => document.querySelector(`label[for="${source}"]`)?.textContent ?? '';

  it('reads which fields are required from the yup schema, and rules that depend on another field for the values', () => {
    expect([...requiredSources(crewCertificateSchema)].sort()).toEqual(['deviceId', 'holder', 'issuedAt']);
    expect(requiredSources(crewCertificateSchema, { grade: 'A' }).has('authority')).toBe(true);
    expect(requiredSources(undefined).size).toBe(0);
    expect(groupBySection([{ section: 'b' }, {}, { section: 'a' }, { section: 'b' }]).map((s) => [s.key, s.items.length])).toEqual([
      [null, 1],
      ['b', 2],
      ['a', 1],
    ]);
  });

  it('marks the required fields with an asterisk, groups the fields by section, and marks a field when its rule comes to require it', async () => {
    renderAt(`${LIST}/create`, `${LIST}/create`, <ResourceCreate definition={definition} />);
    await screen.findByLabelText(/Holder/);
    expect(labelOf('holder')).toMatch(/^Holder\s*\*$/);
    expect(labelOf('deviceId')).toMatch(/^Vessel\s*\*$/);
    expect(labelOf('issuedAt')).toMatch(/^Issued\s*\*$/);
    expect(labelOf('remark')).toBe('Remark');
    expect(labelOf('expiresAt')).toBe('Valid until');
    expect(labelOf('authority')).toBe('Issuing authority');

    const validity = screen.getByRole('group', { name: 'Validity' });
    expect(within(validity).getByLabelText(/Issued/)).toBeInTheDocument();
    expect(within(validity).queryByLabelText(/Holder/)).toBeNull();
    expect(within(screen.getByRole('group', { name: 'Notes' })).getByLabelText('Remark')).toBeInTheDocument();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Grade/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Grade A' }));
    await waitFor(() => expect(labelOf('authority')).toMatch(/^Issuing authority\s*\*$/));
  });

  it('writes an error under its input, inside the input, so it takes its own room above the next field', async () => {
    renderAt(`${LIST}/create`, `${LIST}/create`, <ResourceCreate definition={definition} />);
    const holder = await screen.findByLabelText(/Holder/);
    fireEvent.focus(holder);
    fireEvent.blur(holder);
    const input = holder.closest('.ra-input') as HTMLElement;
    await waitFor(() => expect(input.querySelector('.MuiFormHelperText-root.Mui-error')).toHaveTextContent('required'));
    // The next field comes after the whole input (label, box and error line) in the group's flow, not laid over it.
    expect(input.nextElementSibling).toBe(screen.getByLabelText(/Vessel/).closest('.ra-input'));
  });
});
