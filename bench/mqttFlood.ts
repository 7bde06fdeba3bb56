import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startBenchServer } from './benchServer';

/**
 * bench:mqtt-flood — unauthenticated sockets flood the embedded MQTT broker: each sends a CONNECT
 * that announces 256 MB (fixed header 10 ff ff ff 7f) and then streams bytes as fast as the socket
 * takes them. Prints the server's RSS before, at its peak and after the sockets are gone, how many
 * bytes the sockets got written before the server cut them, and GET /ping p50/p99 meanwhile (one
 * request at a time). A socket the server cuts connects again at once: SOCKETS stay at it for
 * SECONDS. The server runs in a process of its own (PGlite in memory, embedded broker
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

type FromServer = { ready: { mqttPort: number; url: string } } | { rss: number } | { pinging: true } | { pings: number[] };

if (process.argv[2] === 'server') {
  // The server's side: start, say where, answer RSS questions.
  const server = await startBenchServer('pglite', { seedDemo: false });
  const mqttPort = Number(new URL(server.link.deviceUrl!).port);
  process.send!({ ready: { mqttPort, url: server.url } } satisfies FromServer);
  process.on('message', (message) => {
    if (message === 'rss') process.send!({ rss: process.memoryUsage().rss } satisfies FromServer);
    if (message === 'stop') void server.stop().then(() => process.exit(0));
  });
} else if (process.argv[2] === 'pinger') {
  // GET /ping one at a time, from a process of its own (the flood's sockets would delay it in the main one), until told to stop.
  let pings: number[] = [];
  let going = true;
  // 'lap': the pings so far, and start again; 'stop': the pings so far, and exit.
  process.on('message', (message) => {
    if (message === 'stop') return void (going = false);
    process.send!({ pings } satisfies FromServer);
    pings = [];
  });
  for (let i = 0; i < 20; i++) await fetch(`${process.argv[3]}/ping`).then((r) => r.arrayBuffer()); // warm-up, not counted
  process.send!({ pinging: true } satisfies FromServer);
  while (going) {
    const t = performance.now();
    await fetch(`${process.argv[3]}/ping`).then((r) => r.arrayBuffer());
    pings.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  process.send!({ pings } satisfies FromServer, () => process.exit(0));
} else {
  await main();
}

async function main() {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'server'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(pick: (m: FromServer) => T | undefined, from = child) =>
    new Promise<T>((resolve) => {
      const on = (m: FromServer) => {
        const value = pick(m);
        if (value === undefined) return;
        from.off('message', on);
        resolve(value);
      };
      from.on('message', on);
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
  const pinger = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'pinger', url], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await next((m) => ('pinging' in m ? true : undefined), pinger);
  const lap = async (message: 'lap' | 'stop') => {
    const answer = next((m) => ('pings' in m ? m.pings : undefined), pinger);
    pinger.send(message);
    return answer;
  };
  // The machine's own noise first: /ping with no flood, as long as the flood will last (5 s at most).
  await new Promise((r) => setTimeout(r, Math.min(SECONDS, 5) * 1000));
  const quiet = await lap('lap');
  const before = await rss();
  let peak = before;
  const sampler = setInterval(() => void rss().then((v) => (peak = Math.max(peak, v))), 200);

  // Each of SOCKETS attackers keeps one socket going for SECONDS: cut by the server, it connects again.
  let connections = 0;
  let cuts = 0;
  let maxWritten = 0;
  let totalWritten = 0;
  const live = new Set<Socket>();
  const started = performance.now();
  const timeLeft = () => SECONDS * 1000 - (performance.now() - started);
  const attack = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const socket = connect(mqttPort, '127.0.0.1');
      live.add(socket);
      connections++;
      let written = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      socket.on('error', () => undefined);
      socket.once('close', () => {
        live.delete(socket);
        maxWritten = Math.max(maxWritten, written);
        totalWritten += written;
        if (timeLeft() <= 0) return resolve();
        cuts++;
        setTimeout(() => void attack().then(resolve), 10);
      });
      // Written as fast as the server reads; then the socket stays open (no FIN: the server may hold it until its connect timeout).
      const pump = () => {
        while (!socket.destroyed && written < BYTES_PER_SOCKET) {
          written += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      socket.once('connect', () => {
        written = HUGE_CONNECT.length;
        socket.write(HUGE_CONNECT);
        pump();
      });
    });
  const ending = setTimeout(() => {
    for (const socket of live) socket.destroy();
  }, SECONDS * 1000);
  await Promise.all(Array.from({ length: SOCKETS }, attack));
  clearTimeout(ending);
  const floodSeconds = (performance.now() - started) / 1000;
  const pings = await lap('stop');
  await new Promise((r) => setTimeout(r, 2000));
  clearInterval(sampler);
  const after = await rss();

  const pct = (list: number[], p: number) => (list.length ? list[Math.min(list.length - 1, Math.floor(p * list.length))]!.toFixed(1) : '-');
  const figures = (list: number[]) => {
    list.sort((a, b) => a - b);
    return `${list.length} requests, p50 ${pct(list, 0.5)} ms, p99 ${pct(list, 0.99)} ms, max ${list.length ? list.at(-1)!.toFixed(1) : '-'} ms`;
  };
  console.log(
    `bench:mqtt-flood: ${SOCKETS} sockets, CONNECT announcing 256 MB, up to ${mb(BYTES_PER_SOCKET)} each, ${floodSeconds.toFixed(1)} s`,
  );
  console.log(`  server RSS: before ${mb(before)}, peak ${mb(peak)} (+${mb(peak - before)}), after ${mb(after)} (+${mb(after - before)})`);
  console.log(
    `  ${connections} connections, ${cuts} cut by the server before the end; written per connection: max ${(maxWritten / 1024).toFixed(0)} KB,` +
      ` total ${mb(totalWritten)}`,
  );
  console.log(`  /ping during the flood: ${figures(pings)}; before it, no flood: ${figures(quiet)}`);
  await stop(child);
}

function stop(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.send('stop');
    setTimeout(() => child.kill(), 10_000).unref();
  });
}
