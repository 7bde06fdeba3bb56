import { describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { createDataProvider, CzHttpError } from '../../src/data/dataProvider';
import { ENDPOINTS } from '../../src/resources';
import { mockApi, ok } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';

const provider = createDataProvider(ENDPOINTS);
const users = 'system/user';
const links = 'system/extraLink';
const setup = (handler: Parameters<typeof mockApi>[0]) => mockApi(handler, { getToken: () => 'tok' });

describe('dataProvider over the /cz users module', () => {
  it('getList maps pagination (1-based), sort and filters to the query, and reads {list,total}', async () => {
    const { calls } = setup(() => ok({ list: [{ id: 7, name: 'x' }], total: 31 }));
    const result = await provider.getList(users, {
      pagination: { page: 3, perPage: 10 },
      sort: { field: 'name', order: 'DESC' },
      filter: { name: 'oce', other: 'dropped' },
    });
    const q = calls[0]!.url.searchParams;
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.url.pathname).toBe('/cz/test/users/getAll');
    expect([q.get('pageIndex'), q.get('pageSize'), q.get('sort'), q.get('order'), q.get('name'), q.has('other')]).toEqual([
      '3',
      '10',
      'name',
      'desc',
      'oce',
      false,
    ]);
    expect(result).toEqual({ data: [{ id: 7, name: 'x' }], total: 31 });
  });

  it('getList leaves out a sort field the server cannot sort by', async () => {
    const { calls } = setup(() => ok({ list: [], total: 0 }));
    await provider.getList(users, { pagination: { page: 1, perPage: 25 }, sort: { field: 'email', order: 'ASC' }, filter: {} });
    expect(calls[0]!.url.searchParams.has('sort')).toBe(false);
  });

  it('getList of an unpaged endpoint filters, sorts and pages here, with the id from idOf', async () => {
    setup(() =>
      ok([
        { userId: 2, userName: 'b', content: 'x' },
        { userId: 1, userName: 'a', content: 'y' },
        { userId: 3, userName: 'ab', content: 'z' },
      ]),
    );
    const result = await provider.getList(links, {
      pagination: { page: 1, perPage: 1 },
      sort: { field: 'userName', order: 'ASC' },
      filter: { userName: 'a' },
    });
    expect(result.total).toBe(2);
    expect(result.data).toEqual([{ id: 1, userId: 1, userName: 'a', content: 'y' }]);
  });

  it('getOne uses the id parameter of the definition', async () => {
    const { calls } = setup(() => ok({ id: 5, name: 'u' }));
    await expect(provider.getOne(users, { id: 5 })).resolves.toEqual({ data: { id: 5, name: 'u' } });
    expect(calls[0]!.url.pathname).toBe('/cz/test/users/getUserSimpleInfo');
    expect(calls[0]!.url.searchParams.get('id')).toBe('5');
    setup(() => ok({ userId: 4, content: 'c' }));
    const link = await provider.getOne(links, { id: 4 });
    expect(link.data).toEqual({ id: 4, userId: 4, content: 'c' });
  });

  it('getOne of a missing record (data null) is a 404 HttpError', async () => {
    setup(() => ok(null));
    await expect(provider.getOne(links, { id: 9 })).rejects.toMatchObject({ status: 404 });
  });

  it('create posts only the creatable fields as JSON', async () => {
    const { calls } = setup(() => ok({ id: 11, name: 'new' }));
    const result = await provider.create(users, {
      data: { name: 'new', password: 'secret1', repassword: 'secret1', permissionLevel: '2', email: '', junk: 1 },
    });
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.url.pathname).toBe('/cz/test/users/addUser');
    expect(calls[0]!.body).toEqual({ name: 'new', password: 'secret1', repassword: 'secret1', permissionLevel: '2', email: null });
    expect(result.data.id).toBe(11);
  });

  it('create of a query-style endpoint sends the parameters in the query', async () => {
    const { calls } = setup(() => ok({ userId: 3, content: 'hello' }));
    await provider.create(links, { data: { userId: 3, content: 'hello' } });
    expect(calls[0]!.url.pathname).toBe('/cz/test/users/addEditUserExtraLink');
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.url.searchParams.get('userId')).toBe('3');
    expect(calls[0]!.url.searchParams.get('content')).toBe('hello');
  });

  it('update posts the editable fields with the id', async () => {
    const { calls } = setup(() => ok({ id: 3, nickname: 'n' }));
    const result = await provider.update(users, { id: 3, data: { nickname: 'n', password: 'never' }, previousData: { id: 3 } });
    expect(calls[0]!.url.pathname).toBe('/cz/test/users/updateUser');
    expect(calls[0]!.body).toEqual({ id: 3, nickname: 'n' });
    expect(result.data).toMatchObject({ id: 3, nickname: 'n' });
  });

  it('delete sends DELETE with the id in the query', async () => {
    const { calls } = setup(() => ok(null));
    await provider.delete(users, { id: 6, previousData: { id: 6, name: 'z' } });
    expect(calls[0]!.method).toBe('DELETE');
    expect(calls[0]!.url.pathname).toBe('/cz/test/users/deleteUserById');
    expect(calls[0]!.url.searchParams.get('id')).toBe('6');
  });

  it('deleteMany and getMany go record by record', async () => {
    const { calls } = setup((path, call) =>
      path.endsWith('getUserSimpleInfo') ? ok({ id: Number(call.url.searchParams.get('id')) }) : ok(null),
    );
    await expect(provider.deleteMany(users, { ids: [1, 2] })).resolves.toEqual({ data: [1, 2] });
    await expect(provider.getMany(users, { ids: [4, 5] })).resolves.toEqual({ data: [{ id: 4 }, { id: 5 }] });
    expect(calls.map((c) => c.method)).toEqual(['DELETE', 'DELETE', 'GET', 'GET']);
  });

  it('a resource without a delete endpoint refuses', async () => {
    setup(() => ok(null));
    await expect(provider.delete(links, { id: 1 })).rejects.toBeInstanceOf(HttpError);
  });

  it('an envelope error becomes an HttpError carrying the code, with field errors for the form', async () => {
    setup(() => ({ code: 9, msg: 'This username is already taken', data: [{ field: 'name', message: 'This username is already taken' }] }));
    const error = (await provider.create(users, { data: { name: 'admin' } }).catch((e: unknown) => e)) as CzHttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error.code).toBe(9);
    expect(error.message).toBe('This username is already taken');
    expect(error.body).toMatchObject({ code: 9, errors: { name: 'This username is already taken' } });
  });

  it('token errors become 401 so react-admin checks the session', async () => {
    setup(() => ({ code: 5, msg: 'invalid' }));
    await expect(
      provider.getList(users, { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} }),
    ).rejects.toMatchObject({ status: 401, code: 5 });
  });

  it('a network failure becomes an HttpError with code -1', async () => {
    setup(() => new TypeError('Failed to fetch'));
    await expect(provider.getOne(users, { id: 1 })).rejects.toMatchObject({ code: -1, status: 0 });
  });

  describe('the rest of the contract', () => {
    const many = 'test/many';
    const flat = 'test/flat';
    const fixture = createDataProvider({
      [many]: {
        list: { path: '/m/getAll', paged: true, filters: ['name'] },
        one: { path: '/m/getById' },
        many: { path: '/m/getByIds' },
        update: { path: '/m/update', send: 'json' },
      },
      [flat]: { list: { path: '/f/getAll', paged: false, filters: ['deviceId'], matchHere: ['name', 'groupId'] } },
    });

    it('an unpaged list sends its server filters and matches ids exactly here (id 1 does not match 12)', async () => {
      const { calls } = setup(() =>
        ok([
          { id: 1, groupId: 1, name: 'Alpha' },
          { id: 2, groupId: 12, name: 'alpine' },
          { id: 3, groupId: 1, name: 'Beta' },
        ]),
      );
      const result = await fixture.getList(flat, {
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'id', order: 'ASC' },
        filter: { deviceId: 7, groupId: 1, name: 'AL' },
      });
      expect(calls[0]!.url.searchParams.get('deviceId')).toBe('7');
      expect(calls[0]!.url.searchParams.has('groupId')).toBe(false);
      expect(result.data.map((r) => r.id)).toEqual([1]);
    });

    it('getManyReference keeps its target even when the list does not declare it as a filter', async () => {
      const { calls } = setup(() => ok({ list: [], total: 0 }));
      await fixture.getManyReference(many, {
        target: 'deviceId',
        id: 5,
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'id', order: 'ASC' },
        filter: { junk: 1 },
      });
      expect(calls[0]!.url.searchParams.get('deviceId')).toBe('5');
      expect(calls[0]!.url.searchParams.has('junk')).toBe(false);
      setup(() =>
        ok([
          { id: 1, groupId: 3 },
          { id: 2, groupId: 33 },
        ]),
      );
      const local = await fixture.getManyReference(flat, {
        target: 'groupId',
        id: 3,
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'id', order: 'ASC' },
        filter: {},
      });
      expect(local.data.map((r) => r.id)).toEqual([1]);
    });

    it('getMany is one call where the server reads several ids, and skips a record that is gone where it reads one', async () => {
      const { calls } = setup(() => ok([{ id: 4 }, { id: 5 }]));
      await expect(fixture.getMany(many, { ids: [4, 5, 4] })).resolves.toEqual({ data: [{ id: 4 }, { id: 5 }] });
      expect(calls).toHaveLength(1);
      expect(calls[0]!.url.searchParams.get('ids')).toBe('4,5');
      setup((_path, call) => (call.url.searchParams.get('id') === '9' ? ok(null) : ok({ id: Number(call.url.searchParams.get('id')) })));
      await expect(provider.getMany(users, { ids: [8, 9] })).resolves.toEqual({ data: [{ id: 8 }] });
      await expect(fixture.getMany(many, { ids: [] })).resolves.toEqual({ data: [] });
    });

    it('updateMany updates one by one and stops at the first refusal, which it reports', async () => {
      const { calls } = setup((_path, call) =>
        (call.body as { id: number }).id === 2 ? { code: ErrorCode.Forbidden, msg: 'no' } : ok(null),
      );
      await expect(fixture.updateMany(many, { ids: [1, 2, 3], data: { enabled: true } })).rejects.toMatchObject({
        code: ErrorCode.Forbidden,
        status: 403,
      });
      expect(calls.map((c) => (c.body as { id: number }).id)).toEqual([1, 2]);
    });

    it('an unknown resource is a 404, not a crash', async () => {
      await expect(
        provider.getList('nowhere', { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'ASC' }, filter: {} }),
      ).rejects.toMatchObject({ status: 404 });
    });

    it("call reaches an API module and turns its business error into the provider's error with the message and data", async () => {
      const { calls } = setup(() => ok({ list: [], total: 0 }));
      await provider.call('vessel', 'getFleet', { days: 7, utcOffset: 8, pageIndex: 1, pageSize: 10, sort: 'name', order: 'asc' });
      expect(calls[0]!.url.pathname).toBe('/cz/test/deviceModule/statistics/getFleet');
      setup(() => ({ code: ErrorCode.Validation, msg: 'Invalid input', data: [{ field: 'days', message: 'too many' }] }));
      const error = await provider
        .call('vessel', 'getFleet', { days: 999, utcOffset: 8, pageIndex: 1, pageSize: 10, sort: 'name', order: 'asc' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CzHttpError);
      expect(error).toMatchObject({ code: ErrorCode.Validation, message: 'Invalid input', data: [{ field: 'days', message: 'too many' }] });
      await expect(provider.call('vessel', 'nothing' as never)).rejects.toMatchObject({ status: 404 });
    });
  });
});
