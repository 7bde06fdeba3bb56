import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loginToken, postgresAvailable } from './benchServer';
import { arg, sized } from './smoke';

/**
 * bench:soak — a long run of a fleet and its consoles against one server: `--vessels` (10,000)
 * report once every 10 s each over HTTP (1,000 reports/s), and `--users` (200) console users poll
 * what an open console polls (the bell, a status monitor page, a device list page, the status
 * counts) every 10 s each. Every minute it prints the reports and console calls that failed, their
 * p99, and the server's memory (the server runs in a process of its own, bench/soakServer.ts); at
 * the end the memory slope (least squares over the minutes after the first). 30 minutes for the
 * record; `--minutes 3` for a short run; `--engine pglite|postgres` (both by default, PostgreSQL
 * when it answers); `--hour-at N` sets the reports' clock so that minute N's reports are the first
 * of a new hour (the work a new hour brings, measured in a short run). At the end, the whole run's
 * console percentiles and the calls that took 500 ms or more. Prints figures; asserts nothing. BENCH_SMOKE=1: PGlite, 200 vessels, 8 users,
 * 2 "minutes" of 3 s each (bench/smoke.ts).
 */
const MINUTES = Number(arg('minutes', sized('30', '2')));
const VESSELS = Number(arg('vessels', sized('10000', '200')));
const USERS = Number(arg('users', sized('200', '8')));
const ENGINE = arg('engine', sized('both', 'pglite'));
/** How long a "minute" of load lasts, in seconds: 60, but 3 in a smoke run. */
const MINUTE_S = sized(60, 3);
const SECRET = 'soak-device-secret';
const PASSWORD = 'soak123456';
const PREFIX = 'S';
const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

interface Figures {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  errors: number;
  refused: number;
  /** How many calls took 0-9 ms (step 0), 10-19 ms (step 1) and so on. */
  steps: Record<string, number>;
}

/** Sums call counts by 10 ms step into `into`. */
function addSteps(into: Map<number, number>, steps: Record<string, number>) {
  for (const [step, n] of Object.entries(steps)) into.set(Number(step), (into.get(Number(step)) ?? 0) + n);
  return into;
}

/** The time (ms, to the 10 ms step's upper end) within which a share `q` of the counted calls answered. */
function percentileMs(steps: Map<number, number>, q: number): number {
  const sorted = [...steps].sort(([a], [b]) => a - b);
  const total = sorted.reduce((a, [, n]) => a + n, 0);
  let seen = 0;
  for (const [step, n] of sorted) if ((seen += n) >= q * total) return (step + 1) * 10;
  return 0;
}

/** Calls that took `ms` or longer. */
const callsOver = (steps: Map<number, number>, ms: number) => [...steps].reduce((a, [step, n]) => a + (step * 10 >= ms ? n : 0), 0);

/** One JSON line from a child's stdout for each request written to it. */
function lines(child: ChildProcessByStdio<Writable, Readable, null>) {
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('{')) waiting.shift()?.(line);
  });
  return () => new Promise<string>((resolve) => waiting.push(resolve));
}

function load(options: Record<string, unknown>): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [here('./ingestLoad.ts'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`load exited ${code}`)),
    );
  });
}

/** Least-squares slope of y over x. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx ? sxy / sxx : 0;
}

async function run(engine: 'pglite' | 'postgres') {
  const child = spawn(
    TSX,
    [
      here('./soakServer.ts'),
      JSON.stringify({ engine, vessels: VESSELS, users: USERS, prefix: PREFIX, secret: SECRET, password: PASSWORD }),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const next = lines(child);
  const { url, users } = JSON.parse(await next()) as { url: string; users: string[] };
  const tokens: string[] = [];
  for (const name of users) tokens.push(await loginToken(url, name, PASSWORD));
  const memory = async () => {
    child.stdin.write('mem\n');
    return JSON.parse(await next()) as { rss: number; heapUsed: number };
  };
  const tables = async () => {
    child.stdin.write('db\n');
    return (JSON.parse(await next()) as { tables: { table: string; live: number; dead: number; mb: number }[] }).tables;
  };
  const mb = (bytes: number) => Math.round(bytes / 1048576);
  const rows: Record<string, string | number>[] = [];
  const rss: [number, number][] = [];
  const started = Date.now();
  // The reports' clock: an hour behind, or (--hour-at N) set so that minute N's reports are the first of a new hour.
  const HOUR_AT = Number(arg('hour-at', '0'));
  const clock = HOUR_AT ? Math.floor(started / 3_600_000) * 3_600_000 - (HOUR_AT - 1) * MINUTE_S * 1000 : started - 3_600_000;
  let errors = 0;
  const consoleSteps = new Map<number, number>();
  console.log(
    `\nbench:soak on ${engine}: ${VESSELS.toLocaleString('en')} vessels every 10 s, ${users.length} console users every 10 s, ${MINUTES} min`,
  );
  for (let minute = 1; minute <= MINUTES; minute++) {
    const [ingest, consoles] = await Promise.all([
      load({
        mode: 'single',
        apiBase: url,
        seconds: MINUTE_S,
        connections: 64,
        devices: VESSELS,
        numPrefix: PREFIX,
        secret: SECRET,
        rate: VESSELS / 10,
        from: clock + (minute - 1) * MINUTE_S * 1000,
      }),
      load({
        mode: 'console',
        apiBase: url,
        seconds: MINUTE_S,
        connections: 32,
        devices: VESSELS,
        numPrefix: PREFIX,
        secret: SECRET,
        rate: (users.length / 10) * 4,
        tokens,
      }),
    ]);
    addSteps(consoleSteps, consoles.steps);
    const m = await memory();
    const failed = ingest.errors + ingest.refused + consoles.errors + consoles.refused;
    errors += failed;
    if (minute > 1) rss.push([minute, m.rss / 1048576]);
    const row = {
      minute,
      'reports/s': Math.round(ingest.rps),
      'ingest p99 ms': ingest.p99,
      'console calls/s': Math.round(consoles.rps),
      'console p99 ms': consoles.p99,
      'console ≥500 ms': callsOver(addSteps(new Map(), consoles.steps), 500),
      failed,
      'rss MB': mb(m.rss),
      'heap MB': mb(m.heapUsed),
      at: new Date().toISOString().slice(11, 19),
    };
    rows.push(row);
    console.log(JSON.stringify(row));
    // The tables with the most dead rows (updated in place, never vacuumed on the embedded database).
    console.log(`  dead rows: ${(await tables()).map((t) => `${t.table} ${t.live}/${t.dead} ${t.mb} MB`).join(', ')}`);
  }
  child.stdin.write('stop\n');
  await new Promise((resolve) => child.on('exit', resolve));
  console.table(rows);
  const calls = [...consoleSteps.values()].reduce((a, n) => a + n, 0);
  console.log(
    `${engine}: ${errors} failed calls in ${MINUTES} min; server memory slope ${slope(rss).toFixed(2)} MB/min (minutes 2-${MINUTES}, RSS)`,
  );
  console.log(
    `${engine}: the whole run's ${calls.toLocaleString('en')} console calls: p50 ${percentileMs(consoleSteps, 0.5)} ms, p99 ${percentileMs(consoleSteps, 0.99)} ms, ` +
      `p99.9 ${percentileMs(consoleSteps, 0.999)} ms (to 10 ms), ${callsOver(consoleSteps, 500)} took 500 ms or more`,
  );
}

const engines: ('pglite' | 'postgres')[] = [];
if (ENGINE !== 'postgres') engines.push('pglite');
if (ENGINE !== 'pglite' && (await postgresAvailable())) engines.push('postgres');
for (const engine of engines) await run(engine);
