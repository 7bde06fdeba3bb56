import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/domain/errorCodes';
import { createTestServer, engines, type TestServer } from './helpers';
import { operationsOf, type Operation } from './fuzzRequests';

/**
 * Tenant isolation (docs/requirements.md §6): the enterprise polaris tries oceanic's ids on every route
 * that takes one. Nothing of oceanic may come back (no name, no serial) and nothing of oceanic
 * may change; the answer is a refusal or an empty result, never -100.
 */
const ID_PARAMS = ['id', 'deviceId', 'userId', 'subUserId', 'groupId', 'ownerId', 'ownerSubId', 'enterpriseId', 'firmwareId', 'rolloutId'];

describe.each(engines)("another enterprise's ids on every route (%s)", (engine) => {
  let s: TestServer;
  let polaris: string;
  /** Foreign ids per parameter, and per entity for the routes whose `id` names their own entity. */
  const foreign: Record<string, number[]> = {};
  /** Strings only oceanic's records hold. */
  let secrets: string[] = [];

  /** Everything of oceanic a route could change, as one text to compare before and after. */
  const snapshot = async () => {
    const [row] = await s.db.query<{ text: string }>(
      `
      SELECT concat_ws('|',
        (SELECT string_agg(to_jsonb(d)::text, ',' ORDER BY d.id) FROM devices d JOIN users o ON o.id = d.owner_id WHERE o.name = 'oceanic'),
        (SELECT string_agg(to_jsonb(g)::text, ',' ORDER BY g.id) FROM device_groups g JOIN users o ON o.id = g.owner_id WHERE o.name = 'oceanic'),
        (SELECT string_agg(to_jsonb(v)::text, ',' ORDER BY v.id) FROM voyages v WHERE v.id = ANY($1)),
        (SELECT string_agg(to_jsonb(c)::text, ',' ORDER BY c.id) FROM cameras c WHERE c.id = ANY($2)),
        (SELECT string_agg(to_jsonb(u)::text, ',' ORDER BY u.id) FROM users u WHERE u.name IN ('oceanic', 'oceanops', 'oceanbridge')),
        (SELECT count(*)::text FROM sub_user_grants g JOIN users u ON u.id = g.sub_user_id WHERE u.name IN ('oceanops', 'oceanbridge')),
        (SELECT count(*)::text FROM device_manual_positions m JOIN devices d ON d.id = m.device_id JOIN users o ON o.id = d.owner_id WHERE o.name = 'oceanic')
      ) AS text`,
      [foreign.voyage, foreign.camera],
    );
    return row!.text;
  };

  beforeAll(async () => {
    s = await createTestServer(engine);
    polaris = await s.login('polaris');
    const ids = async (sql: string) => (await s.db.query<{ id: number }>(sql)).map((r) => r.id);
    const devices = await ids(
      `SELECT d.id FROM devices d JOIN users o ON o.id = d.owner_id WHERE o.name = 'oceanic' ORDER BY d.id LIMIT 3`,
    );
    const users = await ids(`SELECT id FROM users WHERE name IN ('oceanic', 'oceanops') ORDER BY id`);
    await s.db.query(`INSERT INTO device_groups (owner_id, name) SELECT id, 'Oceanic secret group' FROM users WHERE name = 'oceanic'`);
    await s.db.query(
      `INSERT INTO voyages (device_id, voyage_no, destination, etd, eta, agent) VALUES ($1, 'OCN-SECRET-1', 'Secret harbour', now(), now() + interval '1 day', 'Oceanic agent')`,
      [devices[0]],
    );
    await s.db.query(`INSERT INTO cameras (device_id, name, link) VALUES ($1, 'Oceanic secret camera', 'https://cam.example/oceanic')`, [
      devices[0],
    ]);
    Object.assign(foreign, {
      device: devices,
      activation: devices,
      manualPosition: devices,
      vessel: devices,
      statistics: devices,
      history: devices,
      user: users,
      extraLink: users,
      subUserGrant: users,
      permissionGroup: users,
      deviceGroup: await ids(`SELECT g.id FROM device_groups g JOIN users o ON o.id = g.owner_id WHERE o.name = 'oceanic'`),
      voyage: await ids(`SELECT id FROM voyages WHERE voyage_no = 'OCN-SECRET-1'`),
      camera: await ids(`SELECT id FROM cameras WHERE name = 'Oceanic secret camera'`),
      deviceId: devices,
      userId: users,
      subUserId: users.slice(1),
      ownerId: users.slice(0, 1),
      ownerSubId: users.slice(1),
      enterpriseId: users.slice(0, 1),
      groupId: await ids(`SELECT g.id FROM device_groups g JOIN users o ON o.id = g.owner_id WHERE o.name = 'oceanic'`),
    });
    const names = await s.db.query<{ name: string; sn: string }>(
      `SELECT d.name, d.device_sn AS sn FROM devices d JOIN users o ON o.id = d.owner_id WHERE o.name = 'oceanic'`,
    );
    secrets = [...names.flatMap((n) => [n.name, n.sn]), 'oceanops', 'Oceanic secret group', 'OCN-SECRET-1', 'Oceanic secret camera'];
  });
  afterAll(() => s.close());

  it('answers polaris with nothing of oceanic and changes nothing of oceanic', async () => {
    await s.app.ready();
    const operations = operationsOf(s.app.swagger() as never).filter(
      (op) => !/\/(logout|updatePasswordSelf|ingest\/report)$|\/firmware\/device\//.test(op.path),
    );
    const before = await snapshot();
    const tried: string[] = [];
    for (const op of operations as Operation[]) {
      const entity = op.path.split('/').at(-2)!;
      const queryParams = op.params.filter((p) => p.in === 'query' && ID_PARAMS.includes(p.name)).map((p) => p.name);
      const bodyParams = Object.keys(op.body?.schema.properties ?? {}).filter(
        (k) => ID_PARAMS.includes(k) || k === 'deviceIds' || k === 'userIds',
      );
      for (const param of [...queryParams, ...bodyParams]) {
        const values = param === 'id' ? (foreign[entity] ?? foreign.device!) : (foreign[param] ?? foreign.device!);
        for (const value of values) {
          const query = new URLSearchParams({ token: polaris, lang: 'en' });
          let payload: string | undefined;
          if (queryParams.includes(param)) query.set(param, String(value));
          if (op.body?.type.includes('json'))
            payload = JSON.stringify(
              bodyParams.includes(param) ? { [param]: param.endsWith('Ids') ? [value] : value, name: 'x', deviceIds: [value] } : {},
            );
          const res = await s.app.inject({
            method: op.method as 'GET',
            url: `${op.path}?${query}`,
            payload,
            headers: payload ? { 'content-type': 'application/json' } : {},
          });
          const where = `${op.method} ${op.path} ${param}=${value}`;
          tried.push(where);
          expect(res.statusCode, where).toBeLessThan(500);
          const text = res.rawPayload.toString('latin1');
          if (!String(res.headers['content-type']).includes('json')) {
            for (const secret of secrets) expect(text.includes(secret), `${where} leaks ${secret}`).toBe(false);
            continue;
          }
          const body = res.json();
          expect(body.code, where).not.toBe(ErrorCode.Busy);
          const answer = JSON.stringify(body.data ?? null);
          for (const secret of secrets) expect(answer.includes(secret), `${where} leaks ${secret}: ${answer.slice(0, 200)}`).toBe(false);
        }
      }
    }
    expect(tried.length).toBeGreaterThan(100);
    expect(await snapshot()).toBe(before);
  }, 300_000);
});
