import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { AdminContext } from 'react-admin';
import { LinkTimelineSection } from '../../src/pages/vessel/LinkTimeline';
import { createDataProvider } from '../../src/data/dataProvider';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { restoreState, setState } from '../../src/state/clientState';
import { mockApi, ok } from '../console/helpers';
import { renderAt } from './render';

const LINKS_PATH = '/deviceModule/vessel/getLinks';
const at = (hhmm: string) => `2026-11-27T${hhmm}:00.000Z`;

/** A day of a vBox with three links: GEO loses lock at 06:00 (LEO takes over), LEO is obstructed at 08:00 (4G), GEO is back at 09:00. */
const answer = {
  window: '24h',
  from: '2026-11-26T12:00:00.000Z',
  to: at('12:00'),
  links: [
    { linkId: 'vsat1', kind: 'geo', priority: 0, state: 'up', active: true, latencyMs: 612.4, downMbps: 8, upMbps: 2 },
    { linkId: 'leo1', kind: 'leo', priority: 1, state: 'standby', active: false, latencyMs: 45, downMbps: 180, upMbps: 20 },
    { linkId: 'lte1', kind: 'cellular', priority: 2, state: 'down', active: false, latencyMs: null, downMbps: null, upMbps: null },
  ].map((l) => ({
    signal: l.kind === 'geo' ? 70 : null,
    snr: l.kind === 'geo' ? 11.2 : null,
    obstructionPct: l.kind === 'leo' ? 3 : null,
    reportedAt: at('11:59'),
    since: at('09:00'),
    ...l,
  })),
  lanes: [
    {
      linkId: 'vsat1',
      kind: 'geo',
      priority: 0,
      segments: [
        { from: '2026-11-26T12:00:00.000Z', to: at('06:00'), state: 'up', active: true },
        { from: at('06:00'), to: at('09:00'), state: 'down', active: false },
        { from: at('09:00'), to: at('12:00'), state: 'up', active: true },
      ],
    },
    {
      linkId: 'leo1',
      kind: 'leo',
      priority: 1,
      segments: [
        { from: '2026-11-26T12:00:00.000Z', to: at('06:00'), state: 'standby', active: false },
        { from: at('06:00'), to: at('08:00'), state: 'up', active: true },
        { from: at('08:00'), to: at('12:00'), state: 'standby', active: false },
      ],
    },
    { linkId: 'lte1', kind: 'cellular', priority: 2, segments: [{ from: at('08:00'), to: at('12:00'), state: 'down', active: false }] },
  ],
  failovers: [
    { at: at('06:00'), fromLink: 'vsat1', toLink: 'leo1', reason: 'lockLost' },
    { at: at('08:00'), fromLink: 'leo1', toLink: 'lte1', reason: 'obstruction' },
    { at: at('09:00'), fromLink: 'lte1', toLink: 'vsat1', reason: 'restored' },
  ],
  availability: [
    { linkId: 'leo1', kind: 'leo', upSeconds: 7200, standbySeconds: 72000, downSeconds: 7200, activeSeconds: 7200, samples: 1440 },
    { linkId: 'vsat1', kind: 'geo', upSeconds: 75600, standbySeconds: 0, downSeconds: 10800, activeSeconds: 75600, samples: 1440 },
  ].map((a) => ({ latencyMs: 600, signal: null, snr: null, obstructionPct: null, ...a })),
};
const noLinks = { ...answer, links: [], lanes: [], failovers: [], availability: [] };

function renderSection(lang: 'zh' | 'en') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  renderAt(
    '/device/deviceDataDetail?id=7',
    <AdminContext i18nProvider={createI18nProvider(lang)} dataProvider={createDataProvider({})} queryClient={queryClient}>
      <LinkTimelineSection deviceId={7} />
    </AdminContext>,
  );
  return queryClient;
}

describe("the vessel page's link timeline", () => {
  beforeEach(() => {
    restoreState();
    setState({ token: 'T', permissionLevel: '2', id: 2, name: 'oceanic', timeZone: 8 });
  });

  it('draws a lane per link, the failovers with their reasons in the selected zone and the links now, in English', async () => {
    const { calls } = mockApi((path) => (path === LINKS_PATH ? ok(answer) : ok(null)));
    renderSection('en');
    const section = await screen.findByTestId('link-timeline');
    const call = calls.find((c) => c.url.pathname === `/cz/test${LINKS_PATH}`)!;
    expect([call.url.searchParams.get('id'), call.url.searchParams.get('window')]).toEqual(['7', '24h']);

    const lanes = within(section).getAllByTestId('link-lane');
    expect(lanes.map((l) => l.textContent)).toEqual(['GEO VSAT vsat1Primary', 'LEO satellite leo1Backup', '4G/5G lte1Backup']);
    const geo = screen.getByTestId('link-lane-vsat1');
    expect([...geo.querySelectorAll('[data-state]')].map((s) => [s.getAttribute('data-state'), s.getAttribute('data-active')])).toEqual([
      ['up', 'true'],
      ['down', 'false'],
      ['up', 'true'],
    ]);
    expect(screen.getByTestId('links-range')).toHaveTextContent('2026-11-26 20:00:00 – 2026-11-27 20:00:00 · Times in UTC+8 · 3 failovers');

    const markers = screen.getAllByTestId('failover-marker');
    expect(markers.map((m) => m.getAttribute('data-reason'))).toEqual(['lockLost', 'obstruction', 'restored']);
    expect(markers[0]).toHaveAccessibleName('2026-11-27 14:00:00: GEO VSAT vsat1 → LEO satellite leo1, Lock lost');
    expect(markers[2]).toHaveAccessibleName('2026-11-27 17:00:00: 4G/5G lte1 → GEO VSAT vsat1, Back to the preferred link');
    fireEvent.mouseOver(markers[1]!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('2026-11-27 16:00:00: LEO satellite leo1 → 4G/5G lte1, Obstruction');

    const row = (id: string) => [...screen.getByTestId(`current-link-${id}`).querySelectorAll('td')].map((td) => td.textContent);
    expect(row('vsat1')).toEqual(['GEO VSAT vsat1Primary', 'Up', 'Yes', '612.4', '8 / 2', '70 % / 11.2 dB', '—']);
    expect(row('leo1')).toEqual(['LEO satellite leo1Backup', 'Standby', 'No', '45', '180 / 20', '—', '3%']);
    expect(row('lte1')).toEqual(['4G/5G lte1Backup', 'Down', 'No', '—', '—', '—', '—']);
    // Shares of the counted time (24 h), in the lanes' order.
    const times = [...screen.getByTestId('link-times').querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.textContent),
    );
    expect(times).toEqual([
      ['GEO VSAT vsat1', '24h 00m', '87.5%', '0.0%', '12.5%', '87.5%', '600'],
      ['LEO satellite leo1', '24h 00m', '8.3%', '83.3%', '8.3%', '8.3%', '600'],
    ]);

    // The 7-day window is a keyboard-reachable toggle that asks for it.
    const week = screen.getByTestId('links-window-7d');
    expect(week.tagName).toBe('BUTTON');
    fireEvent.click(week);
    await waitFor(() => expect(calls.some((c) => c.url.searchParams.get('window') === '7d')).toBe(true));
  });

  it('names the failover reasons and the links in Chinese', async () => {
    mockApi((path) => (path === LINKS_PATH ? ok(answer) : ok(null)));
    renderSection('zh');
    await screen.findByTestId('link-timeline');
    expect(screen.getByRole('heading', { name: '通信链路' })).toBeInTheDocument();
    expect(screen.getAllByTestId('link-lane').map((l) => l.textContent)).toEqual([
      'GEO 卫星 (VSAT) vsat1主用',
      '低轨卫星 (LEO) leo1备用',
      '4G/5G 蜂窝 lte1备用',
    ]);
    const markers = screen.getAllByTestId('failover-marker');
    expect(markers[0]).toHaveAccessibleName('2026-11-27 14:00:00：GEO 卫星 (VSAT) vsat1 → 低轨卫星 (LEO) leo1，失锁');
    expect(markers[1]).toHaveAccessibleName(/天线遮挡$/);
    expect(markers[2]).toHaveAccessibleName(/回到首选链路$/);
    fireEvent.mouseOver(markers[0]!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('失锁');
    expect([...screen.getByTestId('current-link-vsat1').querySelectorAll('td')].map((td) => td.textContent)).toEqual([
      'GEO 卫星 (VSAT) vsat1主用',
      '可用',
      '是',
      '612.4',
      '8 / 2',
      '70 % / 11.2 dB',
      '—',
    ]);
  });

  it('draws nothing for a vessel without links', async () => {
    mockApi((path) => (path === LINKS_PATH ? ok(noLinks) : ok(null)));
    const queryClient = renderSection('en');
    await waitFor(() => expect(queryClient.getQueryState(['call', 'vessel', 'getLinks', 7, '24h'])?.status).toBe('success'));
    expect(screen.queryByTestId('link-timeline')).not.toBeInTheDocument();
    expect(screen.queryByText('Links')).not.toBeInTheDocument();
  });
});
