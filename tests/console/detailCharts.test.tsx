import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { AdminContext } from 'react-admin';
import DetailCharts from '../../src/pages/vessel/DetailCharts';
import { createDataProvider } from '../../src/data/dataProvider';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { restoreState, setState } from '../../src/state/clientState';
import { mockApi, ok } from './helpers';
import { renderAt } from '../component/render';

const to = Date.parse('2026-11-26T12:00:00Z');
/** A day of hourly buckets; `pointing` false: a 4G router's, without azimuth, elevation and skew (docs/devices.md). */
const series = (pointing: boolean) => ({
  window: '24h',
  from: new Date(to - 86_400_000).toISOString(),
  to: new Date(to).toISOString(),
  bucketSeconds: 3600,
  offlineMinutes: 10,
  points: Array.from({ length: 24 }, (_, i) => {
    const p: Record<string, number | null> = { t: to - (24 - i) * 3_600_000, n: 6 };
    for (const m of ['signal', 'snr', 'speed', 'azimuth', 'elevation', 'skew'])
      for (const f of ['Min', 'Max', 'Avg']) p[`${m}${f}`] = pointing || !['azimuth', 'elevation', 'skew'].includes(m) ? 40 + i : null;
    return p;
  }),
  bands: [{ state: 'online', from: to - 86_400_000, to }],
  totals: { online: 86_400, warn: 0, offline: 0 },
  faults: [],
});

describe("the vessel detail's charts", () => {
  beforeEach(() => {
    restoreState();
    setState({ token: 'T', permissionLevel: '2', id: 2, name: 'oceanic' });
  });

  it.each([
    ['a VSAT terminal', true],
    ['a 4G router', false],
  ])('draw the pointing chart only for a vessel that reports pointing (%s)', async (_, pointing) => {
    mockApi((path) => (path === '/deviceModule/vessel/getSeries' ? ok(series(pointing)) : ok(null)));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
    renderAt(
      '/device/deviceDataDetail?id=7',
      <AdminContext i18nProvider={createI18nProvider('en')} dataProvider={createDataProvider({})} queryClient={queryClient}>
        <DetailCharts deviceId={7} window="24h" />
      </AdminContext>,
    );
    await screen.findByTestId('chart-signal');
    expect(screen.getByTestId('chart-speedChart')).toBeInTheDocument();
    expect(screen.queryByTestId('chart-pointing') !== null).toBe(pointing);
  });
});
