import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';

/**
 * Who waits on a statement. The embedded database runs one statement (or transaction) at a time;
 * a console call waiting behind the ingest's transactions and the leader's jobs is what made the
 * console slow under load (docs/architecture.md, "Soak"). Work nobody is looking at (the ingest's
 * group commits, the leader's jobs, the notifier) runs `inBackground`; everything else counts as
 * a console call and goes first.
 */
const background = new AsyncLocalStorage<true>();

/** Runs `fn` with its statements queued behind the console's, whatever timers or promises it starts. */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return background.run(true, fn);
}

export const isBackground = (): boolean => background.getStore() === true;

/**
 * Background work waits at most this long while console calls go first: past it, it goes next,
 * so a console busy without pause cannot hold the reports back for ever.
 */
export const BACKGROUND_MAX_WAIT_MS = 1_000;

interface Waiting {
  start(): void;
  since: number;
}

/**
 * One statement or transaction at a time, console calls first: each `run(fn)` starts when nothing
 * else runs and no console call (for background work) waits before it. Order within each queue is
 * the order of arrival.
 */
export function priorityGate(now: () => number = performance.now.bind(performance)) {
  const front: Waiting[] = [];
  const back: Waiting[] = [];
  let busy = false;
  const next = () => {
    const aged = back.length > 0 && now() - back[0]!.since >= BACKGROUND_MAX_WAIT_MS;
    const item = (aged ? back.shift() : front.shift()) ?? back.shift();
    item?.start();
  };
  return {
    run<T>(fn: () => Promise<T>): Promise<T> {
      const queue = isBackground() ? back : front;
      return new Promise<T>((resolve, reject) => {
        // Started later by whichever statement ends before it: in its own caller's context, not that one's.
        const start = AsyncResource.bind(() => {
          busy = true;
          Promise.resolve()
            .then(fn)
            .then(resolve, reject)
            .finally(() => {
              busy = false;
              next();
            });
        });
        if (!busy && !front.length && !back.length) start();
        else queue.push({ start, since: now() });
      });
    },
    waiting: () => ({ console: front.length, background: back.length }),
  };
}
