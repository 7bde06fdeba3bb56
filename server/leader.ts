import pg from 'pg';
import { pingLeaderConnection, tryLeaderLock } from './leaderQueries';

/**
 * One leader among the replicas that share a database, for the work that must run once: the
 * offline sweep, report pruning, the demo simulator. On PostgreSQL the leader is the replica that
 * holds a session-level advisory lock on a connection of its own; when that replica dies its
 * connection closes, the lock is released, and another replica takes it at its next try. The
 * leader checks its connection every `retryMs` (with TCP keep-alive) and steps down as soon as it
 * fails, since PostgreSQL will have released the lock with the session. The embedded PGlite
 * belongs to one process, which is always the leader.
 */
export interface Leader {
  readonly isLeader: boolean;
  /** Called with true when this replica becomes the leader, false when it stops being one. */
  onChange(listener: (leader: boolean) => void): void;
  /** Gives the lead up (the lock is released with the connection). */
  stop(): Promise<void>;
}

export function alwaysLeader(): Leader {
  return { isLeader: true, onChange: (listener) => listener(true), stop: async () => undefined };
}

export async function electLeader(
  databaseUrl: string,
  options: { retryMs?: number; onError?: (message: string) => void } = {},
): Promise<Leader> {
  if (!databaseUrl) return alwaysLeader();
  const retryMs = options.retryMs ?? 5_000;
  const listeners: ((leader: boolean) => void)[] = [];
  let leader = false;
  let stopped = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;

  const setLeader = (value: boolean) => {
    if (value === leader) return;
    leader = value;
    for (const listener of listeners) listener(value);
  };
  /** The one place a next step is scheduled: at most one pending, none after stop(). */
  const schedule = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void step();
    }, retryMs);
    timer.unref();
  };
  /** Drops the connection (and with it the lock and the lead). */
  const drop = async () => {
    const old = client;
    client = null;
    setLeader(false);
    await old?.end().catch(() => undefined);
  };
  /** Not leading: connect if needed and try the lock. Leading: check the connection still answers. */
  async function step() {
    if (stopped) return;
    try {
      if (!client) {
        const fresh = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
        fresh.on('error', (error) => options.onError?.(`leader connection: ${error.message}`));
        fresh.on('end', () => {
          if (client !== fresh) return; // an old or failed connection: already dropped
          client = null;
          setLeader(false);
          schedule();
        });
        await fresh.connect();
        if (stopped) return void (await fresh.end().catch(() => undefined));
        client = fresh;
      }
      if (leader) await pingLeaderConnection(client);
      else if (await tryLeaderLock(client)) setLeader(true);
    } catch (error) {
      options.onError?.(`leader election: ${(error as Error).message}`);
      await drop();
    }
    schedule();
  }
  await step();
  return {
    get isLeader() {
      return leader;
    },
    onChange(listener) {
      listeners.push(listener);
      if (leader) listener(true);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await drop();
    },
  };
}
