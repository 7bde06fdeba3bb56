import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestServer, describeSecondServer, engines, type TestServer } from './helpers';
import { ErrorCode } from '../../src/domain/errorCodes';

/**
 * Every password the server checks goes through verifyPassword: the spy counts the guesses that
 * were really checked (not only what the answers claim) and shows which hash each was checked
 * against (docs/architecture.md, login throttling).
 */
const checked = vi.hoisted(() => ({ hashes: [] as string[] }));
vi.mock('../../server/auth/password', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/auth/password')>();
  return {
    ...real,
    verifyPassword: (password: string, stored: string) => {
      checked.hashes.push(stored);
      return real.verifyPassword(password, stored);
    },
  };
});

describe.each(engines)('login throttling under concurrency on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await createTestServer(engine, { loginMaxFailures: 5, loginNameMaxFailures: 12 });
  });
  afterAll(() => s.close());
  beforeEach(() => {
    checked.hashes.length = 0;
  });

  const login = (name: string, password: string, remoteAddress = '127.0.0.1') =>
    s.app
      .inject({
        method: 'POST',
        url: `${s.base}/users/login`,
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ name, password }).toString(),
      })
      .then((res) => res.json() as { code: number; data: { remainingAttempts?: number; retryAfterSeconds?: number } | null });

  /** Answers by code, e.g. { 6: 4, 7: 56 }. */
  const tally = (codes: number[]) => codes.reduce<Record<number, number>>((all, code) => ({ ...all, [code]: (all[code] ?? 0) + 1 }), {});

  it('checks at most LOGIN_MAX_FAILURES guesses from one address, however many arrive at once', async () => {
    // 60 at once, the right password as number 30.
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => login('polaris', i === 29 ? 'polaris123' : `guess${i}`)));
    const codes = answers.map((a) => a.code);
    console.log(`${engine}, one address: answers ${JSON.stringify(tally(codes))}, passwords checked ${checked.hashes.length}`);
    expect(checked.hashes.length).toBeLessThanOrEqual(5);
    // Wrong guesses answered "wrong password" (6) leave an attempt; the one reaching the limit answers the lock (7).
    expect(codes.filter((c) => c === ErrorCode.LoginFailed).length).toBeLessThanOrEqual(4);
    expect(codes.every((c) => c === 0 || c === ErrorCode.LoginFailed || c === ErrorCode.LoginLocked)).toBe(true);
    // Only a password that was checked can win: a success means the right one got one of the five attempts.
    if (codes.includes(0)) expect(checked.hashes.length).toBeGreaterThan(0);
    const after = await login('polaris', 'polaris123');
    if (!codes.includes(0)) expect(after.code).toBe(ErrorCode.LoginLocked);
  });

  it('checks at most LOGIN_NAME_MAX_FAILURES guesses for one name spread over many addresses at once', async () => {
    // 120 guesses from 40 addresses (3 each, under the limit per address of 5): the limit for the name is 12.
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) => login('oceanbridge', `guess${i}`, `198.51.100.${(i % 40) + 1}`)),
    );
    const codes = answers.map((a) => a.code);
    console.log(`${engine}, 40 addresses: answers ${JSON.stringify(tally(codes))}, passwords checked ${checked.hashes.length}`);
    expect(checked.hashes.length).toBeLessThanOrEqual(12);
    expect(codes.filter((c) => c === ErrorCode.LoginFailed).length).toBeLessThanOrEqual(11);
    // The name is locked for everyone now, the right password included, from a fresh address.
    const owner = await login('oceanbridge', 'bridge123', '203.0.113.50');
    expect(owner.code).toBe(ErrorCode.LoginLocked);
    expect(owner.data?.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('gives a success its attempt back: more successes than the limit for the name, ten at a time, all log in', async () => {
    // An attempt counts while its password is being checked, right or wrong; once right, it no longer counts.
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => login('oceanops', 'oceanops123', `192.0.2.${round * 10 + i + 1}`)),
      );
      expect(answers.map((a) => a.code).join()).toBe(Array(10).fill(0).join());
    }
    // The name's window holds no attempt of theirs: the next failures still have the whole allowance.
    const wrong = await login('oceanops', 'nope', '192.0.2.99');
    expect(wrong.code).toBe(ErrorCode.LoginFailed);
    expect(wrong.data?.remainingAttempts).toBe(4);
  });

  describeSecondServer(
    engine,
    () => s,
    (second) => {
      it('holds across replicas: guesses split over two servers are checked at most LOGIN_MAX_FAILURES times', async () => {
        const from = (server: TestServer, i: number) =>
          server.app
            .inject({
              method: 'POST',
              url: `${server.base}/users/login`,
              remoteAddress: '203.0.113.77',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: `name=admin&password=guess${i}`,
            })
            .then((res) => (res.json() as { code: number }).code);
        const codes = await Promise.all(Array.from({ length: 40 }, (_, i) => from(i % 2 ? second() : s, i)));
        expect(checked.hashes.length).toBeLessThanOrEqual(5);
        expect(codes.filter((c) => c === ErrorCode.LoginFailed).length).toBeLessThanOrEqual(4);
      });
    },
  );

  it('checks the password of an unknown name too, against a hash of the same cost, so time tells nothing', async () => {
    const unknown = await login('nobody-by-this-name', 'whatever');
    expect(unknown.code).toBe(ErrorCode.LoginFailed);
    const known = await login('polarisops', 'wrong-one');
    expect(known.code).toBe(ErrorCode.LoginFailed);
    expect(checked.hashes).toHaveLength(2);
    const params = (hash: string) => hash.split('$').slice(0, 4).join('$');
    expect(params(checked.hashes[0]!)).toBe(params(checked.hashes[1]!));
    expect(params(checked.hashes[0]!)).toBe('scrypt$16384$8$1');
    // Same salt and key lengths as a real hash.
    const lengths = (hash: string) =>
      hash
        .split('$')
        .slice(4)
        .map((part) => Buffer.from(part, 'base64').length);
    expect(lengths(checked.hashes[0]!)).toEqual(lengths(checked.hashes[1]!));
  });
});
