import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import type { TableSum } from './backupQueries';

/**
 * One backup is one tar archive (docs/architecture.md, "Backup and restore"):
 * - `manifest.json`: what it holds, each table's row count and checksum, each firmware file's SHA-256;
 * - `database.tar.gz` (the embedded database's data folder) or `database.dump` (pg_dump's custom format);
 * - `firmware/<storage key>`: the firmware files the database names.
 */
export interface BackupManifest {
  format: 'fleet-console-backup';
  version: 1;
  engine: 'pglite' | 'postgres';
  createdAt: string;
  /** PostgreSQL: the schema dumped (a restore recreates it under this name). */
  schema: string | null;
  /** The newest migration applied: a restore into an older server is refused by its migrations' check. */
  migration: string;
  database: string;
  tables: TableSum[];
  firmware: { key: string; sha256: string }[];
  /** Firmware files the database names that were not in the folder when the backup was taken. */
  missingFirmware: string[];
}

export const MANIFEST = 'manifest.json';
export const FIRMWARE = 'firmware';
export const BACKUP_NAME = /^fleet-backup-\d{8}-\d{6}Z\.tar$/;

/** `fleet-backup-20261127-030000Z.tar`: names sort by time. */
export const backupName = (at: Date) => `fleet-backup-${at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}Z.tar`;

/** A firmware file into the staging folder: a hard link when the folders share a disk, else a copy. */
export async function stageFile(from: string, to: string): Promise<void> {
  await mkdir(join(to, '..'), { recursive: true });
  await link(from, to).catch(() => copyFile(from, to));
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Packs the staging folder into `file` (written beside it as `.part`, renamed when whole). */
export async function packArchive(staging: string, entries: string[], file: string): Promise<number> {
  const part = `${file}.part`;
  await tar.c({ file: part, cwd: staging, portable: true }, entries);
  await rename(part, file);
  return (await stat(file)).size;
}

/** Unpacks an archive into `into` and reads its manifest; anything else is refused with a clear message. */
export async function unpackArchive(file: string, into: string): Promise<BackupManifest> {
  await stat(file).catch(() => {
    throw new Error(`No backup file at ${file}`);
  });
  await mkdir(into, { recursive: true });
  // strict: a damaged archive fails here, not half-restored; no absolute paths or `..` (tar's defaults).
  await tar.x({ file, cwd: into, strict: true }).catch((error: Error) => {
    throw new Error(`${file} is not a readable backup archive: ${error.message}`);
  });
  const text = await readFile(join(into, MANIFEST), 'utf8').catch(() => {
    throw new Error(`${file} has no ${MANIFEST}: not a backup of this product`);
  });
  const manifest = JSON.parse(text) as BackupManifest;
  if (manifest.format !== 'fleet-console-backup' || manifest.version !== 1)
    throw new Error(`${file} is not a backup this version can read`);
  return manifest;
}

export async function writeManifest(staging: string, manifest: BackupManifest): Promise<void> {
  await writeFile(join(staging, MANIFEST), JSON.stringify(manifest, null, 2));
}

/**
 * Runs one of PostgreSQL's client tools (pg_dump, pg_restore); a missing tool is one clear
 * message, a failing one ends with its own error lines.
 */
export function runTool(tool: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ENOENT'
            ? `${tool} was not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client) in the server's major version or newer`
            : `${tool}: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${tool} failed (exit ${code}): ${err.trim().slice(-2000)}`)),
    );
  });
}

/**
 * A connection URL as libpq reads it: a space in a parameter (`options=-c search_path=x`) written
 * `%20`, since libpq does not read `+` as a space as WHATWG URLs and node-postgres do.
 */
export function libpqUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  const query = [...url.searchParams].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  url.search = '';
  return query ? `${url.toString()}?${query}` : url.toString();
}

export const removeFolder = (dir: string) => rm(dir, { recursive: true, force: true });
