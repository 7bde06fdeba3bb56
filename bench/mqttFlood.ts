import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startBenchServer } from './benchServer';

/**
 * bench:mqtt-flood — unauthenticated sockets flood the embedded MQTT broker: each sends a CONNECT
 * that announces 256 MB (fixed header 10 ff ff ff 7f) and then streams bytes as fast as the socket
 * takes them. Prints the server's RSS before, at its peak and after the sockets are gone, how many
 * bytes the sockets got written before the server cut them, and GET /ping p50/p99 meanwhile (one
 * request at a time). The server runs in a process of its own (PGlite in memory, embedded broker
 * on a free port), so its RSS is its own. Limits: docs/devices.md, "Limits".
 *
 *   npm run bench:mqtt-flood            100 sockets, up to 16 MB each, for 15 s
 *   BENCH_SMOKE=1 npm run bench:mqtt-flood   5 sockets, 4 MB each, 3 s (CI smoke)
 *   BENCH_SOCKETS, BENCH_MB_PER_SOCKET, BENCH_SECONDS override the numbers.
 * Asserts nothing.
 */
const SMOKE = process.env.BENCH_SMOKE === '1';
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? (SMOKE ? 5 : 100));
const BYTES_PER_SOCKET = Number(process.env.BENCH_MB_PER_SOCKET ?? (SMOKE ? 4 : 16)) * 1024 * 1024;
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 3 : 15));
const HUGE_CONNECT = Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f]);

type FromServer = { ready: { mqttPort: number; url: string } } | { rss: number };

if (process.argv[2] === 'server') {
  // The server's side: start, say where, answer RSS questions.
  const server = await startBenchServer('pglite', { seedDemo: false });
  const mqttPort = Number(new URL(server.link.deviceUrl!).port);
  process.send!({ ready: { mqttPort, url: server.url } } satisfies FromServer);
  process.on('message', (message) => {
    if (message === 'rss') process.send!({ rss: process.memoryUsage().rss } satisfies FromServer);
    if (message === 'stop') void server.stop().then(() => process.exit(0));
  });
} else {
  await main();
}

async function main() {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(pick: (m: FromServer) => T | undefined) => new Promise<T>((resolve) => {
    const on = (m: FromServer) => {
      const value = pick(m);
      if (value === undefined) return;
      child.off('message', on);
      resolve(value);
    };
    child.on('message', on);
  });
  const { mqttPort, url } = await next((m) => ('ready' in m ? m.ready : undefined));
  const rss = async () => {
    const answer = next((m) => ('rss' in m ? m.rss : undefined));
    child.send('rss');
    return answer;
  };
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

  // Warm up the HTTP path and let the start settle.
  for (let i = 0; i < 50; i++) await fetch(`${url}/ping`).then((r) => r.arrayBuffer());
  await new Promise((r) => setTimeout(r, 1000));
  const before = await rss();

  let peak = before;
  const sampler = setInterval(() => void rss().then((v) => (peak = Math.max(peak, v))), 200);
  const pings: number[] = [];
  let flooding = true;
  const pinger = (async () => {
    while (flooding) {
      const t = performance.now();
      await fetch(`${url}/ping`).then((r) => r.arrayBuffer());
      pings.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();

  const written: number[] = [];
  const cut: boolean[] = [];
  const sockets: Socket[] = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: SOCKETS }, (_, i) => new Promise<void>((resolve) => {
    written[i] = 0;
    cut[i] = false;
    const socket = connect(mqttPort, '127.0.0.1');
    sockets.push(socket);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const done = () => resolve();
    socket.once('close', () => {
      cut[i] = performance.now() - started < SECONDS * 1000 - 50;
      done();
    });
    socket.on('error', () => undefined);
    // Written as fast as the server reads; then the socket stays open (no FIN: the server holds it until its connect timeout).
    const pump = () => {
      while (!socket.destroyed && written[i]! < BYTES_PER_SOCKET) {
        written[i]! += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    socket.once('connect', () => {
      written[i] = HUGE_CONNECT.length;
      socket.write(HUGE_CONNECT);
      pump();
    });
    // The flood lasts SECONDS, unless the server cuts every socket sooner.
    setTimeout(() => socket.destroy(), SECONDS * 1000).unref();
  })));
  const floodSeconds = (performance.now() - started) / 1000;
  flooding = false;
  await pinger;
  await new Promise((r) => setTimeout(r, 2000));
  clearInterval(sampler);
  const after = await rss();

  pings.sort((a, b) => a - b);
  const pct = (p: number) => (pings.length ? pings[Math.min(pings.length - 1, Math.floor(p * pings.length))]!.toFixed(1) : '-');
  const maxWritten = Math.max(...written);
  console.log(`bench:mqtt-flood: ${SOCKETS} sockets, CONNECT announcing 256 MB, up to ${mb(BYTES_PER_SOCKET)} each, ${floodSeconds.toFixed(1)} s`);
  console.log(`  server RSS: before ${mb(before)}, peak ${mb(peak)} (+${mb(peak - before)}), after ${mb(after)} (+${mb(after - before)})`);
  console.log(`  written per socket: max ${(maxWritten / 1024).toFixed(0)} KB, total ${mb(written.reduce((a, b) => a + b, 0))};`
    + ` cut by the server: ${cut.filter(Boolean).length}/${SOCKETS}`);
  console.log(`  /ping during the flood: ${pings.length} requests, p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${pings.length ? pings.at(-1)!.toFixed(1) : '-'} ms`);
  for (const s of sockets) s.destroy();
  await stop(child);
}

function stop(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.send('stop');
    setTimeout(() => child.kill(), 10_000).unref();
  });
}
