import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import type { Queryable } from '../../db/connection';
import { Level } from '../../../src/domain/levels';
import { DEFAULT_CONSOLE_SETTINGS, consoleSettingsSchema, isSize, type ConsoleSettings } from '../../../src/domain/systemSettings';
import { ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery } from '../../http/schemas';

const tags = ['support'];
const settingsObject = { type: 'object', properties: { warnRefreshSeconds: { type: 'integer' }, defaultSize: { type: 'string' } } };

export async function readConsoleSettings(db: Queryable): Promise<ConsoleSettings> {
  const rows = await db.query<{ key: string; value: string }>('SELECT key, value FROM console_settings');
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  const seconds = Number(stored.warnRefreshSeconds);
  return {
    warnRefreshSeconds: Number.isInteger(seconds) && seconds > 0 ? seconds : DEFAULT_CONSOLE_SETTINGS.warnRefreshSeconds,
    defaultSize: isSize(stored.defaultSize) ? stored.defaultSize : DEFAULT_CONSOLE_SETTINGS.defaultSize,
  };
}

/** supportModule/settings: console settings for everyone (bell poll seconds, default size); admins change them. */
export async function settingsRoutes(app: Api, { db }: ServerContext) {
  app.get('/settings/get', {
    schema: { tags, summary: 'Console settings every user reads at start', querystring: { type: 'object', properties: tokenQuery }, response: envelope(settingsObject) },
  }, async () => ok(await readConsoleSettings(db)));

  app.post('/settings/update', {
    config: { levels: [Level.Admin] },
    schema: { tags, summary: 'Change console settings (fields not sent stay)', querystring: { type: 'object', properties: tokenQuery }, body: { type: 'object', properties: { warnRefreshSeconds: {}, defaultSize: {} } }, response: envelope(settingsObject) },
  }, async (request) => {
    const input = parseWith(consoleSettingsSchema, request.body);
    await db.transaction(async (tx) => {
      for (const [key, value] of Object.entries(input)) {
        if (value === undefined) continue;
        await tx.query(
          `INSERT INTO console_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
          [key, String(value)],
        );
      }
    });
    return ok(await readConsoleSettings(db));
  });
}
