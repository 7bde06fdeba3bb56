import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config';
import { openDb } from '../../db/connection';
import { backupService } from './backupService';
import { restoreBackup, RestoreRefused } from './backup';
import { askServer, hasOpsSocket } from './opsSocket';
import { moveToPostgres, MoveRefused } from './moveToPostgres';

/**
 * npm run backup [-- --to FILE_OR_FOLDER]
 * npm run restore FILE [-- --force]
 * npm run move-to-postgres -- --to postgres://user@host/database
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

async function move(): Promise<string> {
  if (!values.to) throw new MoveRefused('Say where to: npm run move-to-postgres -- --to postgres://user@host/database');
  if (await askServer(config, '/ping')) throw new MoveRefused('The server is running on this data folder: stop it before moving');
  const result = await moveToPostgres(config, values.to, (line) => console.log(line));
  const lines = [
    `${result.tables} tables, ${result.rows} rows and ${result.sequences} sequences moved into schema ${result.schema} in ${result.seconds.toFixed(1)} s; counts and checksums match the source.`,
    `Login sessions were not moved: everyone logs in again. The data folder ${resolve(config.dataDir)} is unchanged.`,
    `Start the server with DATABASE_URL set to the target${result.firmwareFolder ? ` and FIRMWARE_DIR=${result.firmwareFolder} (the firmware files stay there)` : ''}.`,
  ];
  if (result.missingFirmware.length) lines.push(`Missing from the firmware folder: ${result.missingFirmware.join(', ')}`);
  return lines.join('\n');
}

const refused = (error: unknown) => error instanceof RestoreRefused || error instanceof MoveRefused;

try {
  if (command === 'move-to-postgres') console.log(await move());
  else if (command === 'backup') console.log(`Backup written: ${await backup()}`);
  else if (command === 'restore') console.log(`Restored: ${await restore()}`);
  else throw new Error('Usage: cli.ts backup [--to PATH] | restore FILE [--force] | move-to-postgres --to URL');
  process.exit(0);
} catch (error) {
  const what = { restore: 'Restore', backup: 'Backup', 'move-to-postgres': 'Move' }[command ?? ''] ?? 'Command';
  console.error(`${what} failed: ${(error as Error).message}`);
  process.exit(refused(error) ? 2 : 1);
}
