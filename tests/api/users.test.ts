import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, idOf, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';

/** The sessions table keys a session by the sha256 of its token, never the token. */
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

describe.each(engines)('users module on %s', (engine) => {
  let s: TestServer;
  let admin: string;
  let oceanic: string;
  let ids: Record<string, number>;
  beforeAll(async () => {
    s = await createTestServer(engine);
    admin = await s.login('admin');
    oceanic = await s.login('oceanic');
    ids = {};
    for (const n of ['admin', 'oceanic', 'oceanops', 'oceanbridge', 'polaris', 'polarisops']) ids[n] = await idOf(s.db, n);
  });
  afterAll(() => s.close());
  const u = (path: string) => `${s.base}/users/${path}`;

  describe('login and sessions', () => {
    it('answers a token for a form-encoded login and getSelf for it', async () => {
      const token = await s.login('polaris');
      const self = await s.call({ url: u('getSelf'), token });
      expect(self.code).toBe(0);
      expect(self.data).toMatchObject({ id: ids.polaris, name: 'polaris', permissionLevel: '2', parentId: null });
      expect(self.data).not.toHaveProperty('password');
      expect(self.data).not.toHaveProperty('passwordHash');
    });

    it('refuses a wrong password and says how many attempts remain, in the asked language', async () => {
      const res = await s.call({
        method: 'POST',
        url: u('login'),
        lang: 'en',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'name=oceanbridge&password=wrongpass',
      });
      expect(res.code).toBe(ErrorCode.LoginFailed);
      expect(res.msg).toBe('Wrong username or password');
      expect(res.data.remainingAttempts).toBe(4);
    });

    it('locks a name after repeated failures and says for how long, even for the right password', async () => {
      const form = (password: string) => ({
        method: 'POST' as const,
        url: u('login'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `name=polarisops&password=${password}`,
      });
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) codes.push((await s.call(form('nope'))).code);
      expect(codes).toEqual([6, 6, 6, 6, 7]);
      const locked = await s.call({ ...form('polarisops123'), lang: 'en' });
      expect(locked.code).toBe(ErrorCode.LoginLocked);
      expect(locked.msg).toBe('Too many failed logins, try again in 5 minutes');
      expect(locked.data.retryAfterSeconds).toBeGreaterThan(290);
      expect(locked.data.retryAfterSeconds).toBeLessThanOrEqual(300);
      await s.db.query(`UPDATE login_failures SET locked_until = now() - interval '1 second' WHERE name = 'polarisops'`);
      expect((await s.call(form('polarisops123'))).code).toBe(0);
    });

    describe('lockout per client address', () => {
      const from = (remoteAddress: string, name: string, password: string) =>
        s.call({
          method: 'POST',
          url: u('login'),
          remoteAddress,
          lang: 'en',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `name=${name}&password=${password}`,
        });

      it('locks a name only for the address that failed: the owner logs in from another address', async () => {
        const codes: number[] = [];
        for (let i = 0; i < 5; i++) codes.push((await from('203.0.113.7', 'admin', 'guess' + i)).code);
        expect(codes).toEqual([6, 6, 6, 6, 7]);
        const locked = await from('203.0.113.7', 'admin', 'admin123');
        expect(locked.code).toBe(ErrorCode.LoginLocked);
        expect(locked.data.retryAfterSeconds).toBeGreaterThan(0);
        // The owner, elsewhere: still logs in, and the stranger's failures cost it no attempt.
        const wrong = await from('198.51.100.20', 'admin', 'typo');
        expect(wrong.code).toBe(ErrorCode.LoginFailed);
        expect(wrong.data.remainingAttempts).toBe(4);
        const owner = await from('198.51.100.20', 'admin', 'admin123');
        expect(owner.code).toBe(0);
        admin = owner.data.token; // this login ended the admin session of beforeAll
        // An IPv4-mapped IPv6 socket address is the same client as its IPv4 form.
        expect((await from('::ffff:203.0.113.7', 'admin', 'admin123')).code).toBe(ErrorCode.LoginLocked);
      });

      it('counts an IPv6 client by its /64', async () => {
        for (let i = 0; i < 5; i++) await from(`2001:db8:1:2::${i + 1}`, 'oceanops', 'nope');
        expect((await from('2001:db8:1:2:ffff::9', 'oceanops', 'oceanops123')).code).toBe(ErrorCode.LoginLocked);
        expect((await from('2001:db8:1:3::1', 'oceanops', 'oceanops123')).code).toBe(0);
      });

      it('locks a name for everyone after the limit of failures from all addresses; the count has a window', async () => {
        const local = await createTestServer(engine, { loginNameMaxFailures: 6 });
        try {
          const fromLocal = (remoteAddress: string, name: string, password: string) =>
            local.call({
              method: 'POST',
              url: `${local.base}/users/login`,
              remoteAddress,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: `name=${name}&password=${password}`,
            });
          const codes: number[] = [];
          // 3 addresses x 2 failures: no address comes near its own limit of 5; the 6th failure locks the name.
          for (let a = 1; a <= 3; a++) for (let i = 0; i < 2; i++) codes.push((await fromLocal(`192.0.2.${a}`, 'polaris', 'nope')).code);
          expect(codes).toEqual([6, 6, 6, 6, 6, 7]);
          const elsewhere = await fromLocal('198.51.100.99', 'polaris', 'polaris123');
          expect(elsewhere.code).toBe(ErrorCode.LoginLocked);
          expect(elsewhere.data.retryAfterSeconds).toBeGreaterThan(290);
          await local.db.query(`UPDATE login_name_failures SET locked_until = now() - interval '1 second' WHERE name = 'polaris'`);
          expect((await fromLocal('198.51.100.99', 'polaris', 'polaris123')).code).toBe(0);

          // The count across addresses starts again once a lock period has passed without a lock.
          for (let a = 1; a <= 4; a++) expect((await fromLocal(`192.0.2.${a}`, 'oceanbridge', 'nope')).code).toBe(ErrorCode.LoginFailed);
          expect((await fromLocal('192.0.2.5', 'oceanbridge', 'nope')).data.remainingAttempts).toBe(1);
          await local.db.query(
            `UPDATE login_name_failures SET window_started_at = now() - interval '6 minutes' WHERE name = 'oceanbridge'`,
          );
          const next = await fromLocal('192.0.2.6', 'oceanbridge', 'nope');
          expect(next.code).toBe(ErrorCode.LoginFailed);
          expect(next.data.remainingAttempts).toBe(4);
        } finally {
          await local.close();
        }
      });
    });

    it('refuses a login without a name with the username message', async () => {
      const res = await s.call({
        method: 'POST',
        url: u('login'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'password=x',
      });
      expect(res.code).toBe(ErrorCode.Validation);
      expect(res.data).toContainEqual({ field: 'name', message: '用户名不能为空' });
    });

    it('answers a missing token with 4 and a forged one with 5', async () => {
      expect((await s.call({ url: u('getSelf') })).code).toBe(ErrorCode.TokenMissing);
      const forged = await s.call({ url: u('getSelf'), token: 'forged-token', lang: 'en' });
      expect(forged.code).toBe(ErrorCode.TokenInvalid);
      expect(forged.msg).toMatch(/log in again/);
    });

    it('ends the older session when the account logs in elsewhere: its next call answers -24', async () => {
      const first = await s.login('oceanbridge', 'bridge123');
      const second = await s.login('oceanbridge', 'bridge123');
      const old = await s.call({ url: u('getSelf'), token: first, lang: 'en' });
      expect(old.code).toBe(-24);
      expect(old.msg).toBe(
        'The same account can only be logged in on one terminal at the same time. Your account has been logged out. Please log in again.',
      );
      expect((await s.call({ url: u('getSelf'), token: second })).code).toBe(0);
    });

    it('answers -26 for a session idle longer than the limit, and keeps answering it', async () => {
      const token = await s.login('polaris');
      await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '3 hours' WHERE token_hash = $1`, [hashOf(token)]);
      expect((await s.call({ url: u('getSelf'), token })).code).toBe(-26);
      expect((await s.call({ url: u('getSelf'), token })).code).toBe(-26);
    });

    it('answers background calls (X-Background: 1) without keeping the session alive, and times them out too', async () => {
      const token = await s.login('polaris');
      const lastSeen = async () =>
        (await s.db.query<{ t: Date }>('SELECT last_seen_at AS t FROM sessions WHERE token_hash = $1', [hashOf(token)]))[0]!.t.getTime();
      // 100 of the 120 idle minutes have passed.
      await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '100 minutes' WHERE token_hash = $1`, [hashOf(token)]);
      const before = await lastSeen();
      for (let i = 0; i < 3; i++) expect((await s.call({ url: u('getSelf'), token, headers: { 'x-background': '1' } })).code).toBe(0);
      expect(await lastSeen()).toBe(before);
      // 30 minutes later (130 idle), the poll itself is refused with -26, and so is the user's next call.
      await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '130 minutes' WHERE token_hash = $1`, [hashOf(token)]);
      expect((await s.call({ url: u('getSelf'), token, headers: { 'x-background': '1' } })).code).toBe(-26);
      expect((await s.call({ url: u('getSelf'), token })).code).toBe(-26);
    });

    it('lets a call of the user keep the session alive', async () => {
      const token = await s.login('polaris');
      await s.db.query(`UPDATE sessions SET last_seen_at = now() - interval '100 minutes' WHERE token_hash = $1`, [hashOf(token)]);
      expect((await s.call({ url: u('getSelf'), token })).code).toBe(0);
      const [row] = await s.db.query<{ idle: number }>(
        'SELECT extract(epoch FROM now() - last_seen_at)::int AS idle FROM sessions WHERE token_hash = $1',
        [hashOf(token)],
      );
      expect(row!.idle).toBeLessThan(60);
    });

    it('stores no token in the sessions table, only its sha256', async () => {
      const token = await s.login('oceanops');
      const rows = await s.db.query<Record<string, unknown>>('SELECT * FROM sessions');
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(rows.some((r) => r.token_hash === hashOf(token))).toBe(true);
      expect(Object.keys(rows[0]!)).not.toContain('token');
      // The migration converted the rows of before with this expression: the same hash as the server's lookup.
      const [converted] = await s.db.query<{ h: string }>(`SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex') AS h`, [token]);
      expect(converted!.h).toBe(hashOf(token));
    });

    it('ends the session on logout', async () => {
      const token = await s.login('polaris');
      expect((await s.call({ method: 'POST', url: u('logout'), token })).code).toBe(0);
      expect((await s.call({ url: u('getSelf'), token })).code).toBe(ErrorCode.TokenInvalid);
    });

    it('stores passwords as salted scrypt hashes', async () => {
      const rows = await s.db.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE name IN ('admin', 'oceanic')`);
      for (const r of rows) expect(r.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
      expect(rows[0]!.password_hash.split('$')[4]).not.toBe(rows[1]!.password_hash.split('$')[4]);
    });
  });

  describe('getAll', () => {
    it('lists every user for an admin, paged 1-based with the total', async () => {
      const page1 = await s.call({ url: u('getAll?pageIndex=1&pageSize=4'), token: admin });
      expect(page1.data.total).toBe(6);
      expect(page1.data.list.map((x: { name: string }) => x.name)).toEqual(['admin', 'oceanic', 'oceanops', 'oceanbridge']);
      const page2 = await s.call({ url: u('getAll?pageIndex=2&pageSize=4'), token: admin });
      expect(page2.data.list.map((x: { name: string }) => x.name)).toEqual(['polaris', 'polarisops']);
      expect(page2.data.total).toBe(6);
      const past = await s.call({ url: u('getAll?pageIndex=9&pageSize=4'), token: admin });
      expect(past.data).toEqual({ list: [], total: 6 });
    });

    it('filters by name and sorts', async () => {
      const res = await s.call({ url: u('getAll?pageIndex=1&pageSize=10&name=polar&sort=name&order=desc'), token: admin });
      expect(res.data.list.map((x: { name: string }) => x.name)).toEqual(['polarisops', 'polaris']);
    });

    it('finds an enterprise by its company name too (the console shows enterprises by the name people know)', async () => {
      const res = await s.call({ url: u('getAll?pageIndex=1&pageSize=10&name=Marine%20Ltd&permissionLevel=2'), token: admin });
      expect(res.data.list.map((x: { name: string }) => x.name)).toEqual(['polaris']);
    });

    it('shows an enterprise only its own sub-users', async () => {
      const res = await s.call({ url: u('getAll?pageIndex=1&pageSize=50'), token: oceanic });
      expect(res.data.list.map((x: { name: string }) => x.name).sort()).toEqual(['oceanbridge', 'oceanops']);
      expect(res.data.list.every((x: { parentName: string }) => x.parentName === 'oceanic')).toBe(true);
    });

    it('refuses a sub-user', async () => {
      const token = await s.login('oceanops');
      expect((await s.call({ url: u('getAll'), token })).code).toBe(ErrorCode.Forbidden);
    });

    it('refuses a page size above 500 with a validation code', async () => {
      const res = await s.call({ url: u('getAll?pageSize=100000'), token: admin, lang: 'en' });
      expect(res.code).toBe(ErrorCode.Validation);
      expect(res.data[0]).toEqual({ field: 'pageSize', message: 'Out of the allowed range' });
    });
  });

  describe('getUserSimpleInfo', () => {
    it("answers a visible user and 'not found' for another enterprise's", async () => {
      expect((await s.call({ url: u(`getUserSimpleInfo?id=${ids.oceanops}`), token: oceanic })).data.name).toBe('oceanops');
      const foreign = await s.call({ url: u(`getUserSimpleInfo?id=${ids.polarisops}`), token: oceanic });
      expect(foreign.code).toBe(ErrorCode.NotFound);
      expect(foreign.data).toBeNull();
      const sub = await s.login('oceanops');
      expect((await s.call({ url: u(`getUserSimpleInfo?id=${ids.oceanic}`), token: sub })).code).toBe(ErrorCode.NotFound);
    });
  });

  describe('addUser', () => {
    const add = (token: string, body: object, lang?: 'zh' | 'en') =>
      s.call({ method: 'POST', url: u('addUser'), token, payload: body, lang });

    it('reports every broken rule with the exact messages in Chinese', async () => {
      const res = await add(admin, { name: 'Ab1', password: '123', repassword: '456', permissionLevel: '2', email: 'not-an-email' });
      expect(res.code).toBe(ErrorCode.Validation);
      expect(res.data).toEqual(
        expect.arrayContaining([
          { field: 'name', message: '用户名必须是由2-16位小写字母组成' },
          { field: 'password', message: '密码长度为6-18位' },
          { field: 'email', message: '请输入正确的邮箱' },
        ]),
      );
      expect((await add(admin, { password: '123456', repassword: '123456', permissionLevel: '2' })).data).toContainEqual({
        field: 'name',
        message: '用户名不能为空',
      });
    });

    it('reports them in English when asked', async () => {
      const res = await add(admin, { name: 'x', password: '1234567', repassword: '7654321', permissionLevel: '2' }, 'en');
      expect(res.data).toEqual(
        expect.arrayContaining([
          { field: 'name', message: 'Username must be 2-16 lowercase letters' },
          { field: 'repassword', message: 'The entered passwords are inconsistent' },
        ]),
      );
      const long = await add(
        admin,
        { name: 'longpassword', password: 'x'.repeat(19), repassword: 'x'.repeat(19), permissionLevel: '2' },
        'en',
      );
      expect(long.data).toContainEqual({ field: 'password', message: 'Password length should be between 6 and 18 characters' });
    });

    it('lets an admin create an enterprise that can then log in', async () => {
      const res = await add(admin, {
        name: 'neptune',
        password: 'neptune1',
        repassword: 'neptune1',
        permissionLevel: '2',
        email: 'ops@neptune.example',
        company: 'Neptune',
      });
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({ name: 'neptune', permissionLevel: '2', parentId: null, email: 'ops@neptune.example' });
      expect(await s.login('neptune', 'neptune1')).toBeTruthy();
    });

    it('makes an enterprise create only its own sub-users, whatever the body says', async () => {
      const res = await add(oceanic, {
        name: 'oceandeck',
        password: 'deck1234',
        repassword: 'deck1234',
        permissionLevel: '3',
        parentId: ids.polaris,
      });
      expect(res.code).toBe(0);
      expect(res.data.parentId).toBe(ids.oceanic);
      expect((await add(oceanic, { name: 'oceanboss', password: 'boss1234', repassword: 'boss1234', permissionLevel: '2' })).code).toBe(
        ErrorCode.Forbidden,
      );
    });

    it('refuses sub-users, a sub-user without an enterprise, and admins created by a plain admin', async () => {
      const sub = await s.login('oceanops');
      expect((await add(sub, { name: 'sneaky', password: 'sneaky1', repassword: 'sneaky1', permissionLevel: '3' })).code).toBe(
        ErrorCode.Forbidden,
      );
      const orphan = await add(admin, { name: 'orphan', password: 'orphan1', repassword: 'orphan1', permissionLevel: '3' }, 'en');
      expect(orphan.data).toContainEqual({ field: 'parentId', message: 'A sub-user must belong to an enterprise user' });
      const wrongParent = await add(admin, {
        name: 'orphan',
        password: 'orphan1',
        repassword: 'orphan1',
        permissionLevel: '3',
        parentId: ids.oceanops,
      });
      expect(wrongParent.code).toBe(ErrorCode.Validation);
      await add(admin, { name: 'deputy', password: 'deputy1', repassword: 'deputy1', permissionLevel: '1' });
      const deputy = await s.login('deputy', 'deputy1');
      expect((await add(deputy, { name: 'another', password: 'another1', repassword: 'another1', permissionLevel: '1' })).code).toBe(
        ErrorCode.Forbidden,
      );
    });

    it('refuses a name that is taken, naming the field', async () => {
      const res = await add(admin, { name: 'oceanic', password: 'abcdef', repassword: 'abcdef', permissionLevel: '2' }, 'en');
      expect(res.code).toBe(ErrorCode.Duplicate);
      expect(res.data).toEqual([{ field: 'name', message: 'This username is already taken' }]);
    });
  });

  describe('updateUser', () => {
    const update = (token: string, body: object) => s.call({ method: 'POST', url: u('updateUser'), token, payload: body });

    it('lets anyone edit their own profile, leaving fields not sent as they were', async () => {
      const sub = await s.login('oceanops');
      const res = await update(sub, { id: ids.oceanops, nickname: 'Ops desk', signature: 'Fair winds' });
      expect(res.code).toBe(0);
      expect(res.data).toMatchObject({ nickname: 'Ops desk', signature: 'Fair winds', name: 'oceanops', parentId: ids.oceanic });
      const again = await update(sub, { id: ids.oceanops, department: 'Bridge' });
      expect(again.data).toMatchObject({ nickname: 'Ops desk', department: 'Bridge' });
    });

    it("lets an enterprise edit its sub-users but not another enterprise's or a sibling's", async () => {
      expect((await update(oceanic, { id: ids.oceanbridge, email: 'bridge@oceanic.example' })).code).toBe(0);
      expect((await update(oceanic, { id: ids.polarisops, nickname: 'hijack' })).code).toBe(ErrorCode.NotFound);
      const sub = await s.login('oceanops');
      expect((await update(sub, { id: ids.oceanbridge, nickname: 'hijack' })).code).toBe(ErrorCode.NotFound);
      const [row] = await s.db.query<{ nickname: string }>('SELECT nickname FROM users WHERE id = $1', [ids.polarisops]);
      expect(row!.nickname).not.toBe('hijack');
    });

    it('refuses a change of permission level and validates the fields sent', async () => {
      const sub = await s.login('oceanops');
      expect((await update(sub, { id: ids.oceanops, permissionLevel: '1' })).code).toBe(ErrorCode.Forbidden);
      const bad = await update(admin, { id: ids.oceanic, email: 'nope' });
      expect(bad.code).toBe(ErrorCode.Validation);
      expect(bad.data).toContainEqual({ field: 'email', message: '请输入正确的邮箱' });
    });

    it('lets an admin move a sub-user to another enterprise, and refuses a name that is taken', async () => {
      const res = await update(admin, { id: ids.oceanbridge, parentId: ids.polaris });
      expect(res.data.parentId).toBe(ids.polaris);
      await update(admin, { id: ids.oceanbridge, parentId: ids.oceanic });
      expect((await update(admin, { id: ids.oceanbridge, name: 'polaris' })).code).toBe(ErrorCode.Duplicate);
    });
  });

  describe('deleteUserById', () => {
    const del = (token: string, id: number) => s.call({ method: 'DELETE', url: u(`deleteUserById?id=${id}`), token });

    it("lets an enterprise delete its own sub-user, ending that user's session", async () => {
      const created = await s.call({
        method: 'POST',
        url: u('addUser'),
        token: oceanic,
        payload: { name: 'oceantemp', password: 'temp1234', repassword: 'temp1234', permissionLevel: '3' },
      });
      expect(created.code, JSON.stringify(created)).toBe(0);
      const victim = await s.login('oceantemp', 'temp1234');
      expect((await del(oceanic, created.data.id)).code).toBe(0);
      expect((await s.call({ url: u('getSelf'), token: victim })).code).toBe(ErrorCode.TokenInvalid);
      expect((await s.call({ url: u(`getUserSimpleInfo?id=${created.data.id}`), token: admin })).code).toBe(ErrorCode.NotFound);
    });

    it("refuses another enterprise's user, one's own account, the super user, and an enterprise that has sub-users", async () => {
      expect((await del(oceanic, ids.polarisops)).code).toBe(ErrorCode.NotFound);
      expect((await del(oceanic, ids.oceanic)).code).toBe(ErrorCode.Forbidden);
      expect((await del(oceanic, 1)).code).toBe(ErrorCode.Forbidden);
      const has = await s.call({ method: 'DELETE', url: u(`deleteUserById?id=${ids.polaris}`), token: admin, lang: 'en' });
      expect(has.code).toBe(ErrorCode.HasDependents);
      expect(has.msg).toBe('This user still has sub-users and cannot be deleted');
      const [row] = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE id = $1', [ids.polaris]);
      expect(row!.n).toBe(1);
    });

    it('refuses a sub-user', async () => {
      const sub = await s.login('oceanops');
      expect((await del(sub, ids.oceanbridge)).code).toBe(ErrorCode.Forbidden);
    });
  });

  describe('passwords', () => {
    it('lets an enterprise reset its sub-user password, which ends the old session', async () => {
      const old = await s.login('oceanbridge', 'bridge123');
      expect(
        (await s.call({ method: 'POST', url: u(`updatePassword?id=${ids.oceanbridge}&password=newbridge1`), token: oceanic })).code,
      ).toBe(0);
      expect((await s.call({ url: u('getSelf'), token: old })).code).toBe(-24);
      expect(await s.login('oceanbridge', 'newbridge1')).toBeTruthy();
      await s.call({ method: 'POST', url: u(`updatePassword?id=${ids.oceanbridge}&password=bridge123`), token: oceanic });
    });

    it("refuses another enterprise's user and a password of the wrong length", async () => {
      expect((await s.call({ method: 'POST', url: u(`updatePassword?id=${ids.polarisops}&password=abcdefg`), token: oceanic })).code).toBe(
        ErrorCode.NotFound,
      );
      const short = await s.call({ method: 'POST', url: u(`updatePassword?id=${ids.oceanops}&password=abc`), token: oceanic, lang: 'en' });
      expect(short.data).toContainEqual({ field: 'password', message: 'Password length should be between 6 and 18 characters' });
    });

    it('changes only the caller’s own password with updatePasswordSelf', async () => {
      const token = await s.login('polarisops', 'polarisops123');
      expect((await s.call({ method: 'POST', url: u(`updatePasswordSelf?id=${ids.polaris}&password=takeover1`), token })).code).toBe(
        ErrorCode.Forbidden,
      );
      expect((await s.call({ method: 'POST', url: u(`updatePasswordSelf?id=${ids.polarisops}&password=polarisops2`), token })).code).toBe(
        0,
      );
      expect(await s.login('polarisops', 'polarisops2')).toBeTruthy();
    });
  });

  describe('name lists', () => {
    it('answers enterprises and sub-users each level may see', async () => {
      const names = (r: { data: { name: string }[] }) => r.data.map((x) => x.name).sort();
      const adminEnterprises = names(await s.call({ url: u('getEnterpriseUserNameList'), token: admin }));
      expect(adminEnterprises).toEqual(expect.arrayContaining(['oceanic', 'polaris']));
      expect(names(await s.call({ url: u('getEnterpriseUserNameList'), token: oceanic }))).toEqual(['oceanic']);
      expect(names(await s.call({ url: u('getSubEnterpriseUserNameList'), token: oceanic }))).toEqual(
        expect.arrayContaining(['oceanbridge', 'oceanops']),
      );
      expect(names(await s.call({ url: u('getSubEnterpriseUserNameList'), token: oceanic }))).not.toContain('polarisops');
    });

    it('pages the enterprise names', async () => {
      const res = await s.call({ url: u('getPageEnterpriseUserNameList?pageIndex=1&pageSize=1&name=o'), token: admin });
      expect(res.data.list).toHaveLength(1);
      expect(res.data.total).toBeGreaterThanOrEqual(2);
    });

    it('answers enterprises with their sub-users, scoped to the caller', async () => {
      const polaris = await s.login('polaris');
      const res = await s.call({ url: u('getEnterpriseUserWithSubUserNameList'), token: polaris });
      expect(res.data).toHaveLength(1);
      expect(res.data[0].name).toBe('polaris');
      expect(res.data[0].children.map((c: { name: string }) => c.name)).toContain('polarisops');
    });
  });

  describe('errors', () => {
    it('answers an unknown route with code 10 and a malformed body with 12, never a 500', async () => {
      const missing = await s.call({ url: u('nope'), token: admin });
      expect(missing.status).toBe(404);
      expect(missing.code).toBe(ErrorCode.RouteNotFound);
      const bad = await s.call({
        method: 'POST',
        url: u('addUser'),
        token: admin,
        headers: { 'content-type': 'application/json' },
        payload: '{"name": ',
      });
      expect(bad.status).toBe(200);
      expect(bad.code).toBe(ErrorCode.BadRequest);
      const huge = await s.call({
        method: 'POST',
        url: u('updateUser'),
        token: admin,
        payload: { id: 1, signature: 'x'.repeat(2 * 1024 * 1024) },
      });
      expect(huge.code).not.toBe(0);
      expect(huge.status).toBe(200);
    });

    it('serves an OpenAPI document that lists every users endpoint', async () => {
      const doc = (await s.app.inject({ url: `${s.base}/openapi.json` })).json();
      for (const p of [
        'login',
        'logout',
        'getSelf',
        'getAll',
        'getUserSimpleInfo',
        'addUser',
        'deleteUserById',
        'updateUser',
        'updatePassword',
        'updatePasswordSelf',
        'getSubEnterpriseUserNameList',
        'getEnterpriseUserNameList',
        'getPageEnterpriseUserNameList',
        'getEnterpriseUserWithSubUserNameList',
        'getUserExtraLink',
        'getAllUserExtraLink',
        'addEditUserExtraLink',
        'uploadFile',
        'getPictureListByUid',
        'deleteOneByFileType',
      ]) {
        expect(Object.keys(doc.paths)).toContain(`${s.base}/users/${p}`);
      }
    });
  });
});
