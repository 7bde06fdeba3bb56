import { afterAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startServer } from '../../server/start';
import { alwaysLeader } from '../../server/leader';
import { startBackgroundWork, type BackgroundWork } from '../../server/simulator/startDemo';
import type { Db } from '../../server/db/connection';

/**
 * The leader's demo fleet (server/simulator/startDemo.ts): a start that fails, here the read of the
 * demo vessels answering a database error twice, is tried again while the replica leads, and says why.
 */
describe('the demo fleet on the leader', () => {
  let app: FastifyInstance | undefined;
  let work: BackgroundWork | undefined;
  afterAll(async () => {
    await work?.stop();
    await app?.close();
  });

  it('starts again after a failed start, and tells why the start failed', async () => {
    const server = await startServer({ dataDir: 'memory://', logLevel: 'silent', seedDemo: true });
    app = server.app;
    await app.listen({ host: '127.0.0.1', port: 0 });
    let failures = 2;
    const flaky: Db = Object.assign(Object.create(server.db) as Db, {
      query: (sql: string, params?: unknown[]) => {
        if (sql.includes("d.device_num LIKE 'A1%'") && failures-- > 0) return Promise.reject(new Error('connection reset'));
        return server.db.query(sql, params);
      },
    });
    work = await startBackgroundWork(app, flaky, server.config, alwaysLeader(), { SIMULATOR_INTERVAL_S: '60' });
    await vi.waitFor(() => expect(work!.simulatorStats()).not.toBeNull(), { timeout: 20_000, interval: 100 });
    expect(failures).toBeLessThan(0);
    expect(work.fleetStartError()).toBe('connection reset');
  }, 60_000);
});
