import pg from 'pg';

/**
 * One leader among the replicas that share a database, for the work that must run once: the
 * offline sweep, report pruning, the demo simulator. On PostgreSQL the leader is the replica that
 * holds a session-level advisory lock on a connection of its own; when that replica dies its
 * connection closes, the lock is released, and another replica takes it at its next try. The
 * embedded PGlite belongs to one process, which is always the leader.
 */
export interface Leader {
  readonly isLeader: boolean;
  /** Called with true when this replica becomes the leader, false when it stops being one. */
  onChange(listener: (leader: boolean) => void): void;
  /** Gives the lead up (the lock is released with the connection). */
  stop(): Promise<void>;
}

/** The lock is per database and schema, so test servers in throw-away schemas do not compete. */
const TRY_LOCK = `SELECT pg_try_advisory_lock(hashtext(current_database() || '.' || current_schema() || '.fleet-leader')) AS locked`;

export function alwaysLeader(): Leader {
  return { isLeader: true, onChange: (listener) => listener(true), stop: async () => undefined };
}

export async function electLeader(databaseUrl: string, options: { retryMs?: number; onError?: (message: string) => void } = {}): Promise<Leader> {
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
  const later = () => {
    if (!stopped) timer = setTimeout(() => void attempt(), retryMs).unref();
  };
  async function attempt() {
    timer = null;
    try {
      if (!client) {
        const fresh = new pg.Client({ connectionString: databaseUrl });
        fresh.on('error', (error) => options.onError?.(`leader connection: ${error.message}`));
        fresh.on('end', () => {
          if (client === fresh) client = null;
          setLeader(false);
          later();
        });
        await fresh.connect();
        client = fresh;
      }
      const [row] = (await client.query<{ locked: boolean }>(TRY_LOCK)).rows;
      if (row?.locked) setLeader(true);
      else later();
    } catch (error) {
      options.onError?.(`leader election: ${(error as Error).message}`);
      const broken = client;
      client = null;
      await broken?.end().catch(() => undefined);
      later();
    }
  }
  await attempt();
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
      const closing = client;
      client = null;
      setLeader(false);
      await closing?.end().catch(() => undefined);
    },
  };
}
