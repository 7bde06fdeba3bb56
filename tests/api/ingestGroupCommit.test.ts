import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestWriter } from '../../server/modules/monitoring/ingestWriter';
import { ErrorCode } from '../../src/domain/errorCodes';
import { parseBatch } from '../../server/modules/monitoring/reportBatch';
import { createTestServer, engines, type TestServer } from './helpers';
import { report } from './monitoringFixtures';

/**
 * The group-commit writer: concurrent requests are written together, each answered with its own
 * counts after the commit; a request that cannot be written does not take the others down.
 */
describe.each(engines)('ingest group commit (%s)', (engine) => {
  let s: TestServer;
  let devices: { id: number; activated: boolean }[];
  beforeAll(async () => {
    s = await createTestServer(engine);
    devices = await s.db.query(`SELECT id, true AS activated FROM devices ORDER BY id LIMIT 3`);
  });
  afterAll(() => s.close());

  const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute));
  const batch = (...minutes: number[]) => parseBatch({ reports: minutes.map((m) => report({ lat: 10 + m / 100 }, at(m))) }, Date.now());

  it('answers each of many concurrent requests with its own counts, and stores every report once', async () => {
    const writer = createIngestWriter(s.db);
    const [a, b] = devices;
    const results = await Promise.all([
      writer.write(a!, batch(1, 2, 3)),
      writer.write(a!, batch(3, 4)), // minute 3 again: a duplicate of the first request's
      writer.write(b!, batch(5)),
      writer.write(a!, batch(0)), // older than what the first request wrote: kept, but out of order
      ...Array.from({ length: 20 }, (_, i) => writer.write(b!, batch(10 + i))),
    ]);
    expect(results[0]).toMatchObject({ accepted: 3, duplicates: 0, outOfOrder: 0 });
    expect(results[1]).toMatchObject({ accepted: 1, duplicates: 1, outOfOrder: 0 });
    expect(results[2]).toMatchObject({ accepted: 1, duplicates: 0 });
    expect(results[3]).toMatchObject({ accepted: 1, outOfOrder: 1, latestReportedAt: null });
    const [countA] = await s.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_reports WHERE device_id = $1 AND device_time >= $2',
      [a!.id, at(0)],
    );
    expect(countA!.n).toBe(5);
    const [state] = await s.db.query<{ t: Date; lat: number }>('SELECT reported_at AS t, lat FROM device_state WHERE device_id = $1', [
      b!.id,
    ]);
    expect(state!.t.toISOString()).toBe(at(29).toISOString());
    expect(state!.lat).toBeCloseTo(10.29);
  });

  it('writes requests that arrive in separate callbacks of one turn of the event loop in one transaction', async () => {
    // As HTTP requests arrive: each from its own callback, microtasks run between them. Immediates
    // queued together all run in one check phase, whatever the machine's load; timers of 0 ms do
    // not (some may fall due a millisecond later, in the next turn).
    let transactions = 0;
    const counted = {
      ...s.db,
      query: s.db.query.bind(s.db),
      transaction: <T>(fn: (tx: never) => Promise<T>) => {
        transactions++;
        return s.db.transaction(fn as never);
      },
    };
    const writer = createIngestWriter(counted as typeof s.db);
    const results = await new Promise<unknown[]>((resolve) => {
      const pending: Promise<unknown>[] = [];
      for (let i = 0; i < 16; i++) setImmediate(() => pending.push(writer.write(devices[0]!, batch(100 + i))));
      setImmediate(() => resolve(Promise.all(pending)));
    });
    expect(results).toHaveLength(16);
    expect(results.every((r) => (r as { accepted: number }).accepted === 1)).toBe(true);
    expect(transactions).toBe(1);
  });

  it('answers busy (-100) past its backlog instead of queueing without bound', async () => {
    const writer = createIngestWriter(s.db, { maxQueuedReports: 3 });
    const device = devices[1]!;
    // Requests of the same turn wait for the next group together: three fit, the fourth finds the backlog full.
    const answers = await Promise.allSettled([50, 51, 52, 53].map((m) => writer.write(device, batch(m))));
    expect(answers.slice(0, 3).map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(answers[3]).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.Busy } });
    // Once the backlog is written the writer takes reports again.
    await expect(writer.write(device, batch(55))).resolves.toMatchObject({ accepted: 1 });
  });

  it('writes the others when one request of the group cannot be written', async () => {
    const writer = createIngestWriter(s.db);
    const gone = { id: 2_000_000_000, activated: true }; // a device deleted after it authenticated
    const [ok1, bad, ok2] = await Promise.allSettled([
      writer.write(devices[2]!, batch(40)),
      writer.write(gone, batch(41)),
      writer.write(devices[2]!, batch(42)),
    ]);
    expect(ok1).toMatchObject({ status: 'fulfilled', value: { accepted: 1 } });
    expect(bad.status).toBe('rejected');
    expect(ok2).toMatchObject({ status: 'fulfilled', value: { accepted: 1 } });
  });
});
