import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skipBrowserTests } from '../e2e/browser';

/**
 * Every `bench:*` script of package.json once in its smoke mode (BENCH_SMOKE=1, bench/smoke.ts), so
 * that the benches, which no CI job runs in full, do not rot: each bench runs in a process of its
 * own, two at a time, and must end with code 0 and print its figures. The figures themselves
 * are never checked. The browser benches use the console the global set-up built
 * (tests/e2e/globalSetup.ts, shared with the e2e project: one build per run).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
/** Longest a smoke run may take: each takes seconds to a minute on a busy 2-core machine. */
const LIMIT_MS = 240_000;

/** A line each bench prints only with its figures (a bench not listed here must print at least a number). */
const FIGURES: Record<string, RegExp> = {
  'bench:api': /bench:api —[\s\S]*req\/s/,
  'bench:devices': /getAll\s+p50\s+p99[\s\S]*Excel import of [\d,]+ rows/,
  'bench:bundle': /bench:bundle —[\s\S]*js gzip KB/,
  'bench:ingest': /bench:ingest —[\s\S]*reports\/s/,
  'bench:mqtt': /bench:mqtt —[\s\S]*reports\/s/,
  'bench:mqtt-flood': /server RSS: before/,
  'bench:firmware': /peak RSS MB/,
  'bench:hostile': /ping p99 ms[\s\S]*after the attack/,
  'bench:map': /canvas \+ Supercluster layer\s+[\d.]+ ms/,
  'bench:track': /request -> drawn p50\s+\d+ ms/,
  'bench:stats': /fleet statistics, 5 days.*\d ms/,
  'bench:soak': /failed calls in/,
  'bench:statements': /bench:statements —[\s\S]*query\(\) [\d.]+ ms, prepared [\d.]+ ms/,
  'bench:satlink': /log in -> dashboard map drawn/,
  'bench:push': /push \(SSE\)\s+[\d.]+ s[\s\S]*bytes\/event/,
  'bench:notify': /bench:notify —[\s\S]*fault -> webhook received p50 \/ p99.*\d+ ms/,
  'bench:rule-checks': /bench:rule-checks —[\s\S]*offline \+ weak-signal rules.*\d+/,
  'bench:backup': /bench:backup —[\s\S]*\/ready during the backup\s+p50 \d+[\s\S]*restore, checked\s+[\d.]+ s/,
  'bench:coverage': /bench:coverage —[\s\S]*world zoom, 90 days, all satellites\s+p50\s+\d+ ms[\s\S]*KB gzip[\s\S]*request -> drawn \d+ ms/,
  'bench:predict': /bench:predict —[\s\S]*recall (?:[\d.]+|n\/a) of all[\s\S]*precision (?:[\d.]+|n\/a)[\s\S]*for 10,000 vessels/,
  'bench:reports': /bench:reports — figures[\s\S]*report 2 d, \d+ vessels: build once\s+[\d.]+ s/,
};
/** The benches that drive headless Chromium (skipped with the browser tests on a machine without it). */
const BROWSER = new Set(['bench:bundle', 'bench:map', 'bench:track', 'bench:satlink', 'bench:push', 'bench:coverage']);

/** The bench scripts and the file each runs with tsx (`npm run build && tsx bench/x.ts`: the build is the global set-up's). */
const scripts = Object.entries((JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts)
  .filter(([name]) => name.startsWith('bench:'))
  .map(([name, command]) => ({ name, file: /\btsx (bench\/\S+\.ts)/.exec(command)?.[1] }));

interface Run {
  code: number | null;
  signal: string | null;
  out: string;
  err: string;
  ms: number;
}

/** Runs one bench in smoke mode, in a process group of its own (killed whole past LIMIT_MS). */
function runBench(file: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(TSX, [file], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SMOKE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => {
      err += `\n(killed after ${LIMIT_MS / 1000} s)`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err, ms: Date.now() - started });
    });
  });
}

const tail = (text: string) => text.slice(-3000);

// Two benches at a time (the bench project's maxConcurrency): most of a smoke run is a process
// starting and a server waiting for its load, which left a core idle one at a time.
describe.concurrent('every bench runs in its smoke mode (BENCH_SMOKE=1)', () => {
  it('package.json has bench scripts, each running a bench/ file with tsx', () => {
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => !s.file).map((s) => s.name)).toEqual([]);
  });

  for (const { name, file } of scripts) {
    it.skipIf(!file || (BROWSER.has(name) && skipBrowserTests))(
      `${name} (${file})`,
      async ({ expect }) => {
        const run = await runBench(file!);
        console.log(`${name}: smoke run in ${(run.ms / 1000).toFixed(1)} s, exit ${run.code ?? run.signal}`);
        const report = `${name} exited ${run.code ?? run.signal}\n--- stdout (end)\n${tail(run.out)}\n--- stderr (end)\n${tail(run.err)}`;
        expect(run.code, report).toBe(0);
        expect(run.out, `${name} printed no figures\n${report}`).toMatch(FIGURES[name] ?? /\d/);
      },
      LIMIT_MS + 30_000,
    );
  }
});
