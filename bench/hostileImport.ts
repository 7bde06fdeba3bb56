import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loginToken, startBenchServer } from './benchServer';
import { DEMO_ACCOUNTS } from '../server/db/demoAccounts';
import { xlsxOf } from '../tests/api/deviceFixtures';
import { bombXlsx, manyRowsXlsx } from '../tests/api/uploadFixtures';
import { sized } from './smoke';

/**
 * bench:hostile — uploads that cannot hurt the server (docs/api.md, "Uploads"). Starts the server (PGlite, in this
 * process, so that its RSS is this process's), logs in an enterprise user (level 2), then per
 * round sends three hostile .xlsx at once to deviceModule/device/import while /ping is called
 * every 20 ms, and prints: the process RSS before and at its peak (sampled every 5 ms, and the
 * kernel's high-water mark VmHWM, reset before each round), /ping p50/p99/max during the attack
 * (timed from when each ping was due, so a stalled event loop shows), the event loop's own delay,
 * and each answer's code, message and time. Rounds: a quiet second (no upload, the baseline), the
 * measured attack (one 400 MB cell in a ~400 KB file, sizes declared: refused from the zip's
 * directory), the same with the zip lying about its size (declares 1 MB: refused by the reading
 * thread when inflating passes 1 MB), and a 144 KB file of 1M rows. Prints figures; asserts nothing.
 * BENCH_SMOKE=1: the same files but 100,000 rows in the last, and a baseline of 0.2 s (bench/smoke.ts).
 */
const PING_EVERY_MS = 20;
const ROWS = sized(1_000_000, 100_000);
const MB = 1024 * 1024;
const USER = 'oceanic';

const rss = () => process.memoryUsage().rss;
/** The kernel's peak RSS of this process (VmHWM); writing 5 to clear_refs resets it (Linux). */
function resetHighWater(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
function highWater(): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
const ms = (n: number) => Math.round(n * 10) / 10;

interface Answer {
  code: number;
  msg: string;
  ms: number;
}

async function importFile(url: string, token: string, file: Buffer, name: string): Promise<Answer> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const started = performance.now();
  const res = await fetch(`${url}/deviceModule/device/import?token=${token}&lang=en`, { method: 'POST', body: form });
  const body = (await res.json()) as { code: number; msg: string };
  return { code: body.code, msg: body.msg, ms: ms(performance.now() - started) };
}

/** Calls /ping every PING_EVERY_MS (not waiting for answers) until stopped; latencies from when each was due. */
function pinger(url: string) {
  const latencies: number[] = [];
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  let n = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    const due = start + n * PING_EVERY_MS;
    n += 1;
    const p = fetch(`${url}/ping`)
      .then(
        async (res) => {
          const body = (await res.json()) as { code: number };
          if (body.code !== 0) failures.push(`code ${body.code}`);
          latencies.push(performance.now() - due);
        },
        (e: Error) => {
          failures.push(e.message);
        },
      )
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
    timer = setTimeout(tick, Math.max(0, start + n * PING_EVERY_MS - performance.now()));
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(inFlight);
      const sorted = [...latencies].sort((a, b) => a - b);
      return {
        pings: sorted.length,
        failures,
        p50: ms(percentile(sorted, 50)),
        p99: ms(percentile(sorted, 99)),
        max: ms(sorted.at(-1) ?? NaN),
      };
    },
  };
}

async function round(url: string, token: string, label: string, files: Buffer[], quietMs = 0) {
  const before = rss();
  const hwmReset = resetHighWater();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 5);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const pings = pinger(url);
  await new Promise((r) => setTimeout(r, 100));
  const started = performance.now();
  const answers = await Promise.all(files.map((file, i) => importFile(url, token, file, `hostile-${i + 1}.xlsx`)));
  if (quietMs) await new Promise((r) => setTimeout(r, quietMs));
  const attackMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 200));
  const ping = await pings.stop();
  loop.disable();
  clearInterval(sampler);
  peak = Math.max(peak, rss());
  const hwm = hwmReset ? highWater() : null;
  const top = Math.max(peak, hwm ?? 0);
  return {
    summary: {
      round: label,
      'file KB': files.map((f) => Math.round(f.length / 1024)).join(', ') || '-',
      'all answered ms': Math.round(attackMs),
      'RSS before MB': Math.round(before / MB),
      'peak RSS MB (sampled)': Math.round(peak / MB),
      'peak RSS MB (VmHWM)': hwm === null ? 'n/a' : Math.round(hwm / MB),
      'RSS growth MB': Math.round((top - before) / MB),
      pings: ping.pings,
      'ping p50 ms': ping.p50,
      'ping p99 ms': ping.p99,
      'ping max ms': ping.max,
      'loop delay p99 ms': ms(loop.percentile(99) / 1e6),
      'ping failures': ping.failures.length,
    },
    answers: answers.map((a, i) => ({ round: label, file: i + 1, code: a.code, ms: a.ms, msg: a.msg })),
  };
}

console.log('Making the hostile files ...');
const [honest, lying, rows] = await Promise.all([bombXlsx(400), bombXlsx(400, 'lying'), manyRowsXlsx(ROWS)]);
const valid = await xlsxOf(['Name'], [['warm-up']]);

const server = await startBenchServer('pglite');
try {
  const password = DEMO_ACCOUNTS.find((a) => a.name === USER)!.password;
  const token = await loginToken(server.url, USER, password);
  // Warm up: one ordinary (refused: rows incomplete) import through the reading thread, and pings.
  const warm = await importFile(server.url, token, valid, 'warm-up.xlsx');
  console.log(`warm-up import: code ${warm.code} in ${warm.ms} ms; server RSS ${Math.round(rss() / MB)} MB`);
  await new Promise((r) => setTimeout(r, 500));

  const results = [
    await round(server.url, token, `no upload (baseline, ${sized(1, 0.2)} s)`, [], sized(1000, 200)),
    await round(server.url, token, '3 x one 400 MB cell (sizes declared)', [honest, honest, honest]),
    await round(server.url, token, '3 x one 400 MB cell (declares 1 MB)', [lying, lying, lying]),
    await round(server.url, token, `3 x ${ROWS.toLocaleString('en')} rows`, [rows, rows, rows]),
  ];
  console.table(results.map((r) => r.summary));
  console.table(results.flatMap((r) => r.answers));
  const after = await fetch(`${server.url}/ping`).then((r) => r.json() as Promise<{ code: number }>);
  console.log(`after the attack: /ping code ${after.code}; RSS ${Math.round(rss() / MB)} MB`);
} finally {
  server.app.server.closeAllConnections();
  await server.stop();
}
