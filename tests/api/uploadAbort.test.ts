import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, engines, type TestServer } from './helpers';
import { multipart, packageFields } from './firmwareFixtures';

interface LogLine {
  level: number;
  msg?: string;
  err?: { stack?: string };
}

/**
 * A client that gives up mid-upload is no fault of the server: one info line, no error, no stack
 * (docs/architecture.md). A real listening server and a raw socket that is destroyed mid-body.
 */
describe.each(engines)('an upload the client aborts on %s', (engine) => {
  let s: TestServer;
  let admin: string;
  let port = 0;
  const lines: LogLine[] = [];
  beforeAll(async () => {
    s = await createTestServer(
      engine,
      { logLevel: 'info' },
      { logStream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } },
    );
    admin = await s.login('admin');
    await s.app.listen({ host: '127.0.0.1', port: 0 });
    const address = s.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => s.close());

  /** Sends the headers and the first `sent` bytes of a body declared much longer, then destroys the socket. */
  const abortedUpload = (path: string, body: { payload: Buffer; headers: Record<string, string> }, sent: number) =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          `POST ${s.base}/${path}?token=${admin} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${body.headers['content-type']}\r\n` +
            `Content-Length: ${body.payload.length}\r\n\r\n`,
        );
        socket.write(body.payload.subarray(0, sent));
        // Long enough for the handler to be streaming the file part when the client goes.
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 400);
      });
      socket.on('error', reject);
    });

  const settled = async (count: number) => {
    await expect
      .poll(() => lines.filter((l) => l.msg?.includes('request completed') || l.level >= 30).length, { timeout: 5000 })
      .toBeGreaterThanOrEqual(count);
    await new Promise((r) => setTimeout(r, 300));
  };

  it.each([
    [
      'firmware',
      'deviceModule/firmware/add',
      () => multipart(packageFields({ version: 'V9.9.9' }), { name: 'big.bin', content: Buffer.alloc(4 * 1024 * 1024, 7) }),
    ],
    [
      'device import',
      'deviceModule/device/import',
      () => multipart({}, { name: 'devices.xlsx', content: Buffer.alloc(4 * 1024 * 1024, 7) }),
    ],
  ] as const)('logs an aborted %s upload at info, in one line without a stack', async (_, path, body) => {
    lines.length = 0;
    await abortedUpload(path, body(), 256 * 1024);
    await settled(2);
    const serious = lines.filter((l) => l.level >= 40);
    expect(serious, JSON.stringify(serious).slice(0, 2000)).toEqual([]);
    const aborted = lines.filter((l) => l.msg === 'client aborted the request');
    expect(aborted).toHaveLength(1);
    expect(JSON.stringify(aborted[0])).not.toContain('stack');
    expect(JSON.stringify(aborted[0]).length).toBeLessThan(500);
    // The server goes on answering.
    expect((await s.call({ url: `${s.base}/ping` })).code).toBe(0);
  });
});
