import { parse, protocol, type PGlite } from '@electric-sql/pglite';

const { serialize } = protocol;

/** How many statement texts stay prepared on the embedded database; past that the least recently used is closed. */
export const PREPARED_STATEMENTS = 300;

/** A prepared statement whose table changed shape since (a column added): PostgreSQL refuses to run it. */
const isStale = (error: unknown) =>
  (error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test((error as Error).message);

const joined = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

/** Each set of statements names its own (`p1_s1`...), so two on one database never collide. */
let sets = 0;

interface Prepared {
  name: string;
  /** The parameters' type ids, to write each value as PostgreSQL reads it. */
  types: number[];
}

/**
 * Statements on the embedded database, each text prepared once under a name
 * (docs/architecture.md, "Prepared statements"). PGlite's own query() parses, analyses and plans
 * every statement afresh, in five exchanges with the database: for the console's larger queries
 * that work was most of their cost. Here a text the server sent before is bound and run in one
 * exchange, and PostgreSQL keeps its plan when a generic plan is as good as a fresh one
 * (plan_cache_mode auto). Statements are not transactional: one prepared in a transaction that
 * rolls back stays prepared. Rows come back as PGlite's query() gives them.
 */
export function preparedStatements(lite: PGlite, limit = PREPARED_STATEMENTS) {
  /** By text, least recently used first. */
  const named = new Map<string, Prepared>();
  const prefix = `p${++sets}_s`;
  let counter = 0;

  async function prepare(sql: string, syncToFs: boolean): Promise<Prepared> {
    const name = `${prefix}${++counter}`;
    const { messages } = await lite.execProtocol(
      joined([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs },
    );
    const prepared = { name, types: parse.parseDescribeStatementResults(messages) };
    named.set(sql, prepared);
    if (named.size > limit) {
      const [oldest, old] = named.entries().next().value!;
      named.delete(oldest);
      await close(old, syncToFs);
    }
    return prepared;
  }

  async function run(prepared: Prepared, params: readonly unknown[], syncToFs: boolean) {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const write = lite.serializers[prepared.types[i]!];
      return write ? write(value) : String(value);
    });
    const { messages } = await lite.execProtocol(
      joined([
        serialize.bind({ statement: prepared.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs },
    );
    return (parse.parseResults(messages, lite.parsers)[0]?.rows ?? []) as Record<string, unknown>[];
  }

  async function close(prepared: Prepared, syncToFs: boolean) {
    await lite.execProtocol(joined([serialize.close({ type: 'S', name: prepared.name }), serialize.sync()]), { syncToFs });
  }

  async function attempt(sql: string, params: readonly unknown[], inTransaction: boolean) {
    const syncToFs = !inTransaction;
    const known = named.get(sql);
    if (!known) return run(await prepare(sql, syncToFs), params, syncToFs);
    named.delete(sql);
    named.set(sql, known);
    try {
      return await run(known, params, syncToFs);
    } catch (error) {
      if (!isStale(error)) throw error;
      // Closed and prepared again from its text; in a transaction the error has ended it, so only closed.
      named.delete(sql);
      await close(known, syncToFs);
      if (inTransaction) throw error;
      return run(await prepare(sql, syncToFs), params, syncToFs);
    }
  }

  /**
   * Runs one statement. `inTransaction`: a transaction is open (its statements are written to the
   * folder when it commits, not one by one). Its exchanges hold PGlite's query lock, as its own
   * query() does (inside a transaction too): nothing else runs between them, and a close waits.
   */
  return function query(sql: string, params: readonly unknown[], inTransaction: boolean) {
    return lite.runExclusive(async () => {
      if (lite.closed) throw new Error('The embedded database is closed');
      try {
        return await attempt(sql, params, inTransaction);
      } catch (error) {
        // As PGlite's query() does: the statement goes with its error into the log.
        if (error instanceof Error) Object.assign(error, { query: sql });
        throw error;
      }
    });
  };
}
