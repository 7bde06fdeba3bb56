import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../server/db/connection';
import { BACKGROUND_MAX_WAIT_MS, inBackground, isBackground, priorityGate } from '../../server/db/priority';

/**
 * The embedded database runs one statement at a time: a console call queued behind the ingest's
 * transactions goes before them (server/db/priority.ts; docs/architecture.md, "Soak").
 */
describe('console calls go before background work on the embedded database', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ databaseUrl: '', dataDir: 'memory://' });
    await db.exec('CREATE TABLE seen (n serial PRIMARY KEY, who text NOT NULL)');
  });
  afterAll(() => db.close());

  it('a console query waiting behind two background transactions runs before the second one', async () => {
    const order: string[] = [];
    const mark = (who: string) => async () => {
      await db.query('INSERT INTO seen (who) VALUES ($1)', [who]);
      order.push(who);
    };
    // The first holds the database; the others are queued while it runs.
    const first = inBackground(() => db.transaction((tx) => tx.query('SELECT pg_sleep(0.2)')));
    const second = inBackground(mark('ingest'));
    const third = mark('console')();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['console', 'ingest']);
    const rows = await db.query<{ who: string }>('SELECT who FROM seen ORDER BY n');
    expect(rows.map((r) => r.who)).toEqual(['console', 'ingest']);
  });

  it('a failed statement rejects its caller only and the queue goes on', async () => {
    const blocker = inBackground(() => db.transaction((tx) => tx.query('SELECT pg_sleep(0.1)')));
    const bad = db.query('SELECT * FROM no_such_table');
    const good = inBackground(() => db.query<{ one: number }>('SELECT 1 AS one'));
    await blocker;
    await expect(bad).rejects.toThrow(/no_such_table/);
    expect(await good).toEqual([{ one: 1 }]);
  });

  it('work started in the background stays there in its timers, and a console call started after it is not', async () => {
    expect(await inBackground(() => new Promise<boolean>((r) => setTimeout(() => r(isBackground()), 1)))).toBe(true);
    expect(isBackground()).toBe(false);
    const gate = priorityGate();
    const hold = inBackground(() => gate.run(() => new Promise((r) => setTimeout(r, 5))));
    // Started by the background work's end, it still runs as the console call it is.
    const consoleCall = gate.run(async () => isBackground());
    await hold;
    expect(await consoleCall).toBe(false);
  });
});

describe('priorityGate', () => {
  it('lets background work go once it has waited the longest allowed, even while console calls keep coming', async () => {
    let clock = 0;
    const gate = priorityGate(() => clock);
    const order: string[] = [];
    const step = (who: string) => async () => {
      order.push(who);
    };
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const hold = gate.run(() => held);
    const background = inBackground(() => gate.run(step('background')));
    const console1 = gate.run(step('console 1'));
    clock = BACKGROUND_MAX_WAIT_MS; // the background work has now waited its longest
    const console2 = gate.run(step('console 2'));
    release();
    await Promise.all([hold, background, console1, console2]);
    expect(order).toEqual(['background', 'console 1', 'console 2']);
  });

  it('runs one piece of work at a time, in order of arrival within each queue', async () => {
    const gate = priorityGate();
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = (n: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 2));
      order.push(n);
      running--;
    };
    await Promise.all([1, 2, 3, 4].map((n) => (n % 2 ? inBackground(() => gate.run(work(n))) : gate.run(work(n)))));
    expect(most).toBe(1);
    // 1 was started at once; then the console's 2 and 4 before the background's 3.
    expect(order).toEqual([1, 2, 4, 3]);
  });
});
