import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config';
import { openDb } from '../../db/connection';
import { backupService } from './backupService';
import { restoreBackup, RestoreRefused } from './backup';
import { askServer, hasOpsSocket } from './opsSocket';

/**
 * npm run backup [-- --to FILE_OR_FOLDER]
 * npm run restore FILE [-- --force]
 * The same settings as the server (DATA_DIR, DATABASE_URL, FIRMWARE_DIR, BACKUP_DIR); README, "Backup and restore".
 */
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { to: { type: 'string' }, force: { type: 'boolean', default: false } },
});
const [command, file] = positionals;
const config = loadConfig();

async function backup(): Promise<string> {
  // The embedded database belongs to the running server, if there is one: it takes the backup.
  if (hasOpsSocket(config)) {
    const answer = await askServer(config, '/backup', values.to ? { to: values.to } : {});
    if (answer) {
      if (answer.status !== 200) throw new Error(answer.data?.error ?? 'the server could not take the backup');
      return `${answer.data.file} (${answer.data.sizeBytes} bytes, ${answer.data.tables} tables; taken by the running server)`;
    }
  }
  if (!config.databaseUrl && !(existsSync(config.dataDir) && readdirSync(config.dataDir).length))
    throw new Error(`No embedded database in ${resolve(config.dataDir)} (DATA_DIR)`);
  const db = await openDb(config);
  try {
    const result = await backupService(db, config).run('manual', values.to);
    return `${result.file} (${result.sizeBytes} bytes, ${result.manifest.tables.length} tables)`;
  } finally {
    await db.close();
  }
}

async function restore(): Promise<string> {
  if (!file) throw new Error('Say which backup to restore: npm run restore FILE');
  if (hasOpsSocket(config) && (await askServer(config, '/ping')))
    throw new RestoreRefused('The server is running on this data folder: stop it before restoring');
  const result = await restoreBackup(file, config, { force: values.force });
  return `${result.tables} tables, ${result.rows} rows and ${result.firmware} firmware files restored into ${
    result.engine === 'pglite' ? config.dataDir : 'the PostgreSQL database'
  }; counts and checksums match the backup`;
}

try {
  if (command === 'backup') console.log(`Backup written: ${await backup()}`);
  else if (command === 'restore') console.log(`Restored: ${await restore()}`);
  else throw new Error('Usage: cli.ts backup [--to PATH] | restore FILE [--force]');
  process.exit(0);
} catch (error) {
  console.error(`${command === 'restore' ? 'Restore' : 'Backup'} failed: ${(error as Error).message}`);
  process.exit(error instanceof RestoreRefused ? 2 : 1);
}
