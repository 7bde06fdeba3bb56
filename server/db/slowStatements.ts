/** A statement, or a transaction, that held the embedded database `ms` milliseconds or longer (DB_SLOW_MS). */
export interface SlowStatement {
  ms: number;
  /** Its text, spaces collapsed, cut at 300 characters; a transaction's, the start of each of its statements. Never its parameters. */
  sql: string;
  /** A whole transaction (each of its slow statements is told on its own too). */
  transaction: boolean;
}

/** A statement's text as the log tells it: spaces collapsed, cut at `length` characters. */
export const sqlStart = (sql: string, length: number) => sql.replace(/\s+/g, ' ').trim().slice(0, length);

/**
 * Times how long each piece of work held the database (its wait for its turn left out) and tells
 * `onSlow` of those that took `slowMs` or longer (docs/architecture.md, "Server"). Off (no timing)
 * when `slowMs` is 0 or nobody listens.
 */
export function slowStatementLog(slowMs = 0, onSlow?: (slow: SlowStatement) => void) {
  return async function held<T>(what: () => Omit<SlowStatement, 'ms'>, fn: () => Promise<T>): Promise<T> {
    if (!slowMs || !onSlow) return fn();
    const start = performance.now();
    try {
      return await fn();
    } finally {
      const ms = Math.round(performance.now() - start);
      if (ms >= slowMs) onSlow({ ms, ...what() });
    }
  };
}
