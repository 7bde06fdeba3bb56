import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { Level } from '../../../src/domain/levels';
import { consoleSettingsSchema } from '../../../src/domain/systemSettings';
import { readConsoleSettings, saveConsoleSettings } from './settingsQueries';
import { ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery } from '../../http/schemas';

const tags = ['support'];
const settingsObject = { type: 'object', properties: { warnRefreshSeconds: { type: 'integer' }, defaultSize: { type: 'string' } } };

/** supportModule/settings: console settings for everyone (bell poll seconds, default size); admins change them. */
export async function settingsRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/settings/get',
    {
      schema: {
        tags,
        summary: 'Console settings every user reads at start',
        querystring: { type: 'object', properties: tokenQuery },
        response: envelope(settingsObject),
      },
    },
    async () => ok(await readConsoleSettings(db)),
  );

  app.post(
    '/settings/update',
    {
      config: { levels: [Level.Admin] },
      schema: {
        tags,
        summary: 'Change console settings (fields not sent stay)',
        querystring: { type: 'object', properties: tokenQuery },
        body: { type: 'object', properties: { warnRefreshSeconds: {}, defaultSize: {} } },
        response: envelope(settingsObject),
      },
    },
    async (request) => {
      const input = parseWith(consoleSettingsSchema, request.body);
      await saveConsoleSettings(db, input);
      return ok(await readConsoleSettings(db));
    },
  );
}
