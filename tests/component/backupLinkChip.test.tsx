import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import type { DeviceLiveState } from '../../src/api/monitoringApi';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { buildTheme } from '../../src/theme/buildTheme';
import { PALETTES } from '../../src/theme/palettes';
import { DeviceCard } from '../../src/pages/monitor/DeviceCard';
import { LiveStatusTable } from '../../src/pages/monitor/LiveStatusTable';
import { readFilters, toLiveQuery, writeFilters } from '../../src/pages/monitor/monitorFilters';
import { liveState } from './liveStateFixture';

const row = (id: number, activeLink: DeviceLiveState['activeLink']) =>
  liveState({ id, name: `Vessel ${id}`, deviceNum: `V${id}`, deviceKind: 'vbox', deviceType: 'vBox', satelliteName: null, activeLink });
const ROWS = [row(1, { linkId: 'leo1', kind: 'leo', priority: 1 }), row(2, { linkId: 'vsat1', kind: 'geo', priority: 0 }), row(3, null)];
const FILTERS = readFilters(new URLSearchParams());

function renderIn(language: 'zh' | 'en', ui: React.ReactNode) {
  return render(
    <MemoryRouter>
      <AdminContext i18nProvider={createI18nProvider(language)} theme={buildTheme(PALETTES[0]!.primary)}>
        {ui}
      </AdminContext>
    </MemoryRouter>,
  );
}

describe('the status monitor shows the vessels whose traffic goes over a backup link', () => {
  it.each([
    ['en', 'On backup: LEO satellite'],
    ['zh', '备用链路：低轨卫星 (LEO)'],
  ] as const)('marks only the vessel on a backup link, in the table and on the narrow screen’s cards (%s)', (language, label) => {
    const table = renderIn(
      language,
      <LiveStatusTable rows={ROWS} filters={FILTERS} change={() => undefined} selected={null} onSelect={() => undefined} />,
    );
    const chips = screen.getAllByTestId('monitor-backup-link');
    expect(chips.map((c) => c.textContent)).toEqual([label]);
    expect(screen.getByTestId('monitor-row-1').contains(chips[0]!)).toBe(true);
    table.unmount();
    for (const r of ROWS) {
      const card = renderIn(language, <DeviceCard row={r} selected={false} onSelect={() => undefined} />);
      expect(screen.queryByTestId('monitor-backup-link')?.textContent ?? null).toBe(r.id === 1 ? label : null);
      card.unmount();
    }
  });

  it('keeps the backup filter in the URL and asks the server for it', () => {
    const params = writeFilters(new URLSearchParams('state=online&page=3'), { link: 'backup' });
    expect(params.get('link')).toBe('backup');
    expect(params.get('page')).toBeNull();
    expect(toLiveQuery(readFilters(params))).toMatchObject({ onBackup: true, deviceStatus: [1] });
    expect(toLiveQuery(readFilters(new URLSearchParams('link=other'))).onBackup).toBe(false);
    expect(writeFilters(params, { link: null }).has('link')).toBe(false);
  });
});
