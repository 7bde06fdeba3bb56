import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import L from 'leaflet';
import { AdminContext, ResourceContextProvider, type DataProvider } from 'react-admin';
import { createDataProvider } from '../../src/data/dataProvider';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { loadMessages } from '../../src/i18n/messages';
import { ENDPOINTS, RESOURCES, resourceMessages } from '../../src/resources';
import { ResourceCreate } from '../../src/resources/generic/ResourceCreate';
import { GEOFENCES_NAME } from '../../src/domain/geofences';
import { NO_USER, setState } from '../../src/state/clientState';
import { buildTheme } from '../../src/theme/buildTheme';
import { PALETTES } from '../../src/theme/palettes';
import { levelAuthProvider } from '../component/levelAuthProvider';
import { mockApi, ok } from './helpers';

/**
 * The geofence form's map (a `geometry` field, src/map/GeometryInput.tsx): clicks on the map write a
 * polygon's points and a circle's centre into the form, the domain schema's errors show under the
 * map, and what is saved is what was drawn.
 */

const definition = RESOURCES.find((r) => r.name === GEOFENCES_NAME)!;

/** jsdom has neither a canvas nor ResizeObserver: Leaflet's canvas renderer draws into nothing. */
beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  const noop = () => undefined;
  const ctx = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : noop),
    set: (target, key, value) => ((target[key] = value), true),
  });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => ctx as unknown as CanvasRenderingContext2D);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setState({ ...NO_USER, roles: [], token: null });
  delete window.__geometryInput;
});

async function renderCreate() {
  await loadMessages('en');
  setState({ token: 'T', permissionLevel: '2', id: 3, name: 'oceanic', roles: ['2'] });
  const { calls } = mockApi((path) => (path.endsWith('/add') ? ok({ id: 9 }) : ok({ list: [], total: 0 })), { getToken: () => 'T' });
  render(
    <AdminContext
      i18nProvider={createI18nProvider('en', { zh: resourceMessages('zh'), en: resourceMessages('en') })}
      dataProvider={createDataProvider(ENDPOINTS) as DataProvider}
      authProvider={levelAuthProvider}
      theme={buildTheme(PALETTES[0]!.primary)}
    >
      <ResourceContextProvider value={GEOFENCES_NAME}>
        <ResourceCreate definition={definition} />
      </ResourceContextProvider>
    </AdminContext>,
  );
  await screen.findByTestId('geometry-map', {}, { timeout: 15_000 });
  await waitFor(() => expect(window.__geometryInput?.map).toBeTruthy());
  const map = window.__geometryInput!.map;
  const click = (lat: number, lon: number) => map.fire('click', { latlng: L.latLng(lat, lon) });
  const adds = () => calls.filter((c) => c.url.pathname.endsWith('/supportModule/geofence/add'));
  return { click, adds };
}

const text = () => document.body.textContent ?? '';

describe('the geofence form', () => {
  it('writes the clicked points of a polygon, shows the polygon rule until there are three, and saves them', async () => {
    const { click, adds } = await renderCreate();
    fireEvent.change(await screen.findByLabelText(/^name/i), { target: { value: 'Yangshan port' } });
    click(30.61, 122.05);
    click(30.65, 122.1);
    await waitFor(() => expect(screen.getByTestId('geometry-count').textContent).toContain('Points: 2'));
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(screen.getByTestId('geometry-error').textContent).toBe('A polygon needs 3 to 200 points'));
    expect(adds()).toHaveLength(0);

    click(30.58, 122.12);
    await waitFor(() => expect(screen.queryByTestId('geometry-error')).toBeNull());
    // Remove the last point and put it back elsewhere.
    fireEvent.click(screen.getByTestId('geometry-undo'));
    await waitFor(() => expect(screen.getByTestId('geometry-count').textContent).toContain('Points: 2'));
    click(30.57, 122.13);
    await waitFor(() => expect(screen.getByTestId('geometry-count').textContent).toContain('Points: 3'));
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(adds()).toHaveLength(1));
    expect(adds()[0]!.body).toMatchObject({
      name: 'Yangshan port',
      kind: 'port',
      shape: 'polygon',
      points: [
        [30.61, 122.05],
        [30.65, 122.1],
        [30.57, 122.13],
      ],
    });
  });

  it('writes the clicked centre of a circle into the latitude and longitude boxes, and shows the circle and radius rules', async () => {
    const { click, adds } = await renderCreate();
    fireEvent.change(await screen.findByLabelText(/^name/i), { target: { value: 'Anchorage B' } });
    // The shape select: MUI opens its list on mouse down.
    fireEvent.mouseDown(within(screen.getByTestId('form-section-main')).getAllByRole('combobox')[1]!);
    fireEvent.click(await screen.findByRole('option', { name: 'Circle' }));
    await screen.findByTestId('geometry-lat');
    expect(screen.queryByTestId('geometry-undo')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(screen.getByTestId('geometry-error').textContent).toBe('A circle needs its centre'));

    click(22.25, 113.9);
    await waitFor(() => expect((screen.getByTestId('geometry-lat') as HTMLInputElement).value).toBe('22.25'));
    expect((screen.getByTestId('geometry-lon') as HTMLInputElement).value).toBe('113.9');
    await waitFor(() => expect(screen.queryByTestId('geometry-error')).toBeNull());

    fireEvent.change(screen.getByTestId('geometry-radiusM'), { target: { value: '10' } });
    await waitFor(() => expect(screen.getByTestId('geometry-error').textContent).toBe('The radius must be between 50 m and 500 km'));
    fireEvent.change(screen.getByTestId('geometry-radiusM'), { target: { value: '2500' } });
    await waitFor(() => expect(screen.queryByTestId('geometry-error')).toBeNull());

    // Typed by keyboard, the centre moves too.
    fireEvent.change(screen.getByTestId('geometry-lat'), { target: { value: '22.3' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(adds()).toHaveLength(1));
    expect(adds()[0]!.body).toMatchObject({ name: 'Anchorage B', shape: 'circle', lat: 22.3, lon: 113.9, radiusM: 2500 });
    expect(text()).not.toMatch(/resources\.|validation\./);
  });
});
