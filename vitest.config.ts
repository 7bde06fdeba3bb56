import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Seven projects: server (API through app.inject, on PGlite and on PostgreSQL when it answers),
 * console (unit and component tests in jsdom), e2e (headless Chromium against the real server),
 * smoke (a fresh copy of the repository started with the README's command), faults (the server
 * killed with SIGKILL mid-work and started again on the same data, on PGlite and PostgreSQL),
 * extending (integrators' entities added from one definition file each, with their own tables and
 * server routes, driven through the real providers against the real server, on PGlite and PostgreSQL), bench (every bench script once in its smoke mode, BENCH_SMOKE=1:
 * it still runs and prints figures; the figures are not checked; `npm test` runs it after the others, not beside them).
 */
export default defineConfig({
  plugins: [react()],
  test: {
    // Two test files at a time on any machine (vitest's default is one per core less one: a single
    // file at a time on a 2-core machine, which left a core idle while a test waited). The browser
    // files run two at a time in a group of their own after those; the smoke and fault files one
    // at a time, last (fileParallelism: false).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          // The demo's month of history stays out of tests that count rows (tests/api/demoSeed.test.ts turns it on).
          // Every test server's embedded MQTT broker takes a free port (MQTT_PORT=0): servers in parallel never collide.
          env: { SEED_STORY: '0', MQTT_PORT: '0' },
          environment: 'node',
          include: ['tests/api/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          globalSetup: ['tests/api/globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'console',
          environment: 'jsdom',
          include: ['tests/component/**/*.test.{ts,tsx}', 'tests/console/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/component/setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        // The extension point src/resources/extensions.ts is pointed at the test's fixture entity.
        resolve: {
          alias: [
            {
              find: /^(\.\/|(\.\.\/)+src\/resources\/)extensions$/,
              replacement: fileURLToPath(new URL('./tests/fixtures/extension/index.ts', import.meta.url)),
            },
          ],
        },
        test: {
          name: 'extending',
          // The demo's month of history stays out of tests that count rows (tests/api/demoSeed.test.ts turns it on).
          // Every test server's embedded MQTT broker takes a free port (MQTT_PORT=0): servers in parallel never collide.
          env: { SEED_STORY: '0', MQTT_PORT: '0' },
          environment: 'node',
          include: ['tests/extending/**/*.test.ts'],
          // On PGlite, and on PostgreSQL when one answers.
          globalSetup: ['tests/api/globalSetup.ts'],
          testTimeout: 60_000,
          // A server's close (and its PostgreSQL schema dropped) once passed 60 s in a full local run with every suite at once.
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          // The demo's month of history stays out of tests that count rows (tests/api/demoSeed.test.ts turns it on).
          // Every test server's embedded MQTT broker takes a free port (MQTT_PORT=0): servers in parallel never collide.
          env: { SEED_STORY: '0', MQTT_PORT: '0' },
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/globalSetup.ts'],
          // Two browser files at a time, in a group of their own after the server, console and
          // extending files (beside those, the walk's waits once timed out). One file alone left
          // about half the machine idle: two at once took the browser files from about 24 minutes
          // to 12 on a 2-core machine, the walk (the longest) from 460 s to 572 s.
          sequence: { groupOrder: 1 },
          // A browser test that fails gets one more try: on a 2-core machine running two browser files
          // and their servers at once, a wait on the page occasionally misses (one test in a different
          // file in each of the last four full runs, each passing alone). A real fault fails both tries.
          retry: 1,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'smoke',
          environment: 'node',
          include: ['tests/smoke/**/*.test.ts'],
          // Alone too: it times a stop (SIGTERM to exit within 5 s) on a fresh copy it installs and starts.
          fileParallelism: false,
          testTimeout: 900_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'bench',
          // Bench servers start without the demo's month of history (bench/smoke.ts) and with their MQTT broker on a free port.
          env: { SEED_STORY: '0', MQTT_PORT: '0' },
          environment: 'node',
          include: ['tests/bench/**/*.test.ts'],
          // Two benches at a time (tests/bench/smoke.test.ts runs them concurrently).
          maxConcurrency: 2,
          // The console build of the e2e project's set-up, made once per run for both projects (tests/e2e/browser.ts).
          globalSetup: ['tests/e2e/globalSetup.ts'],
          testTimeout: 300_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'faults',
          // The demo's month of history stays out of tests that count rows (tests/api/demoSeed.test.ts turns it on).
          // Every test server's embedded MQTT broker takes a free port (MQTT_PORT=0): servers in parallel never collide.
          env: { SEED_STORY: '0', MQTT_PORT: '0' },
          environment: 'node',
          include: ['tests/faults/**/*.test.ts'],
          globalSetup: ['tests/api/globalSetup.ts'],
          // Alone, after the files that run two at a time: its kills aim at moments (a message
          // unanswered, a lease held) that another file's load on a 2-core machine made it miss.
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
