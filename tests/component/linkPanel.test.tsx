import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { AdminContext } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import type { LinkSummary } from '../../src/api/monitoringApi';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { LinkPanel } from '../../src/pages/dashboard/LinkPanel';
import { NO_USER, getState, setState } from '../../src/state/clientState';

const SUMMARY: LinkSummary = {
  since: '2026-11-26T16:00:00.000Z',
  onBackup: [
    { deviceId: 7, deviceName: 'Ocean Star', linkId: 'leo1', kind: 'leo', since: new Date(Date.now() - 5 * 60_000).toISOString() },
  ],
  onBackupCount: 3,
  withLinks: 12,
  failovers: 9,
};

function renderPanel(summary: LinkSummary, language: 'zh' | 'en') {
  const call = vi.fn(async (_module: string, name: string) => {
    if (name === 'linkSummary') return summary;
    throw new Error(`unexpected call ${name}`);
  });
  const view = render(
    <MemoryRouter>
      <AdminContext i18nProvider={createI18nProvider(language)} dataProvider={{ call } as never}>
        <LinkPanel />
      </AdminContext>
    </MemoryRouter>,
  );
  return { call, view };
}

const { timeZone } = getState();
afterEach(() => setState({ ...NO_USER, roles: [], token: null, timeZone }));

describe("the dashboard's links panel", () => {
  it('shows the vessels on a backup link now and the failovers today, asked at the user’s zone (en, zh)', async () => {
    setState({ timeZone: 8 });
    const { call } = renderPanel(SUMMARY, 'en');
    expect((await screen.findByTestId('dashboard-links-backup')).textContent).toBe('On a backup link now3');
    expect(screen.getByTestId('dashboard-links-failovers').textContent).toBe('Failovers today9');
    expect(call).toHaveBeenCalledWith('monitoring', 'linkSummary', 8, 5, expect.anything());
    const vessel = screen.getByRole('link', { name: 'Ocean Star' });
    expect(vessel.getAttribute('href')).toBe('/device/deviceDataDetail?id=7');
    expect(vessel.parentElement!.textContent).toContain('on LEO satellite since');
  });

  it('says so in Chinese when every vessel is on its primary link, and shows nothing for a fleet without links', async () => {
    renderPanel({ ...SUMMARY, onBackup: [], onBackupCount: 0 }, 'zh');
    expect(await screen.findByText('所有船舶都在主链路上')).toBeTruthy();
    expect(screen.getByTestId('dashboard-links-failovers').textContent).toBe('今日链路切换9');
  });

  it('is not drawn when no vessel reports its links', async () => {
    const { call, view } = renderPanel({ ...SUMMARY, onBackup: [], onBackupCount: 0, withLinks: 0, failovers: 0 }, 'en');
    await vi.waitFor(() => expect(call).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50));
    expect(view.container.textContent).toBe('');
  });
});
