import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, demoIds, engines, type TestServer } from './helpers';
import { dm } from './deviceFixtures';

/**
 * The device list at any size (docs/architecture.md, "Device list at any size"): search through the trigram index gives the
 * same matches as a substring test on each searched column; a deep page is the same slice of the
 * whole ordered list; past the exact-count threshold (5 here) the total is flagged as estimated;
 * access rules hold for searches as for any list.
 */
const THRESHOLD = 5;
const SEARCHED = ['name', 'deviceNum', 'deviceSn', 'mac', 'mmsi', 'callsign'] as const;
type Row = Record<string, any>;

describe.each(engines)('device list at any size on %s', (engine) => {
  let s: TestServer;
  let ids: Record<string, number>;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    s = await createTestServer(engine, { deviceListExactCountMax: THRESHOLD });
    ids = await demoIds(s);
    for (const name of ['admin', 'oceanic', 'oceanops', 'polaris']) tokens[name] = await s.login(name);
    // Devices whose searched values hold the LIKE metacharacters and mixed case, in every column.
    const special: [string, string | null, string, string | null, string | null, string | null, number][] = [
      ['Alpha%Beta Trawler', null, 'SPX-1', null, null, null, ids.oceanic!],
      ['AlphaXBeta Trawler', null, 'SPX-2', null, null, null, ids.oceanic!],
      ['Under_score Ship', null, 'SPX-3', null, null, null, ids.polaris!],
      ['UnderXscore Ship', null, 'SPX-4', null, null, null, ids.polaris!],
      ['Back\\slash Barge', null, 'SPX-5', null, null, null, ids.oceanic!],
      ['MiXeD CaSe Tug', 'ABCDEF12', 'sn-LowerUpper', '0A.0B.0C.0D.0E.0F', '413999001', 'ZQX7', ids.oceanic!],
      ['Plain Ferry', null, 'SPX-7', null, '413999002', 'zqx8', ids.polaris!],
    ];
    for (const [name, num, sn, mac, mmsi, callsign, owner] of special) {
      await s.db.query(
        `INSERT INTO devices (name, device_num, device_sn, mac, mmsi, callsign, owner_id, manufacture_date, device_type, adu_version, bdu_version, manufacture_info, device_model, device_kind)
         VALUES ($1, $2, $3, $4, $5, $6, $7, '2024-01-01', 'Special', 'V1', 'V1', 'f', 'M', 'vsat')`,
        [name, num, sn, mac, mmsi, callsign, owner],
      );
    }
  });
  afterAll(() => s?.close());

  const page = async (who: string, query: string) => {
    const res = await s.call({ url: dm(s, `device/getAll?${query}`), token: tokens[who] });
    expect(res.code).toBe(0);
    return res.data as { list: Row[]; total: number; totalEstimated?: boolean };
  };
  /** Every visible device in list order, read 500 at a time. */
  const everything = async (who: string, query = '') => {
    const all: Row[] = [];
    for (let i = 1; ; i++) {
      const { list } = await page(who, `${query}&pageSize=500&pageIndex=${i}`);
      all.push(...list);
      if (list.length < 500) return all;
    }
  };
  const matches = (row: Row, term: string) =>
    SEARCHED.some((c) => typeof row[c] === 'string' && row[c].toLowerCase().includes(term.toLowerCase()));

  describe('search', () => {
    const terms = [
      'alpha%beta',
      '%',
      '_',
      'under_score',
      '\\',
      'back\\sl',
      'mixed case',
      'abcdef',
      'sn-lowerupper',
      '0a.0b',
      '413999',
      'zqx',
      'ZQX7',
      'q',
      'tr',
      'vessel',
      'sn2024',
      'no such thing',
    ];
    it.each(terms)('finds exactly the devices with %j in a searched column, whatever the case', async (term) => {
      for (const who of ['admin', 'oceanic', 'oceanops']) {
        const visible = await everything(who);
        const expected = visible
          .filter((r) => matches(r, term))
          .map((r) => r.id)
          .sort((a, b) => a - b);
        const found = await everything(who, `search=${encodeURIComponent(term)}`);
        expect(
          found.map((r) => r.id).sort((a, b) => a - b),
          `${who} ${term}`,
        ).toEqual(expected);
      }
    });

    it('takes % _ and \\ literally', async () => {
      expect((await everything('admin', 'search=alpha%25beta')).map((r) => r.name)).toEqual(['Alpha%Beta Trawler']);
      expect((await everything('admin', 'search=under_')).map((r) => r.name)).toEqual(['Under_score Ship']);
      expect((await everything('admin', `search=${encodeURIComponent('back\\slash')}`)).map((r) => r.name)).toEqual(['Back\\slash Barge']);
    });
  });

  describe('deep pages', () => {
    const orders = [
      'sort=id',
      'sort=id&order=desc',
      'sort=name&order=desc',
      'sort=deviceType',
      'sort=status&order=desc',
      'deviceKind=vsat&sort=name',
      'search=vessel&sort=name',
      'deviceType=Special&sort=ownerId',
      'status=0,1&activated=false',
    ];
    it.each(orders)('every page of %s is the same slice of the whole ordered list', async (query) => {
      for (const who of ['admin', 'oceanic', 'oceanops']) {
        const all = (await everything(who, query)).map((r) => r.id);
        const size = 3;
        for (let index = 1; index <= Math.ceil(all.length / size) + 1; index++) {
          const { list, total } = await page(who, `${query}&pageSize=${size}&pageIndex=${index}`);
          expect(
            list.map((r) => r.id),
            `${who} ${query} page ${index}`,
          ).toEqual(all.slice((index - 1) * size, index * size));
          expect(total).toBeGreaterThanOrEqual(Math.min(all.length, index * size));
        }
      }
    });
  });

  describe('total', () => {
    it('is exact when device_counts answers the filter, however many devices match', async () => {
      const all = await everything('admin');
      expect(all.length).toBeGreaterThan(THRESHOLD);
      const res = await page('admin', 'pageSize=2&pageIndex=2');
      expect(res).toMatchObject({ total: all.length });
      expect(res.totalEstimated).toBeUndefined();
      const vsat = all.filter((r) => r.deviceKind === 'vsat' && r.status === 0);
      expect(await page('admin', 'deviceKind=vsat&status=0&pageSize=2')).toMatchObject({ total: vsat.length });
    });

    it('is exact up to the threshold, else an estimate flagged totalEstimated', async () => {
      const few = await page('admin', 'deviceType=Special&ownerId=' + ids.polaris + '&pageSize=1');
      expect(few).toMatchObject({ total: 3 });
      expect(few.totalEstimated).toBeUndefined();
      const special = await everything('admin', 'deviceType=Special');
      expect(special.length).toBe(7);
      const many = await page('admin', 'deviceType=Special&pageSize=2');
      expect(many.totalEstimated).toBe(true);
      expect(many.total).toBeGreaterThan(THRESHOLD);
      expect(many.list.map((r) => r.id)).toEqual(special.slice(0, 2).map((r) => r.id));
    });

    it('is exact again once a page reaches the end of the list, and past the end', async () => {
      const special = await everything('admin', 'deviceType=Special');
      const last = await page('admin', 'deviceType=Special&pageSize=2&pageIndex=4');
      expect(last).toMatchObject({ total: 7, list: [{ id: special[6]!.id }] });
      expect(last.totalEstimated).toBeUndefined();
      const past = await page('admin', 'deviceType=Special&pageSize=2&pageIndex=50');
      expect(past).toMatchObject({ total: 7, list: [] });
      expect(past.totalEstimated).toBeUndefined();
      const exactPage = await page('admin', 'deviceType=Special&pageSize=7');
      expect(exactPage).toMatchObject({ total: 7 });
    });
  });

  describe('access rules', () => {
    it('an enterprise finds only its own devices, a sub-user only its granted ones', async () => {
      const adminAll = await everything('admin', 'search=trawler');
      expect(adminAll).toHaveLength(2);
      expect((await everything('oceanic', 'search=trawler')).map((r) => r.id)).toEqual(adminAll.map((r) => r.id));
      expect(await everything('polaris', 'search=trawler')).toEqual([]);
      expect((await everything('polaris', 'search=ship')).every((r) => r.ownerId === ids.polaris)).toBe(true);
      const granted = new Set((await everything('oceanops')).map((r) => r.id));
      const seen = await everything('oceanops', 'search=e');
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((r) => granted.has(r.id))).toBe(true);
      expect(seen.some((r) => r.name === 'MiXeD CaSe Tug')).toBe(false);
    });
  });
});
