import type { Db, Queryable } from '../../db/connection';
import { DEFAULT_CONSOLE_SETTINGS, isSize, type ConsoleSettings } from '../../../src/domain/systemSettings';

export async function readConsoleSettings(db: Queryable): Promise<ConsoleSettings> {
  const rows = await db.query<{ key: string; value: string }>('SELECT key, value FROM console_settings');
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  const seconds = Number(stored.warnRefreshSeconds);
  return {
    warnRefreshSeconds: Number.isInteger(seconds) && seconds > 0 ? seconds : DEFAULT_CONSOLE_SETTINGS.warnRefreshSeconds,
    defaultSize: isSize(stored.defaultSize) ? stored.defaultSize : DEFAULT_CONSOLE_SETTINGS.defaultSize,
  };
}

/** Writes the settings given (undefined: kept) in one transaction. */
export async function saveConsoleSettings(db: Db, input: Partial<Record<keyof ConsoleSettings, unknown>>) {
  await db.transaction(async (tx) => {
    for (const [key, value] of Object.entries(input)) {
      if (value === undefined) continue;
      await tx.query(
        `INSERT INTO console_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
        [key, String(value)],
      );
    }
  });
}
