import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ErrorCode } from '../../src/domain/errorCodes';
import { createTestServer, engines, type TestServer } from './helpers';
import { badRequests, operationsOf, type Operation } from './fuzzRequests';

/**
 * Validation at the edge (the envelope of docs/requirements.md §8): whatever a client sends, the answer is an
 * envelope with a code that names the problem, never -100 (kept for real overload), never a 5xx,
 * never a stack; downloads answer with their file.
 */
describe.each(engines)('bad input at the edge (%s)', (engine) => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await createTestServer(engine);
    token = await s.login('admin');
  });
  afterAll(() => s.close());

  it.each([
    [
      'an id beyond PostgreSQL integers',
      '/deviceModule/device/getById?id=99999999999999999999',
      'id',
      'Out of the allowed range',
      '超出允许的范围',
    ],
    ['an id of -Infinity', '/deviceModule/voyage/getById?id=-Infinity', 'id', 'Out of the allowed range', '超出允许的范围'],
    ['a page index of Infinity', '/users/getAll?pageIndex=Infinity', 'pageIndex', 'Out of the allowed range', '超出允许的范围'],
    [
      'a negative ten-digit owner',
      '/deviceModule/deviceGroup/getAll?ownerId=-9999999999',
      'ownerId',
      'Out of the allowed range',
      '超出允许的范围',
    ],
    [
      'a NUL in an activation key',
      '/deviceModule/activation/find?key=%00',
      'key',
      'Must not contain control characters',
      '不能包含控制字符',
    ],
    ['a NUL in a list filter', '/users/getAll?name=a%00b', 'name', 'Must not contain control characters', '不能包含控制字符'],
  ])('refuses %s as a validation error naming the field, in both languages', async (_what, url, field, en, zh) => {
    for (const [lang, message] of [
      ['en', en],
      ['zh', zh],
    ] as const) {
      const res = await s.call({ url: `${s.base}${url}`, token, lang });
      expect(res).toMatchObject({ code: ErrorCode.Validation, data: [{ field, message }] });
    }
  });

  it('refuses out-of-range and control-character values in JSON bodies', async () => {
    const update = await s.call({
      method: 'POST',
      url: `${s.base}/deviceModule/deviceGroup/update`,
      token,
      lang: 'en',
      payload: { id: 1e308, name: 'x' },
    });
    expect(update).toMatchObject({ code: ErrorCode.Validation, data: [{ field: 'id', message: 'Out of the allowed range' }] });
    const add = await s.call({
      method: 'POST',
      url: `${s.base}/supportModule/permissionGroup/add`,
      token,
      lang: 'en',
      payload: { name: 'ops\u0000', permissions: [] },
    });
    expect(add).toMatchObject({ code: ErrorCode.Validation, data: [{ field: 'name', message: 'Must not contain control characters' }] });
  });

  it('refuses a body nested deeper than any request needs, and pages far past the end, without -100', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const res = await s.app.inject({
      method: 'POST',
      url: `${s.base}/deviceModule/deviceGroup/moveDevices?token=${token}&lang=en`,
      payload: `{"deviceIds":${deep}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.json().code).toBe(ErrorCode.Validation);
    const far = await s.call({
      url: `${s.base}/deviceModule/device/getAll?pageIndex=5000000&pageSize=500&search=vessel`,
      token,
      lang: 'en',
    });
    expect(far.code).toBe(ErrorCode.Ok);
    expect(far.data.list).toEqual([]);
    // An id beyond PostgreSQL integers in a body without a schema for it: not found or refused, never -100.
    const user = await s.call({
      method: 'POST',
      url: `${s.base}/users/updateUser`,
      token,
      lang: 'en',
      payload: { id: '99999999999', nickname: 'x' },
    });
    expect(user.code).not.toBe(ErrorCode.Busy);
  });

  it('answers generated bad requests on every route with a clear envelope: no 5xx, no -100, no stack', async () => {
    await s.app.ready();
    // Routes that end the admin's own session or password are left out; everything else is fair game.
    const operations = operationsOf(s.app.swagger() as never).filter(
      (op) => !/\/(logout|updatePasswordSelf|updatePassword)$/.test(op.path),
    );
    expect(operations.length).toBeGreaterThan(100);
    let sent = 0;
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(badRequests(op as Operation, token), async (req) => {
          const res = await s.app.inject({
            method: req.method as 'GET',
            url: req.url.replace(/token=[^&]*/, `token=${token}`),
            headers: req.headers,
            payload: req.payload,
          });
          sent++;
          const where = `${req.method} ${req.url} ${req.payload ?? ''}`.slice(0, 400);
          expect(res.statusCode, where).toBeLessThan(500);
          // The acknowledge link's page (public, for a person) is HTML saying what the link does or why it does not
          // work; a body it cannot read at all gets the usual envelope below.
          if (op.path.endsWith('/notification/acknowledge') && String(res.headers['content-type']).includes('text/html')) return;
          if (!String(res.headers['content-type']).includes('json')) {
            // An export or template: its file, as an attachment.
            expect(res.headers['content-disposition'], where).toMatch(/attachment/);
            return;
          }
          const body = res.json();
          expect(typeof body.code, where).toBe('number');
          expect(body.code, where).not.toBe(ErrorCode.Busy);
          expect(String(body.msg), where).not.toMatch(/\n\s+at |Error:/);
          // A generated request may delete or replace the admin's session: log in again and go on.
          if ([ErrorCode.TokenInvalid, ErrorCode.LoggedInElsewhere, ErrorCode.SessionTimeout].includes(body.code))
            token = await s.login('admin');
        }),
        { numRuns: 25, seed: 20261123 },
      );
    }
    expect(sent).toBeGreaterThan(2500);
    const ping = await s.call({ url: `${s.base}/ping` });
    expect(ping.code).toBe(ErrorCode.Ok);
  }, 300_000);
});
