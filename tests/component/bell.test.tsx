import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Bell } from '../../src/layout/Bell';
import { restoreState } from '../../src/state/clientState';
import { mockApi, ok, type Reply } from '../console/helpers';
import { renderAt } from './render';

const ALARM_PATH = '/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition';

describe('the message bell', () => {
  beforeEach(() => restoreState());
  afterEach(() => undefined);

  it('polls the alarm query with deviceStatus [2] (unacknowledged alarms, one is enough) and shows the dot when devices come back', async () => {
    const { calls } = mockApi((path) => (path === ALARM_PATH ? ok({ list: [{ deviceId: 1 }], total: 1 }) : ok(null)));
    renderAt('/dashboard', <Bell />);
    await waitFor(() => expect(screen.getByTestId('bell-dot')).toBeInTheDocument());
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.body).toEqual({ deviceStatus: [2], unacknowledgedOnly: true, pageIndex: 1, pageSize: 1 });
  });

  it('a click clears the dot and opens the status monitor filtered to warn', async () => {
    mockApi(() => ok([{ deviceId: 1 }]));
    renderAt('/dashboard', <Bell />);
    await waitFor(() => expect(screen.getByTestId('bell-dot')).toBeInTheDocument());
    fireEvent.click(screen.getByTestId('bell'));
    expect(screen.queryByTestId('bell-dot')).not.toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/device/deviceManageData');
    expect(screen.getByTestId('where-search')).toHaveTextContent('?state=warn');
  });

  it('asks again at once when a page says alarms changed, and the dot goes off', async () => {
    let answer: unknown[] = [{ deviceId: 1 }];
    const { calls } = mockApi(() => ok(answer));
    renderAt('/dashboard', <Bell />);
    await waitFor(() => expect(screen.getByTestId('bell-dot')).toBeInTheDocument());
    answer = [];
    window.dispatchEvent(new Event('fleet:alarms-changed'));
    await waitFor(() => expect(screen.queryByTestId('bell-dot')).not.toBeInTheDocument());
    expect(calls.length).toBeGreaterThanOrEqual(2);
  });

  it.each<[string, Reply]>([
    ['an empty list', ok({ list: [], total: 0 })],
    ['code 10 (the endpoint does not exist yet)', { status: 404, body: { code: 10, msg: 'No such API endpoint', data: null } }],
  ])('no dot for %s', async (_, reply) => {
    const { calls } = mockApi(() => reply);
    renderAt('/dashboard', <Bell />);
    await waitFor(() => expect(calls).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('bell-dot')).not.toBeInTheDocument();
  });

  it('polls again every warnRefreshSeconds', async () => {
    const { calls } = mockApi(() => ok([]));
    const { setConfig } = await import('../../src/config');
    setConfig({ baseURL: 'http://api.test', apiSegment: 'test', warnRefreshSeconds: 0.05, environment: 'development' });
    renderAt('/dashboard', <Bell />);
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(3), { timeout: 2000 });
  });
});
