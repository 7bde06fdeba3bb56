import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { AdminContext } from 'react-admin';
import { Bell } from '../../src/layout/Bell';
import { createDataProvider } from '../../src/data/dataProvider';
import { useCallMutation } from '../../src/data/dataHooks';
import { createI18nProvider } from '../../src/i18n/i18nProvider';
import { restoreState } from '../../src/state/clientState';
import { mockApi, ok, type Reply } from '../console/helpers';
import { renderAt } from './render';

const ALARM_PATH = '/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition';
const ACK_PATH = '/deviceModule/alarm/acknowledge';

/** The bell as the console has it: inside react-admin, reading through the dataProvider and react-query's cache. */
function inConsole(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  return renderAt(
    '/dashboard',
    <AdminContext i18nProvider={createI18nProvider('en')} dataProvider={createDataProvider({})} queryClient={queryClient}>
      {ui}
    </AdminContext>,
  );
}

/** A page that acknowledges an alarm (the alarm list does the same). */
function AcknowledgeButton() {
  const acknowledge = useCallMutation('monitoring', 'acknowledge');
  return (
    <button type="button" data-testid="ack" onClick={() => acknowledge.mutate([[1]])}>
      ack
    </button>
  );
}

describe('the message bell', () => {
  beforeEach(() => restoreState());
  afterEach(() => undefined);

  it('polls the alarm query with deviceStatus [2] (unacknowledged alarms, one is enough) as a background call and shows the dot when devices come back', async () => {
    const { calls } = mockApi((path) => (path === ALARM_PATH ? ok({ list: [{ deviceId: 1 }], total: 1 }) : ok(null)));
    inConsole(<Bell />);
    await waitFor(() => expect(screen.getByTestId('bell-dot')).toBeInTheDocument());
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.url.pathname).toBe(`/cz/test${ALARM_PATH}`);
    expect(calls[0]!.body).toEqual({ deviceStatus: [2], unacknowledgedOnly: true, dataPlanAlarms: true, pageIndex: 1, pageSize: 1 });
    expect(calls[0]!.headers['X-Background']).toBe('1');
  });

  it('a click clears the dot and opens the status monitor filtered to warn', async () => {
    mockApi(() => ok([{ deviceId: 1 }]));
    inConsole(<Bell />);
    await waitFor(() => expect(screen.getByTestId('bell-dot')).toBeInTheDocument());
    fireEvent.click(screen.getByTestId('bell'));
    expect(screen.queryByTestId('bell-dot')).not.toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/device/deviceManageData');
    expect(screen.getByTestId('where-search')).toHaveTextContent('?state=warn');
  });

  it('after a click the dot comes back with the next answer that still holds a device', async () => {
    const { calls } = mockApi(() => ok([{ deviceId: 1 }]));
    const { setConfig } = await import('../../src/config');
    setConfig({ baseURL: 'http://api.test', apiSegment: 'test', warnRefreshSeconds: 0.05, environment: 'development' });
    inConsole(<Bell />);
    await waitFor(() => expect(screen.getByTestId('bell-dot')).toBeInTheDocument());
    fireEvent.click(screen.getByTestId('bell'));
    expect(screen.queryByTestId('bell-dot')).not.toBeInTheDocument();
    const before = calls.length;
    await waitFor(() => expect(screen.getByTestId('bell-dot')).toBeInTheDocument(), { timeout: 2000 });
    expect(calls.length).toBeGreaterThan(before);
  });

  it('after a click, a refetch with the same answer within the refresh period (a live event) leaves the dot off; another answer brings it back', async () => {
    let answer: unknown = [{ deviceId: 1 }];
    const { calls } = mockApi(() => ok(answer));
    const { setConfig } = await import('../../src/config');
    setConfig({ baseURL: 'http://api.test', apiSegment: 'test', warnRefreshSeconds: 60, environment: 'development' });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
    renderAt(
      '/dashboard',
      <AdminContext i18nProvider={createI18nProvider('en')} dataProvider={createDataProvider({})} queryClient={queryClient}>
        <Bell />
      </AdminContext>,
    );
    await waitFor(() => expect(screen.getByTestId('bell-dot')).toBeInTheDocument());
    fireEvent.click(screen.getByTestId('bell'));
    const before = calls.length;
    await queryClient.refetchQueries();
    expect(calls.length).toBeGreaterThan(before);
    expect(screen.queryByTestId('bell-dot')).not.toBeInTheDocument();
    answer = [{ deviceId: 2 }];
    await queryClient.refetchQueries();
    await waitFor(() => expect(screen.getByTestId('bell-dot')).toBeInTheDocument());
  });

  it('asks again at once when a page acknowledges an alarm (the monitoring calls are refreshed), and the dot goes off', async () => {
    let answer: unknown[] = [{ deviceId: 1 }];
    const { calls } = mockApi((path) => (path === ACK_PATH ? ok({ changed: 1 }) : ok(answer)));
    inConsole(
      <>
        <Bell />
        <AcknowledgeButton />
      </>,
    );
    await waitFor(() => expect(screen.getByTestId('bell-dot')).toBeInTheDocument());
    answer = [];
    fireEvent.click(screen.getByTestId('ack'));
    await waitFor(() => expect(screen.queryByTestId('bell-dot')).not.toBeInTheDocument());
    expect(calls.filter((c) => c.url.pathname.endsWith(ALARM_PATH)).length).toBeGreaterThanOrEqual(2);
    expect(calls.some((c) => c.url.pathname.endsWith(ACK_PATH))).toBe(true);
  });

  it.each<[string, Reply]>([
    ['an empty list', ok({ list: [], total: 0 })],
    ['code 10 (the endpoint does not exist yet)', { status: 404, body: { code: 10, msg: 'No such API endpoint', data: null } }],
  ])('no dot for %s', async (_, reply) => {
    const { calls } = mockApi(() => reply);
    inConsole(<Bell />);
    await waitFor(() => expect(calls).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('bell-dot')).not.toBeInTheDocument();
  });

  it('polls again every warnRefreshSeconds', async () => {
    const { calls } = mockApi(() => ok([]));
    const { setConfig } = await import('../../src/config');
    setConfig({ baseURL: 'http://api.test', apiSegment: 'test', warnRefreshSeconds: 0.05, environment: 'development' });
    inConsole(<Bell />);
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(3), { timeout: 2000 });
  });
});
