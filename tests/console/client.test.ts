import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, NetworkError, request } from '../../src/api';
import { fetchAlarmCount } from '../../src/api/usersApi';
import { DASHBOARD_LATEST_ALARMS, monitoringApi, primeDashboard } from '../../src/api/monitoringApi';
import { mockApi, ok, recordActions } from './helpers';

let stop: () => void = () => undefined;
afterEach(() => stop());

function setup(reply: Parameters<typeof mockApi>[0], context = { onLoginPage: false, userName: 'admin' as string | null }) {
  const api = mockApi(reply, { getToken: () => 'tok', getLanguage: () => 'en', getContext: () => context });
  const recorded = recordActions();
  stop = recorded.stop;
  return { ...api, actions: recorded.actions };
}

describe('the HTTP client', () => {
  it('builds base/cz/segment/path with the token and language as query parameters, without credentials', async () => {
    const { calls } = setup(() => ok({ a: 1 }));
    await expect(request('/users/getAll', { query: { pageIndex: 1, name: '' } })).resolves.toEqual({ a: 1 });
    expect(calls[0]!.url.origin + calls[0]!.url.pathname).toBe('http://api.test/cz/test/users/getAll');
    expect(calls[0]!.url.searchParams.get('token')).toBe('tok');
    expect(calls[0]!.url.searchParams.get('lang')).toBe('en');
    expect(calls[0]!.url.searchParams.get('pageIndex')).toBe('1');
    expect(calls[0]!.url.searchParams.has('name')).toBe(false);
    expect(calls[0]!.credentials).toBe('omit');
  });

  it("starts the dashboard's calls early, and its views take those answers instead of asking again", async () => {
    let n = 0;
    const { calls } = setup(() => ok({ answer: (n += 1) }));
    primeDashboard();
    expect(calls.map((c) => c.url.pathname.split('/').pop())).toEqual([
      'getAllDeviceUploadDataWithCondition',
      'statusCounts',
      'getAll',
      'topFaults',
    ]);
    // The map's call, as the fleet map makes it once loaded: the primed answer, no second request.
    await expect(monitoringApi.liveAll({}, { background: true })).resolves.toEqual({ answer: 1 });
    await expect(monitoringApi.alarms(DASHBOARD_LATEST_ALARMS)).resolves.toEqual({ answer: 3 });
    expect(calls).toHaveLength(4);
    // Taken once: the next refresh asks the server.
    await expect(monitoringApi.liveAll({})).resolves.toEqual({ answer: 5 });
    expect(calls).toHaveLength(5);
  });

  it('sends form-encoded and JSON bodies', async () => {
    const { calls } = setup(() => ok());
    await request('/users/login', { method: 'POST', form: { name: 'a', password: 'b c' } });
    await request('/users/addUser', { method: 'POST', json: { name: 'x' } });
    expect(calls[0]!.contentType).toBe('application/x-www-form-urlencoded');
    expect(calls[0]!.body).toBe('name=a&password=b+c');
    expect(calls[1]!.contentType).toBe('application/json');
    expect(calls[1]!.body).toEqual({ name: 'x' });
  });

  it('times out after the given time with a timeout NetworkError and its message', async () => {
    const { actions } = setup(() => ok());
    const { configureClient } = await import('../../src/api');
    configureClient({
      fetch: ((_url: string, init: RequestInit) =>
        new Promise((_, reject) =>
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        )) as unknown as typeof fetch,
    });
    const error = await request('/slow', { timeoutMs: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).kind).toBe('timeout');
    expect(actions).toEqual([
      { kind: 'message', messageKey: 'console.error.timeout', messageArgs: { status: '' }, closable: false, durationMs: 5000 },
    ]);
  });

  it('uses a 60 s time-out by default', async () => {
    const { REQUEST_TIMEOUT_MS } = await import('../../src/domain/constants');
    expect(REQUEST_TIMEOUT_MS).toBe(60_000);
  });

  it.each([
    [-124, { kind: 'confirmReload', messageKey: 'error.kickedOut' }],
    [-125, { kind: 'confirmReload', messageKey: 'error.kickedOut' }],
    [-26, { kind: 'relogin' }],
    [-24, { kind: 'kicked', messageKey: 'error.loggedInElsewhere' }],
    [-101, { kind: 'message', messageKey: 'error.exportTooFrequent', closable: false, durationMs: 5000 }],
    [-100, { kind: 'message', messageKey: 'error.busy', closable: false, durationMs: 5000 }],
    [4, { kind: 'toLogin' }],
    [5, { kind: 'toLogin' }],
  ])('code %i: throws ApiError and announces %j', async (code, action) => {
    const { actions } = setup(() => ({ code, msg: 'm', data: null }));
    const error = await request('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(code);
    expect(actions).toEqual([action]);
  });

  it('-26 without a known user name reloads instead of the login-again dialog', async () => {
    const { actions } = setup(() => ({ code: -26, msg: 'timeout' }), { onLoginPage: false, userName: null });
    await request('/x').catch(() => undefined);
    expect(actions).toEqual([{ kind: 'reload' }]);
  });

  it.each([-124, -125, -24, -26])('code %i does nothing on the login page', async (code) => {
    const { actions } = setup(() => ({ code, msg: 'm' }), { onLoginPage: true, userName: 'admin' });
    await request('/x').catch(() => undefined);
    expect(actions).toEqual([]);
  });

  it('any other code: the message with the data in brackets, closable, 5 s', async () => {
    const { actions } = setup(() => ({ code: 1, msg: 'Invalid input', data: [{ field: 'name', message: 'Username cannot be empty' }] }));
    await request('/x').catch(() => undefined);
    expect(actions).toEqual([
      { kind: 'message', text: 'Invalid input [name: Username cannot be empty]', closable: true, durationMs: 5000 },
    ]);
  });

  it('any other code with empty data: the message alone', async () => {
    const { actions } = setup(() => ({ code: 3, msg: 'Forbidden', data: null }));
    await request('/x').catch(() => undefined);
    expect(actions).toEqual([{ kind: 'message', text: 'Forbidden', closable: true, durationMs: 5000 }]);
  });

  it('a network failure is a NetworkError shown 5 s', async () => {
    const { actions } = setup(() => new TypeError('Failed to fetch'));
    const error = await request('/x').catch((e: unknown) => e);
    expect((error as NetworkError).kind).toBe('network');
    expect(actions[0]).toMatchObject({ kind: 'message', messageKey: 'console.error.network', durationMs: 5000 });
  });

  it('an HTTP error without an envelope is a NetworkError with its status', async () => {
    const { actions } = setup(() => ({ status: 502 }));
    const error = await request('/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 502 });
    expect(actions[0]).toMatchObject({ kind: 'message', messageKey: 'console.error.http', messageArgs: { status: 502 } });
  });

  it('an envelope on an HTTP 404 is still read (code 10: no such endpoint)', async () => {
    const { actions } = setup(() => ({ status: 404, body: { code: 10, msg: 'No such API endpoint', data: '/cz/test/x' } }));
    const error = await request('/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 10 });
    expect(actions[0]).toMatchObject({ text: 'No such API endpoint [/cz/test/x]' });
  });

  it('quiet requests announce nothing', async () => {
    const { actions } = setup(() => ({ code: -100, msg: 'busy' }));
    await request('/x', { quiet: true }).catch(() => undefined);
    await request('/x', { quiet: [-100] }).catch(() => undefined);
    expect(actions).toEqual([]);
  });

  it('the alarm poll treats code 10 (endpoint not there yet) as no alarms, quietly', async () => {
    const { actions, calls } = setup(() => ({ status: 404, body: { code: 10, msg: 'No such API endpoint', data: null } }));
    await expect(fetchAlarmCount({ deviceStatus: [2] })).resolves.toBe(0);
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.url.pathname).toBe('/cz/test/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition');
    expect(calls[0]!.body).toEqual({ deviceStatus: [2] });
    expect(actions).toEqual([]);
  });

  it('the alarm poll counts the data list', async () => {
    setup(() => ok({ list: [{ id: 1 }, { id: 2 }], total: 2 }));
    await expect(fetchAlarmCount({ deviceStatus: [2] })).resolves.toBe(2);
    setup(() => ok([]));
    await expect(fetchAlarmCount({ deviceStatus: [2] })).resolves.toBe(0);
  });

  it("marks the console's own polls as background calls (X-Background: 1); the user's calls carry no such header", async () => {
    const { calls } = setup(() => ok({ list: [], total: 0, counts: {} }));
    await fetchAlarmCount({ deviceStatus: [2] });
    await request('/users/getAll', { query: { pageIndex: 1 } });
    await request('/deviceModule/alarm/acknowledge', { method: 'POST', json: { ids: [1] } });
    await monitoringApi.livePage({ pageIndex: 1 });
    await monitoringApi.livePage({ pageIndex: 1 }, { background: true });
    await monitoringApi.statusCounts({ background: true });
    await monitoringApi.alarms({ pageIndex: 1 }, { background: false });
    await request('/x', { background: true });
    expect(calls.map((c) => c.headers['X-Background'] ?? null)).toEqual(['1', null, null, null, '1', '1', null, '1']);
    // The header is all that differs: same URL (token, language) and body as the user's call.
    expect(calls[4]!.url.href).toBe(calls[3]!.url.href);
    expect(calls[4]!.body).toEqual(calls[3]!.body);
  });

  it('a polling POST sends the ETag of its last answer and reuses that answer on a 304 (no body over the link)', async () => {
    const { configureClient } = await import('../../src/api');
    setup(() => ok());
    const seen: (string | null)[] = [];
    let list = [{ id: 1 }, { id: 2 }];
    configureClient({
      fetch: (async (_url: string, init: RequestInit) => {
        const match = (init.headers as Record<string, string>)['If-None-Match'] ?? null;
        seen.push(match);
        const etag = `W/"${list.length}"`;
        if (match === etag) return new Response(null, { status: 304, headers: { etag } });
        return new Response(JSON.stringify(ok({ list, total: list.length })), {
          status: 200,
          headers: { 'Content-Type': 'application/json', etag },
        });
      }) as unknown as typeof fetch,
    });
    await expect(fetchAlarmCount({ deviceStatus: [2] })).resolves.toBe(2);
    await expect(fetchAlarmCount({ deviceStatus: [2] })).resolves.toBe(2);
    list = [{ id: 1 }];
    await expect(fetchAlarmCount({ deviceStatus: [2] })).resolves.toBe(1);
    // Another body is another answer: it is not revalidated against the first one's ETag.
    await expect(fetchAlarmCount({ deviceStatus: [3] })).resolves.toBe(1);
    expect(seen).toEqual([null, 'W/"2"', 'W/"2"', null]);
    // A POST that does not ask for revalidation never sends If-None-Match.
    await request('/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition', { method: 'POST', json: { deviceStatus: [2] } });
    expect(seen.at(-1)).toBeNull();
  });
});
