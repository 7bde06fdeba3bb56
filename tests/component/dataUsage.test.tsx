import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { AdminContext } from 'react-admin';
import { DataUsageSection } from '../../src/pages/vessel/DataUsageSection';
import { createDataProvider } from '../../src/data/dataProvider';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { restoreState, setState } from '../../src/state/clientState';
import { mockApi, ok } from '../console/helpers';
import { renderAt } from './render';

const USAGE_PATH = '/deviceModule/dataPlan/getUsage';
const SET_PATH = '/deviceModule/dataPlan/set';
const full = (path: string) => `/cz/test${path}`;
const daily = Array.from({ length: 62 }, (_, i) => ({ date: new Date(Date.UTC(2026, 9, 23 + i)).toISOString().slice(0, 10), bytes: 4e9 }));
const planned = {
  deviceId: 7,
  plan: { deviceId: 7, quotaBytes: 100e9, resetDay: 3, updatedAt: '2026-11-20T08:00:00Z', updatedBy: 2, updatedByName: 'oceanic' },
  periodStart: '2026-11-03T00:00:00.000Z',
  periodEnd: '2026-12-03T00:00:00.000Z',
  usedBytes: 86e9,
  quotaBytes: 100e9,
  percent: 86,
  level: 80,
  previous: { periodStart: '2026-10-03T00:00:00.000Z', periodEnd: '2026-11-03T00:00:00.000Z', usedBytes: 91e9 },
  daily,
};
const unplanned = {
  ...planned,
  plan: null,
  quotaBytes: null,
  percent: null,
  level: 0,
  usedBytes: 12e9,
  daily: daily.map((d) => ({ ...d, bytes: 0 })),
};

function renderSection(lang: 'zh' | 'en' = 'en') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  return renderAt(
    '/device/deviceDataDetail?id=7',
    <AdminContext i18nProvider={createI18nProvider(lang)} dataProvider={createDataProvider({})} queryClient={queryClient}>
      <DataUsageSection deviceId={7} />
    </AdminContext>,
  );
}

describe("the vessel page's data usage section", () => {
  beforeEach(() => restoreState());

  it("shows this period's usage against the plan with a named progress bar, and edits the plan with checks as you type", async () => {
    setState({ token: 'T', permissionLevel: '2', id: 2, name: 'oceanic' });
    const { calls } = mockApi((path) => (path === USAGE_PATH || path === SET_PATH ? ok(planned) : ok(null)));
    renderSection();
    const bar = await screen.findByRole('progressbar', { name: 'Share of the data plan used this period' });
    expect(bar).toHaveAttribute('aria-valuenow', '86');
    expect(screen.getByTestId('data-usage-used')).toHaveTextContent('86 GB of 100 GB used');
    expect(screen.getByTestId('data-usage-summary')).toHaveTextContent('Over 80 %');
    expect(screen.getByTestId('data-usage-summary')).toHaveTextContent('2026-11-03 – 2026-12-03 (UTC)');
    expect(calls.find((c) => c.url.pathname === full(USAGE_PATH))!.url.searchParams.get('deviceId')).toBe('7');

    fireEvent.click(screen.getByTestId('data-plan-edit'));
    const dialog = await screen.findByRole('dialog');
    const quota = within(dialog).getByTestId('data-plan-quota');
    expect(quota).toHaveValue('100');
    fireEvent.change(quota, { target: { value: '0' } });
    expect(within(dialog).getByText('The quota must be more than 0 and at most 1,000,000 GB')).toBeInTheDocument();
    expect(within(dialog).getByTestId('data-plan-save')).toBeDisabled();
    fireEvent.change(quota, { target: { value: '150.5' } });
    fireEvent.change(within(dialog).getByTestId('data-plan-reset-day'), { target: { value: '29' } });
    expect(within(dialog).getByText('The reset day must be a whole number from 1 to 28')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByTestId('data-plan-reset-day'), { target: { value: '15' } });
    expect(within(dialog).queryByText('The reset day must be a whole number from 1 to 28')).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByTestId('data-plan-save'));
    await waitFor(() => expect(calls.some((c) => c.url.pathname === full(SET_PATH))).toBe(true));
    expect(calls.find((c) => c.url.pathname === full(SET_PATH))!.body).toEqual({ deviceId: 7, quotaBytes: 150_500_000_000, resetDay: 15 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows an empty state without a plan, read-only for a sub-user, in Chinese', async () => {
    setState({ token: 'T', permissionLevel: '3', id: 3, name: 'oceanops' });
    mockApi((path) => (path === USAGE_PATH ? ok(unplanned) : ok(null)));
    renderSection('zh');
    expect(await screen.findByTestId('data-plan-empty')).toHaveTextContent('这艘船舶还没有流量套餐。');
    expect(screen.getByTestId('data-plan-empty')).toHaveTextContent('本月已用 12 GB（未设置套餐）');
    expect(screen.queryByTestId('data-plan-edit')).not.toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: '本期流量已用百分比' })).not.toBeInTheDocument();
    expect(screen.getByTestId('data-usage-no-data')).toHaveTextContent('暂无流量数据');
  });
});
