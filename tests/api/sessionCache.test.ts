import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, describeSecondServer, engines, idOf, type Engine, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';
import type { Db } from '../../server/db/connection';
import { AUTH_CHANNEL, SessionCache } from '../../server/auth/sessionCache';
import { resolveSession } from '../../server/auth/sessions';

/**
 * The per-server cache of sessions and permission groups (server/auth/sessionCache.ts) never
 * answers from a stale entry: every change is seen by the very next call, on this server and
 * (PostgreSQL) on a second server on the same database. Each case first calls with the token so
 * that the session is cached, then changes it.
 */
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(engines)('session cache on %s', (engine: Engine) => {
  let s: TestServer;
  let admin: string;
  let oceanic: string;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    s = await createTestServer(engine);
    admin = await s.login('admin');
    oceanic = await s.login('oceanic');
    for (const n of ['oceanic', 'oceanops', 'oceanbridge', 'polaris']) ids[n] = await idOf(s.db, n);
  });
  afterAll(() => s.close());
  const u = (path: string) => `${s.base}/users/${path}`;
  const self = (server: TestServer, token: string, background = false) =>
    server.call({ url: `${server.base}/users/getSelf`, token, headers: background ? { 'x-background': '1' } : {} });
  const devices = (server: TestServer, token: string) =>
    server.call({ url: `${server.base}/deviceModule/device/getAll?pageIndex=1&pageSize=5`, token });
  const sp = (server: TestServer, path: string, payload: unknown, token = admin) =>
    server.call({ method: 'POST', url: `${server.base}/supportModule/permissionGroup/${path}`, token, payload: payload as object });

  it('answers -24 to the old token right after a re-login', async () => {
    const first = await s.login('oceanbridge');
    for (let i = 0; i < 3; i++) expect((await self(s, first)).code).toBe(0);
    const second = await s.login('oceanbridge');
    expect((await self(s, first)).code).toBe(ErrorCode.LoggedInElsewhere);
    expect((await self(s, second)).code).toBe(0);
  });

  it('answers 5 right after a logout', async () => {
    const token = await s.login('oceanbridge');
    expect((await self(s, token)).code).toBe(0);
    expect((await s.call({ method: 'POST', url: u('logout'), token })).code).toBe(0);
    expect((await self(s, token)).code).toBe(ErrorCode.TokenInvalid);
  });

  it('answers -24 right after a password reset, and 5 right after the user is deleted', async () => {
    const token = await s.login('oceanbridge');
    expect((await self(s, token)).code).toBe(0);
    expect(
      (await s.call({ method: 'POST', url: u(`updatePassword?id=${ids.oceanbridge}&password=newbridge1`), token: oceanic })).code,
    ).toBe(0);
    expect((await self(s, token)).code).toBe(ErrorCode.LoggedInElsewhere);
    await s.call({ method: 'POST', url: u(`updatePassword?id=${ids.oceanbridge}&password=bridge123`), token: oceanic });

    const created = await s.call({
      method: 'POST',
      url: u('addUser'),
      token: oceanic,
      payload: { name: 'cachetemp', password: 'temp1234', repassword: 'temp1234', permissionLevel: '3' },
    });
    expect(created.code).toBe(0);
    const temp = await s.login('cachetemp', 'temp1234');
    expect((await self(s, temp)).code).toBe(0);
    expect((await s.call({ method: 'DELETE', url: u(`deleteUserById?id=${created.data.id}`), token: oceanic })).code).toBe(0);
    expect((await self(s, temp)).code).toBe(ErrorCode.TokenInvalid);
  });

  it('answers -26 at once when last_seen_at is moved back, and from the cached last_seen_at when the session sits idle', async () => {
    const token = await s.login('polaris');
    expect((await self(s, token)).code).toBe(0);
    await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '3 hours' WHERE token_hash = $1`, [hashOf(token)]);
    expect((await self(s, token, true)).code).toBe(ErrorCode.SessionTimeout);

    // An idle limit of 1.2 s: the entry is still cached (5 s), the session is not alive any more.
    const short = await createTestServer(engine, { sessionIdleMinutes: 0.02 });
    try {
      const t = await short.login('polaris');
      expect((await self(short, t, true)).code).toBe(0);
      expect((await self(short, t, true)).code).toBe(0);
      await sleep(1500);
      expect((await self(short, t, true)).code).toBe(ErrorCode.SessionTimeout);
      expect((await self(short, t)).code).toBe(ErrorCode.SessionTimeout);
    } finally {
      await short.close();
    }
  });

  it("reads a session once for a page's calls made at once, keeps it alive with one write, and refuses them all alike", async () => {
    const token = await s.login('polaris');
    const seen = { reads: 0, touches: 0 };
    // The server's own database, its session statements counted.
    const counted: Db = {
      ...s.db,
      query: (sql: string, params?: unknown[]) => {
        if (/FROM sessions s JOIN users/.test(sql)) seen.reads++;
        if (/UPDATE sessions SET last_seen_at = now\(\)/.test(sql)) seen.touches++;
        return s.db.query(sql, params);
      },
    } as Db;
    const cache = await SessionCache.open(s.db);
    try {
      // Last used a minute ago: the first call that reads it also keeps it alive. The notifications
      // of this change and of the login are awaited (a marker sent after them comes back after
      // them): one arriving during the read would keep that read out of the cache.
      await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '1 minute' WHERE token_hash = $1`, [hashOf(token)]);
      let marked = false;
      const stop = await s.db.listen(AUTH_CHANNEL, (payload) => (marked ||= payload === 'test:marker'));
      await s.db.notify(AUTH_CHANNEL, 'test:marker');
      await expect.poll(() => marked).toBe(true);
      await stop();
      const page = () => Promise.all(Array.from({ length: 8 }, () => resolveSession(counted, token, 30, { cache })));
      const users = await page();
      expect(new Set(users.map((u) => u.id))).toEqual(new Set([ids.polaris]));
      expect(seen).toEqual({ reads: 1, touches: 1 });
      const [row] = await s.db.query<{ ago: number }>(
        'SELECT extract(epoch FROM now() - last_seen_at)::float8 AS ago FROM sessions WHERE token_hash = $1',
        [hashOf(token)],
      );
      expect(row!.ago).toBeLessThan(10);
      // The next page: nothing written. (On PostgreSQL, every server on the database hears the
      // others' notifications, so another test's change may drop the entry: one read at most.)
      await page();
      expect(seen.touches).toBe(1);
      expect(seen.reads).toBeLessThanOrEqual(2);
      const reads = seen.reads;
      // Logged out elsewhere: every call of the next page gets the same refusal, from one read.
      await s.login('polaris');
      await expect.poll(() => cache.session(hashOf(token))).toBeUndefined();
      const refused = await Promise.allSettled(Array.from({ length: 8 }, () => resolveSession(counted, token, 30, { cache })));
      expect(refused.map((r) => r.status === 'rejected' && (r.reason as { code?: number }).code)).toEqual(
        Array(8).fill(ErrorCode.LoggedInElsewhere),
      );
      expect(seen.reads).toBe(reads + 1);
    } finally {
      await cache.close();
    }
  });

  it('never answers a call that came after a logout from a read started before it', async () => {
    const token = await s.login('polaris');
    // The session reads take 300 ms: a logout lands while the first is in flight.
    let reading = (): void => undefined;
    const slow: Db = {
      ...s.db,
      query: async (sql: string, params?: unknown[]) => {
        const answer = await s.db.query(sql, params);
        if (/FROM sessions s JOIN users/.test(sql)) {
          reading();
          await sleep(300);
        }
        return answer;
      },
    } as Db;
    const cache = await SessionCache.open(s.db);
    try {
      const started = new Promise<void>((resolve) => (reading = resolve));
      const early = resolveSession(slow, token, 30, { cache });
      await started;
      const before = cache.generation;
      await s.db.query(`UPDATE sessions SET ended_at = now(), end_reason = 'logout' WHERE token_hash = $1`, [hashOf(token)]);
      await expect.poll(() => cache.generation).toBeGreaterThan(before);
      await expect(resolveSession(slow, token, 30, { cache })).rejects.toMatchObject({ code: ErrorCode.TokenInvalid });
      // The call made before the logout may be answered either way; it is not stored as live.
      await early.catch(() => undefined);
      expect(cache.session(hashOf(token))).toBeUndefined();
    } finally {
      await cache.close();
    }
  });

  it('applies a change of level, parent or parent name to the next call', async () => {
    const token = await s.login('oceanbridge');
    expect((await self(s, token)).data).toMatchObject({ permissionLevel: '3', parentName: 'oceanic' });
    // An admin moves the sub-user to another enterprise.
    expect(
      (await s.call({ method: 'POST', url: u('updateUser'), token: admin, payload: { id: ids.oceanbridge, parentId: ids.polaris } })).code,
    ).toBe(0);
    expect((await self(s, token)).data).toMatchObject({ parentId: ids.polaris, parentName: 'polaris' });
    // The parent renamed: the sub-user's cached row names it.
    expect(
      (await s.call({ method: 'POST', url: u('updateUser'), token: admin, payload: { id: ids.polaris, name: 'polarisx' } })).code,
    ).toBe(0);
    expect((await self(s, token)).data.parentName).toBe('polarisx');
    await s.call({ method: 'POST', url: u('updateUser'), token: admin, payload: { id: ids.polaris, name: 'polaris' } });
    await s.call({ method: 'POST', url: u('updateUser'), token: admin, payload: { id: ids.oceanbridge, parentId: ids.oceanic } });
    // A level changed in the database by hand: the level check of the next call uses it.
    expect((await s.call({ method: 'POST', url: u(`updatePassword?id=${ids.oceanops}&password=oceanops123`), token: oceanic })).code).toBe(
      0,
    );
    await s.db.query(`UPDATE users SET permission_level = '3', parent_id = $2 WHERE id = $1`, [ids.oceanic, ids.polaris]);
    expect((await self(s, oceanic)).data.permissionLevel).toBe('3');
    expect((await s.call({ method: 'POST', url: u(`updatePassword?id=${ids.oceanops}&password=oceanops123`), token: oceanic })).code).toBe(
      ErrorCode.Forbidden,
    );
    await s.db.query(`UPDATE users SET permission_level = '2', parent_id = NULL WHERE id = $1`, [ids.oceanic]);
    expect((await self(s, oceanic)).data.permissionLevel).toBe('2');
  });

  it('applies a permission group assignment, a group change and a group deletion to the next call', async () => {
    expect((await devices(s, oceanic)).code).toBe(0);
    const group = (await sp(s, 'add', { name: 'Cache users only', permissions: ['viewuser'] })).data.id as number;
    expect((await sp(s, 'setUserGroups', { userId: ids.oceanic, groupIds: [group] })).code).toBe(0);
    expect((await devices(s, oceanic)).code).toBe(ErrorCode.PermissionDenied);
    expect((await sp(s, 'update', { id: group, name: 'Cache users only', permissions: ['viewuser', 'viewmachine'] })).code).toBe(0);
    expect((await devices(s, oceanic)).code).toBe(0);
    expect((await sp(s, 'update', { id: group, name: 'Cache users only', permissions: ['viewuser'] })).code).toBe(0);
    expect((await devices(s, oceanic)).code).toBe(ErrorCode.PermissionDenied);
    expect(
      (await s.call({ method: 'DELETE', url: `${s.base}/supportModule/permissionGroup/deleteById?id=${group}`, token: admin })).code,
    ).toBe(0);
    expect((await devices(s, oceanic)).code).toBe(0);
  });

  describeSecondServer(
    engine,
    () => s,
    (second, soon) => {
      it('sees a re-login, a logout and a password reset made on the other', async () => {
        const first = await s.login('oceanbridge');
        expect((await self(second(), first)).code).toBe(0);
        const again = await s.login('oceanbridge');
        await soon(async () => (await self(second(), first)).code).toBe(ErrorCode.LoggedInElsewhere);
        expect((await self(second(), again)).code).toBe(0);
        expect((await self(s, again)).code).toBe(0);
        expect((await second().call({ method: 'POST', url: `${second().base}/users/logout`, token: again })).code).toBe(0);
        await soon(async () => (await self(s, again)).code).toBe(ErrorCode.TokenInvalid);

        const third = await second().login('oceanbridge');
        expect((await self(s, third)).code).toBe(0);
        expect(
          (
            await second().call({
              method: 'POST',
              url: `${second().base}/users/updatePassword?id=${ids.oceanbridge}&password=bridge123`,
              token: oceanic,
            })
          ).code,
        ).toBe(0);
        await soon(async () => (await self(s, third)).code).toBe(ErrorCode.LoggedInElsewhere);
      });

      it('sees a permission group change made on the other', async () => {
        expect((await devices(second(), oceanic)).code).toBe(0);
        const group = (await sp(s, 'add', { name: 'Replica users only', permissions: ['viewuser'] })).data.id as number;
        expect((await sp(s, 'setUserGroups', { userId: ids.oceanic, groupIds: [group] })).code).toBe(0);
        await soon(async () => (await devices(second(), oceanic)).code).toBe(ErrorCode.PermissionDenied);
        expect((await sp(s, 'update', { id: group, name: 'Replica users only', permissions: ['viewuser', 'viewmachine'] })).code).toBe(0);
        await soon(async () => (await devices(second(), oceanic)).code).toBe(0);
        expect((await sp(s, 'setUserGroups', { userId: ids.oceanic, groupIds: [] })).code).toBe(0);
      });

      it('keeps a session alive that is used only on the other server', async () => {
        const token = await s.login('polaris');
        expect((await self(s, token)).code).toBe(0);
        // Used on b 100 minutes later (b touches the row); s's cached copy is older, the row decides.
        await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '100 minutes' WHERE token_hash = $1`, [hashOf(token)]);
        expect((await self(second(), token)).code).toBe(0);
        expect((await self(s, token, true)).code).toBe(0);
      });
    },
  );
});
