import { createHash } from 'node:crypto';
import { mulberry32 } from './prng';
import type { SimDevice } from './fleet';

export interface FirmwareAgentOptions {
  /** The API base, e.g. http://localhost:8080/cz/test */
  apiBase: string;
  devices: readonly SimDevice[];
  seed?: number;
  /** How often an idle device asks for an update (ms). */
  pollMs?: number;
  /** Pause between the steps of an update (download chunks, install), so a rollout can be watched (ms). */
  stepMs?: number;
  /** Share of updates that fail (decided by seed, device and rollout: the same run fails the same way). */
  failureRate?: number;
  /** Checks in flight at once. */
  concurrency?: number;
  onError?: (message: string) => void;
}

export interface FirmwareAgentStats {
  checks: number;
  updated: number;
  failed: number;
  bytes: number;
}

export interface RunningFirmwareAgent {
  stats: FirmwareAgentStats;
  /** Every idle device asks once now. */
  pollNow(): Promise<void>;
  /** Resolves when no update is in progress. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

interface Assignment {
  rolloutId: number;
  state: string;
  size?: number;
  sha256?: string;
  downloadPath?: string;
}

const sleep = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/** The same seed, device and rollout always give the same draw. */
function draw(seed: number, deviceNum: string, rolloutId: number): number {
  let h = seed ^ (rolloutId * 0x9e3779b1);
  for (const ch of deviceNum) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return mulberry32(h)();
}

/**
 * The simulated vessels' firmware side, through the real device API over HTTP: each idle vessel
 * asks whether there is an update; given one, it downloads the file (checking its SHA-256),
 * reports downloading with progress, downloaded, updating, then updated, or failed for the few
 * the seed picks (half of them fail the download, half the install).
 */
export function startFirmwareAgent(options: FirmwareAgentOptions): RunningFirmwareAgent {
  const seed = options.seed ?? 1;
  const pollMs = options.pollMs ?? 15_000;
  const stepMs = options.stepMs ?? 1_500;
  const failureRate = options.failureRate ?? 0.05;
  const concurrency = options.concurrency ?? 16;
  const stats: FirmwareAgentStats = { checks: 0, updated: 0, failed: 0, bytes: 0 };
  const busy = new Map<string, Promise<void>>();
  let stopped = false;
  let polling: Promise<void> = Promise.resolve();

  const headers = (d: SimDevice) => ({ 'x-device-num': d.deviceNum, 'x-device-secret': d.secret });
  const call = async <T>(d: SimDevice, path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${options.apiBase}${path}`, {
      ...init,
      headers: { ...headers(d), ...(init.headers as Record<string, string> | undefined) },
    });
    const body = (await res.json()) as { code: number; msg: string; data: T };
    if (body.code !== 0) throw new Error(`code ${body.code} ${body.msg}`);
    return body.data;
  };
  const report = (d: SimDevice, rolloutId: number, state: string, progress?: number, message?: string) =>
    call(d, '/deviceModule/firmware/device/report', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rolloutId, state, progress, message }),
    });

  async function download(d: SimDevice, a: Assignment, failAt: number | null) {
    const abort = new AbortController();
    const res = await fetch(`${options.apiBase}${a.downloadPath}`, { headers: headers(d), signal: abort.signal });
    if (!res.ok || !res.body) throw new Error(`download answered ${res.status}`);
    const hash = createHash('sha256');
    const size = a.size ?? Number(res.headers.get('content-length') ?? 0);
    let received = 0;
    let reported = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      hash.update(value);
      received += value.length;
      stats.bytes += value.length;
      const progress = size ? Math.floor((received / size) * 100) : 0;
      if (failAt !== null && progress >= failAt) {
        // The link drops: stop reading, close the connection, say so.
        abort.abort();
        await report(d, a.rolloutId, 'failed', progress, 'download interrupted (simulated)');
        return false;
      }
      if (progress - reported >= 25 && progress < 100) {
        reported = progress;
        await report(d, a.rolloutId, 'downloading', progress);
        await sleep(stepMs);
      }
    }
    if (hash.digest('hex') !== a.sha256) {
      await report(d, a.rolloutId, 'failed', 100, 'checksum mismatch');
      return false;
    }
    return true;
  }

  async function update(d: SimDevice, a: Assignment) {
    const r = draw(seed, d.deviceNum, a.rolloutId);
    const fails = r < failureRate;
    const failsDownload = fails && r < failureRate / 2;
    try {
      if (a.state === 'downloading') {
        await sleep(stepMs);
        if (!(await download(d, a, failsDownload ? 50 : null))) {
          stats.failed += 1;
          return;
        }
        await report(d, a.rolloutId, 'downloaded');
        await sleep(stepMs);
        a.state = 'downloaded';
      }
      if (a.state === 'downloaded') {
        await report(d, a.rolloutId, 'updating', 0);
        await sleep(stepMs);
        a.state = 'updating';
      }
      await report(d, a.rolloutId, 'updating', 60);
      await sleep(stepMs);
      if (fails) {
        await report(d, a.rolloutId, 'failed', 60, 'install verification failed (simulated)');
        stats.failed += 1;
        return;
      }
      await report(d, a.rolloutId, 'updated');
      stats.updated += 1;
    } catch (error) {
      options.onError?.(`${d.deviceNum} firmware: ${(error as Error).message}`);
    }
  }

  async function checkOne(d: SimDevice) {
    if (busy.has(d.deviceNum) || stopped) return;
    stats.checks += 1;
    try {
      const a = await call<Assignment | null>(d, '/deviceModule/firmware/device/check');
      if (!a || a.state === 'queued' || !a.downloadPath) return;
      const task = update(d, a).finally(() => busy.delete(d.deviceNum));
      busy.set(d.deviceNum, task);
    } catch (error) {
      options.onError?.(`${d.deviceNum} firmware check: ${(error as Error).message}`);
    }
  }

  const round = async () => {
    let next = 0;
    const list = options.devices;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, list.length) }, async () => {
        while (!stopped && next < list.length) await checkOne(list[next++]!);
      }),
    );
  };

  const timer = setInterval(() => {
    polling = polling.then(round);
  }, pollMs);
  timer.unref?.();

  return {
    stats,
    pollNow: () => (polling = polling.then(round)),
    async idle() {
      while (busy.size) await Promise.all([...busy.values()]);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await polling;
      while (busy.size) await Promise.all([...busy.values()]);
    },
  };
}
