import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { Level } from '../../../src/domain/levels';
import { backupSettingsSchema, type BackupStatus } from '../../../src/domain/backupSettings';
import { readBackupSettings, recentBackupRuns, saveBackupSettings } from '../../ops/backup/backupQueries';
import { ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery } from '../../http/schemas';

const tags = ['support'];
const levels = [Level.Admin];
const query = { type: 'object', properties: tokenQuery } as const;

/**
 * supportModule/backup: the backups of this server's database (System > preference, level 1):
 * the nightly backup's settings, the last runs with their results, and "Back up now".
 */
export async function backupRoutes(app: Api, { db, backups }: ServerContext) {
  const status = async (): Promise<BackupStatus> => ({
    settings: await readBackupSettings(db),
    runs: await recentBackupRuns(db),
    running: backups.running(),
    engine: db.engine,
    folder: backups.folder,
  });

  app.get(
    '/backup/status',
    {
      config: { levels },
      schema: {
        tags,
        summary: 'Nightly backup settings, the last runs and the run in progress',
        querystring: query,
        response: envelope({ type: 'object' }),
      },
    },
    async () => ok(await status()),
  );

  app.post(
    '/backup/updateSettings',
    {
      config: { levels },
      schema: {
        tags,
        summary: 'Change the nightly backup: on or off, its hour (UTC), backups kept',
        querystring: query,
        body: { type: 'object', properties: { nightly: {}, hourUtc: {}, keepCount: {} } },
        response: envelope({ type: 'object' }),
      },
    },
    async (request) => {
      await saveBackupSettings(db, parseWith(backupSettingsSchema, request.body));
      return ok(await status());
    },
  );

  app.post(
    '/backup/run',
    {
      config: { levels },
      schema: {
        tags,
        summary: 'Start a backup now; its result shows in the status when it ends',
        querystring: query,
        response: envelope({ type: 'object' }),
      },
    },
    async (request) => {
      // The run goes on after the answer; a failure is recorded with its reason in the runs.
      backups.run('manual').catch((error: Error) => request.log.warn(`backup: ${error.message}`));
      return ok(await status());
    },
  );
}
