import { beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { AdminContext } from 'react-admin';
import { DeviceCard } from '../../src/pages/monitor/DeviceCard';
import { CursorReport } from '../../src/pages/history/TrackPanels';
import DeviceDetailPage from '../../src/pages/vessel/DeviceDetailPage';
import { createDataProvider } from '../../src/data/dataProvider';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { restoreState, setState } from '../../src/state/clientState';
import { mockApi, ok } from './helpers';
import { renderAt } from '../component/render';
import { liveState } from '../component/liveStateFixture';

/** The same report as the status monitor, the vessel's detail and the track show it. */
const LEVEL = 93.64;
const row = liveState({ signalLevel: LEVEL });

function renderIn(lang: 'zh' | 'en', ui: React.ReactNode, path = '/') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  return renderAt(
    path,
    <AdminContext i18nProvider={createI18nProvider(lang)} dataProvider={createDataProvider({})} queryClient={queryClient}>
      {ui}
    </AdminContext>,
  );
}

describe('the signal level, one unit and one rounding everywhere', () => {
  beforeEach(() => {
    restoreState();
    setState({ token: 'T', permissionLevel: '2', id: 2, name: 'oceanic' });
  });

  it.each(['en', 'zh'] as const)(
    'shows the same whole percent in the status monitor, the vessel detail and the track (%s)',
    async (lang) => {
      mockApi((path) =>
        path === '/deviceModule/vessel/getDetail'
          ? ok({
              device: { id: 7, name: row.name, deviceNum: row.deviceNum, deviceKind: 'vsat', activated: true },
              latest: { ...row, reportedAt: row.reportedAt, signalLevel: LEVEL, status: 1 },
              status: 1,
              faults: [],
              currentVoyage: null,
              pendingReport: null,
            })
          : ok(null),
      );
      const list = renderIn(lang, <DeviceCard row={row} selected={false} onSelect={() => undefined} />);
      expect(within(list.container).getByTestId('monitor-signal').textContent).toMatch(/^AsiaSat 5 · 94 % · /);
      list.unmount();

      const track = renderIn(
        lang,
        <CursorReport
          point={{
            time: Date.now(),
            lat: 2.5,
            lon: 101.5,
            speed: 14.2,
            heading: 312,
            signal: Math.round(LEVEL),
            state: 1,
            afterGap: false,
          }}
        />,
      );
      expect(within(track.container).getByTestId('cursor-signal')).toHaveTextContent(/^94 %$/);
      track.unmount();

      renderIn(lang, <DeviceDetailPage />, '/device/deviceDataDetail?id=7');
      const label = lang === 'en' ? 'Signal level' : '信号强度';
      const name = await screen.findByText(label, { exact: true });
      // The label's pair in the latest report's field grid: its value is the next cell.
      expect(name.nextElementSibling).toHaveTextContent(/^94 %$/);
    },
  );
});
