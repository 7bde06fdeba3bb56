import { createWriteStream, existsSync } from 'node:fs';
import { createGzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import * as tar from 'tar';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import type { ServerConfig } from '../../config';
import type { Db, Queryable } from '../../db/connection';
import { folderSums } from './copyThread';
import { copyOnline } from './onlineCopy';
import { firmwareFolder } from '../../modules/firmware/storage';
import {
  BACKUP_NAME,
  FIRMWARE,
  MANIFEST,
  backupName,
  packArchive,
  libpqUrl,
  removeFolder,
  runTool,
  sha256Of,
  stageFile,
  unpackArchive,
  writeManifest,
  type BackupManifest,
} from './archive';
import {
  currentSchema,
  differingTables,
  emptySchema,
  ensureExtensions,
  exportSnapshot,
  firmwareKeys,
  newestMigration,
  schemaSums,
  schemaExists,
  schemaObjectCount,
  tableSums,
  type TableSum,
} from './backupQueries';

type Settings = Pick<ServerConfig, 'databaseUrl' | 'dataDir' | 'firmwareDir' | 'backupDir'>;

/** BACKUP_DIR, else `backups` beside the embedded database's folder (./data/backups by default). */
export function backupFolder(config: Settings): string {
  if (config.backupDir) return resolve(config.backupDir);
  const dataDir = config.dataDir && config.dataDir !== 'memory://' ? config.dataDir : './data/pglite';
  return resolve(dirname(resolve(dataDir)), 'backups');
}

export interface BackupResult {
  file: string;
  sizeBytes: number;
  manifest: BackupManifest;
}

/**
 * Takes a consistent backup while the server runs:
 * - PGlite on disk: the data folder is copied beside itself as an online base backup
 *   (server/ops/backup/onlineCopy.ts); the console and ingest wait only for its checkpoint. The
 *   copy is then packed, and opened (its WAL replayed) and its tables summed, on a thread of its
 *   own at the lowest CPU priority;
 * - PGlite in memory: the tables are summed and the folder dumped inside the transaction;
 * - PostgreSQL: pg_dump shares the snapshot the sums were read in, and nothing waits.
 * `to` is a file or a folder (the backup folder by default).
 */
export async function createBackup(db: Db, config: Settings, { to }: { to?: string } = {}): Promise<BackupResult> {
  const at = new Date();
  const target = to && !existsSync(to) && to.endsWith('.tar') ? resolve(to) : join(to ? resolve(to) : backupFolder(config), backupName(at));
  await mkdir(dirname(target), { recursive: true });
  const staging = await mkdtemp(join(dirname(target), '.staging-'));
  // PGlite on disk: its folder is copied beside itself (the same disk, a quick copy: the WAL it needs
  // grows while it is made), not to the backup folder, which may be a slower or remote disk.
  const copyRoot = db.dataFolder ? await mkdtemp(join(dirname(db.dataFolder), '.backup-copy-')) : '';
  const copy = join(copyRoot, 'pgdata');
  try {
    const database = db.engine === 'pglite' ? 'database.tar.gz' : 'database.dump';
    const schema = db.engine === 'postgres' ? await currentSchema(db) : null;
    let dataDir: Blob | null = null;
    // PGlite on disk: an online copy (the server goes on meanwhile), then packed, opened (its WAL
    // replayed) and read on a thread of its own that yields the CPU to the server's: its sums and the
    // firmware its rows name describe the state the archive restores to.
    const read = db.dataFolder
      ? await copyOnline(db, db.dataFolder, copy, dirname(target)).then(async () =>
          folderSums({ folder: copy, pack: { entries: await readdir(copy), archive: join(staging, database) } }),
        )
      : await db.transaction(async (tx) => {
          // PostgreSQL: the snapshot first (SET TRANSACTION must open the transaction).
          const snapshot = db.engine === 'postgres' ? await exportSnapshot(tx) : '';
          const read = { tables: await tableSums(tx), firmware: await firmwareKeys(tx), migration: await newestMigration(tx) };
          // PGlite in memory: the folder as it is now, compressed after the server goes on (bench:backup).
          if (db.dumpDataDir) dataDir = await db.dumpDataDir();
          else
            await runTool('pg_dump', [
              '--format=custom',
              `--snapshot=${snapshot}`,
              `--schema=${schema}`,
              '--no-owner',
              '--no-privileges',
              `--file=${join(staging, database)}`,
              `--dbname=${libpqUrl(config.databaseUrl)}`,
            ]);
          return read;
        });
    const { tables, firmware, migration } = read;
    if (dataDir) {
      // Node's zlib works off the event loop: the server answers while the archive is compressed.
      await pipeline(
        Readable.fromWeb((dataDir as Blob).stream() as WebReadableStream),
        createGzip(),
        createWriteStream(join(staging, database)),
      );
      dataDir = null;
    }
    const folder = firmwareFolder(config);
    const missingFirmware: string[] = [];
    for (const { key } of firmware) {
      const from = folder ? join(folder, key) : '';
      if (folder && existsSync(from)) await stageFile(from, join(staging, FIRMWARE, key));
      else missingFirmware.push(key);
    }
    const manifest: BackupManifest = {
      format: 'fleet-console-backup',
      version: 1,
      engine: db.engine,
      createdAt: at.toISOString(),
      schema,
      migration,
      database,
      tables,
      firmware,
      missingFirmware,
    };
    await writeManifest(staging, manifest);
    const entries = [MANIFEST, database, ...(firmware.length > missingFirmware.length ? [FIRMWARE] : [])];
    const sizeBytes = await packArchive(staging, entries, target);
    return { file: target, sizeBytes, manifest };
  } finally {
    await removeFolder(staging);
    if (copyRoot) await removeFolder(copyRoot);
  }
}

export interface RestoreResult {
  engine: 'pglite' | 'postgres';
  tables: number;
  rows: number;
  firmware: number;
}

/** A restore that would overwrite data: refused unless `force` (the CLI's --force). */
export class RestoreRefused extends Error {}

/**
 * Restores a backup into an empty data folder (PGlite) or an empty schema (PostgreSQL), puts its
 * firmware files back, and checks every table's count and checksum against the manifest.
 */
export async function restoreBackup(file: string, config: Settings, { force = false }: { force?: boolean } = {}): Promise<RestoreResult> {
  const staging = await mkdtemp(join(dirname(resolve(file)), '.restore-'));
  try {
    const manifest = await unpackArchive(resolve(file), staging);
    const dump = join(staging, manifest.database);
    let sums: TableSum[];
    if (manifest.engine === 'pglite') {
      if (config.databaseUrl)
        throw new Error(
          'This backup is of the embedded database: restore it into a data folder (no DATABASE_URL), then run npm run move-to-postgres',
        );
      sums = await restorePglite(dump, config.dataDir, force);
    } else {
      if (!config.databaseUrl)
        throw new Error('This backup is of a PostgreSQL database: set DATABASE_URL to the database to restore it into');
      sums = await restorePostgres(dump, config.databaseUrl, manifest.schema ?? 'public', force);
    }
    const wrong = differingTables(manifest.tables, sums);
    if (wrong.length) throw new Error(`The restored database differs from the backup in: ${wrong.join(', ')}`);
    const firmware = await restoreFirmware(staging, manifest, config);
    return { engine: manifest.engine, tables: sums.length, rows: sums.reduce((n, t) => n + t.rows, 0), firmware };
  } finally {
    await removeFolder(staging);
  }
}

async function restorePglite(dump: string, dataDir: string, force: boolean): Promise<TableSum[]> {
  if (!dataDir || dataDir === 'memory://') throw new Error('Set DATA_DIR to the folder to restore the embedded database into');
  const dir = resolve(dataDir);
  if (existsSync(dir) && (await readdir(dir)).length) {
    if (!force) throw new RestoreRefused(`The data folder ${dir} is not empty: restore into an empty folder, or add --force to replace it`);
    await removeFolder(dir);
  }
  await mkdir(dir, { recursive: true });
  // The folder's files, unpacked onto disk a file at a time (a backup of an in-memory server, made by
  // dumpDataDir, names them from the root: tar strips it).
  await tar.x({ file: dump, cwd: dir });
  return (await folderSums({ folder: dir })).tables;
}

async function restorePostgres(dump: string, databaseUrl: string, schema: string, force: boolean): Promise<TableSum[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const db: Queryable = { query: async (sql, params) => (await client.query(sql, params)).rows };
  try {
    if (await schemaObjectCount(db, schema)) {
      if (!force)
        throw new RestoreRefused(`The schema ${schema} already holds tables: restore into an empty database, or add --force to replace it`);
      await emptySchema(db, schema);
    }
    await ensureExtensions(db);
    // The dump creates its schema; one that exists already (empty) keeps its own.
    const list = await runTool('pg_restore', ['--list', dump]);
    const keep = (await schemaExists(db, schema))
      ? list.split('\n').filter((line) => !/ (SCHEMA|COMMENT) - (SCHEMA )?\S+ /.test(line))
      : null;
    const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${libpqUrl(databaseUrl)}`];
    if (keep) {
      const listFile = `${dump}.list`;
      await writeFile(listFile, keep.join('\n'));
      args.push(`--use-list=${listFile}`);
    }
    await runTool('pg_restore', [...args, dump]);
    return await schemaSums(db, schema);
  } finally {
    await client.end();
  }
}

/** Firmware files back into the firmware folder, each checked against its SHA-256; a file already there is kept. */
async function restoreFirmware(staging: string, manifest: BackupManifest, config: Settings): Promise<number> {
  const folder = firmwareFolder(config);
  const present = manifest.firmware.filter((f) => !manifest.missingFirmware.includes(f.key));
  if (!present.length) return 0;
  if (!folder) throw new Error('Set FIRMWARE_DIR (or DATA_DIR) to restore the firmware files into');
  await mkdir(folder, { recursive: true });
  for (const { key, sha256 } of present) {
    const from = join(staging, FIRMWARE, key);
    if ((await sha256Of(from)) !== sha256) throw new Error(`Firmware file ${key} in the backup is damaged (SHA-256 differs)`);
    if (!existsSync(join(folder, key))) await stageFile(from, join(folder, key));
  }
  return present.length;
}

/** The backups in a folder, newest first (by name: names sort by time). */
export async function backupFiles(folder: string): Promise<string[]> {
  const names = existsSync(folder) ? await readdir(folder) : [];
  return names
    .filter((n) => BACKUP_NAME.test(n))
    .sort()
    .reverse()
    .map((n) => join(folder, n));
}
