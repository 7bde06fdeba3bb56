import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { priorityGate } from './priority';
import { slowStatementLog, sqlStart, type SlowStatement } from './slowStatements';
import { startLiteLocal, startLiteThread, type LiteThread } from './pgliteThread';

/** Plain parameterised SQL ($1, $2...) on either engine; never string-built SQL. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * LISTEN: calls `handler` with the payload of every NOTIFY on `channel`, from any connection of
   * any server on the same database. A notification this server's own statement caused is handled
   * before that statement's query() or transaction() resolves. `handler(null)` means notifications
   * may have been missed (the listening connection dropped or came back): forget what they guard.
   * Resolves to the unsubscribe.
   */
  listen(channel: string, handler: NotifyHandler): Promise<() => Promise<void>>;
  /** NOTIFY `channel` with `payload` (delivered when the surrounding transaction, if any, commits). */
  notify(channel: string, payload: string): Promise<void>;
  /** The connection pool's state (PostgreSQL; PGlite is one connection and has no pool): metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * PGlite: the data folder as a tarball, uncompressed (a backup, server/ops/backup). Inside transaction()
   * no other statement runs meanwhile, so the tarball and what the transaction read agree.
   */
  dumpDataDir?(): Promise<Blob>;
  /**
   * PGlite on disk: its data folder. A backup copies it while the server goes on (server/ops/backup/onlineCopy.ts)
   * instead of dumpDataDir, which holds the whole folder in memory twice over.
   */
  dataFolder?: string;
  close(): Promise<void>;
}

export type NotifyHandler = (payload: string | null) => void;

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
function checkChannel(channel: string): string {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Bad notification channel name: ${channel}`);
  return channel;
}

/** The handlers of each channel; `emit(null)` tells all of them that notifications may have been lost. */
function notifyHub() {
  const handlers = new Map<string, Set<NotifyHandler>>();
  return {
    handlers,
    add(channel: string, handler: NotifyHandler) {
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set);
      set.add(handler);
      return set.size === 1;
    },
    remove(channel: string, handler: NotifyHandler) {
      const set = handlers.get(channel);
      set?.delete(handler);
      if (set && !set.size) handlers.delete(channel);
      return !handlers.has(channel);
    },
    emit(channel: string, payload: string | null) {
      for (const handler of handlers.get(channel) ?? []) handler(payload);
    },
    lost() {
      for (const [channel] of handlers) this.emit(channel, null);
    },
  };
}

/**
 * PostgreSQL at `databaseUrl`, else PGlite in `dataDir` ('memory://': in memory). `loadDataDir`:
 * an in-memory PGlite starts from this dump of a data folder (dumpDataDir) instead of an empty
 * one; the tests start their servers from one migrated database (tests/api/globalSetup.ts).
 */
export interface DbOptions {
  databaseUrl: string;
  dataDir: string;
  loadDataDir?: Blob;
  /** The embedded database: tell `onSlow` of each statement or transaction that holds it this long (0: none). */
  slowMs?: number;
  onSlow?: (slow: SlowStatement) => void;
}

export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options);
}

/** Creates the embedded database's folder and its parents; a folder that cannot be made stops the start with one clear line. */
function ensureDataDir(dataDir: string): string {
  const dir = resolve(dataDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new Error(
      `Cannot create the data folder ${dir} (DATA_DIR): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return dir;
}

async function openPglite({ dataDir, loadDataDir, slowMs, onSlow }: DbOptions): Promise<Db> {
  const folder = dataDir === 'memory://' ? undefined : ensureDataDir(dataDir);
  // In a folder (the product), on a thread of its own: the event loop serves HTTP and MQTT while a
  // statement runs. In memory (the tests' servers), in this thread.
  const lite = folder === undefined ? await startLiteLocal({ loadDataDir }) : await startLiteThread({ folder });
  // Console calls before the ingest and the leader's jobs (server/db/priority.ts).
  const gate = priorityGate();
  // How long each statement held the database, its wait for the gate left out (DB_SLOW_MS).
  const held = slowStatementLog(slowMs, onSlow);
  const statement = (sql: string) => () => ({ sql: sqlStart(sql, 300), transaction: false });
  const ask = <T>(request: Parameters<LiteThread['request']>[0]) =>
    gate.run(() => held(statement('sql' in request ? request.sql : request.op), () => lite.request<T>(request)));
  const hub = notifyHub();
  lite.onNotify((channel, payload) => hub.emit(channel, payload));
  return {
    engine: 'pglite',
    query: <T>(sql: string, params: unknown[] = []) => ask<T[]>({ op: 'query', sql, params }),
    async exec(sql) {
      await ask({ op: 'exec', sql });
    },
    transaction(fn) {
      const texts: string[] = [];
      const whole = () => ({ sql: sqlStart(texts.join('; '), 300), transaction: true });
      return gate.run(() =>
        held(whole, async () => {
          await lite.request({ op: 'begin' });
          let result;
          try {
            result = await fn({
              query: <T>(sql: string, params: unknown[] = []) => {
                if (slowMs) texts.push(sqlStart(sql, 60));
                return held(statement(sql), () => lite.request<T[]>({ op: 'query', sql, params }));
              },
            });
          } catch (error) {
            await lite.request({ op: 'end', commit: false }).catch(() => undefined);
            throw error;
          }
          await lite.request({ op: 'end', commit: true });
          return result;
        }),
      );
    },
    async listen(channel, handler) {
      if (hub.add(checkChannel(channel), handler)) await ask({ op: 'listen', channel });
      return async () => {
        if (hub.remove(channel, handler) && !lite.closed) await ask({ op: 'unlisten', channel });
      };
    },
    async notify(channel, payload) {
      await ask({ op: 'query', sql: 'SELECT pg_notify($1, $2)', params: [checkChannel(channel), payload] });
    },
    // Not through the gate: it is called inside transaction(), which holds it.
    dumpDataDir: () => lite.request<Blob>({ op: 'dump' }),
    ...(folder === undefined ? {} : { dataFolder: folder }),
    close: () => lite.terminate(),
  };
}

/**
 * Statements with parameters run as named prepared statements, so PostgreSQL parses and plans
 * each distinct SQL text once per connection instead of on every call.
 */
const statementName = (sql: string) => `s_${createHash('sha1').update(sql).digest('base64url').slice(0, 20)}`;
const prepared = (sql: string, values: unknown[]) =>
  values.length ? { name: statementName(sql), text: sql, values } : { text: sql, values };

/**
 * Notifications reach a server on two paths. A dedicated connection LISTENs for the other servers'
 * (reconnecting after a drop, and telling the handlers that some may have been lost). Every pool
 * connection LISTENs too, so that PostgreSQL sends a statement's own notifications on the same
 * connection before its ReadyForQuery: a change this server makes is handled before the call that
 * made it resolves, with no window in which this server still acts on the old state.
 */
function openPostgres(connectionString: string): Db {
  const pool = new pg.Pool({ connectionString, max: 10 });
  const hub = notifyHub();
  const onNotification = (msg: pg.Notification) => hub.emit(msg.channel, msg.payload ?? '');
  /** The channels each pool connection LISTENs on already. */
  const listening = new WeakMap<pg.PoolClient, Set<string>>();
  async function ensureListening(client: pg.PoolClient) {
    if (!hub.handlers.size) return;
    let channels = listening.get(client);
    if (!channels) {
      channels = new Set();
      listening.set(client, channels);
      client.on('notification', onNotification);
    }
    for (const channel of hub.handlers.keys()) {
      if (channels.has(channel)) continue;
      await client.query(`LISTEN ${channel}`);
      channels.add(channel);
    }
  }
  async function withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await ensureListening(client);
      const result = await fn(client);
      client.release();
      return result;
    } catch (error) {
      // As pool.query does: a connection whose statement failed is not reused.
      client.release(error as Error);
      throw error;
    }
  }

  let listener: pg.Client | null = null;
  let closing = false;
  let retry: NodeJS.Timeout | null = null;
  async function connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString });
    client.on('notification', onNotification);
    const dropped = () => {
      if (listener !== client) return;
      listener = null;
      client.end().catch(() => undefined);
      hub.lost();
      if (!closing && hub.handlers.size)
        retry = setTimeout(() => {
          retry = null;
          connectListener().catch(() => undefined);
        }, 1000);
      retry?.unref();
    };
    client.on('error', dropped);
    client.on('end', dropped);
    try {
      await client.connect();
      for (const channel of hub.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      listener = client;
      dropped();
      throw error;
    }
    listener = client;
    hub.lost(); // whatever happened while no one listened
  }

  return {
    engine: 'postgres',
    async query<T>(sql: string, params: unknown[] = []) {
      if (!hub.handlers.size) return (await pool.query(prepared(sql, params))).rows as T[];
      return withClient(async (client) => (await client.query(prepared(sql, params))).rows as T[]);
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await ensureListening(client);
        await client.query('BEGIN');
        const result = await fn({
          query: async <T>(sql: string, params: unknown[] = []) => (await client.query(prepared(sql, params))).rows as T[],
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, handler) {
      checkChannel(channel);
      const first = hub.add(channel, handler);
      if (first) {
        if (listener) await listener.query(`LISTEN ${channel}`);
        else if (!retry) await connectListener();
      }
      return async () => {
        const last = hub.remove(channel, handler);
        if (last && listener) await listener.query(`UNLISTEN ${channel}`).catch(() => undefined);
      };
    },
    async notify(channel, payload) {
      await this.query('SELECT pg_notify($1, $2)', [checkChannel(channel), payload]);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      closing = true;
      if (retry) clearTimeout(retry);
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
