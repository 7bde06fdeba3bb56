import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ServerConfig } from '../../config';
import type { Db } from '../../db/connection';
import { lockStoredKeys } from './firmwareQueries';

/**
 * Firmware files on disk: streamed in while their SHA-256 is computed (memory stays flat whatever
 * the size), stored under a random key, streamed out whole or by byte range.
 *
 * A crash (SIGKILL, power cut) must leave no file without its row and no row without its file, so
 * a file holds its storage name (`<key>`) only while its row exists:
 * - an upload is written to `.<key>.part` and flushed to disk, its row is committed, and only then
 *   is it renamed to `<key>` (receive, then keep);
 * - a delete renames `<key>` to `.<key>.del` inside the transaction that deletes the row, and
 *   removes it after the commit (retire, then drop);
 * - at start, sweepFirmwareFolder settles what a crash left between those steps: a temporary file
 *   whose row exists gets its storage name back, one without a row is removed.
 * Files under a storage name are never removed for want of a row: two databases may share one
 * firmware folder (PGlite's ./data/firmware is PostgreSQL's default too), and each sees only its rows.
 */
export interface FirmwareStore {
  dir: string;
  /** Streams `source` to a temporary file flushed to disk; `truncated` when the source stopped at the size limit (nothing is kept then). */
  receive(source: Readable & { truncated?: boolean }): Promise<ReceivedFile>;
  /** Gives a received file its storage name, once its row is committed. */
  keep(key: string): Promise<void>;
  /** Removes a received file whose row was not written. */
  discard(key: string): Promise<void>;
  path(key: string): string;
  size(key: string): Promise<number | null>;
  read(key: string, range?: { start: number; end: number }): ReadStream;
  /** Moves a stored file aside (before its row's delete commits); `restore` undoes it, `drop` removes it. */
  retire(key: string): Promise<void>;
  restore(key: string): Promise<void>;
  drop(key: string): Promise<void>;
  /** Removes a temporary folder made for an in-memory database. */
  close(): Promise<void>;
}

/** A stored file's name: the storage key. */
const STORAGE_KEY = /^[0-9a-f-]{36}\.bin$/;
/** What a crash can leave: `.<key>.part` (an upload not yet renamed) or `.<key>.del` (a delete not yet finished). */
const TEMPORARY = /^\.([0-9a-f-]{36}\.bin)\.(part|del)$/;

export interface ReceivedFile {
  key: string;
  size: number;
  sha256: string;
  truncated: boolean;
}

/** FIRMWARE_DIR, else a `firmware` folder beside the embedded database; null for an in-memory database without FIRMWARE_DIR. */
export function firmwareFolder(config: Pick<ServerConfig, 'firmwareDir' | 'dataDir'>): string | null {
  if (config.firmwareDir) return resolve(config.firmwareDir);
  if (config.dataDir === 'memory://' || !config.dataDir) return null;
  return resolve(dirname(resolve(config.dataDir)), 'firmware');
}

/** The firmware folder, or (memory://) a temp folder. */
async function resolveDir(config: Pick<ServerConfig, 'firmwareDir' | 'dataDir'>): Promise<{ dir: string; temporary: boolean }> {
  const dir = firmwareFolder(config);
  return dir ? { dir, temporary: false } : { dir: await mkdtemp(join(tmpdir(), 'fleet-firmware-')), temporary: true };
}

export async function openFirmwareStore(config: Pick<ServerConfig, 'firmwareDir' | 'dataDir'>): Promise<FirmwareStore> {
  const { dir, temporary } = await resolveDir(config);
  await mkdir(dir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`Cannot create the firmware folder ${dir} (FIRMWARE_DIR): ${error.code ?? error.message}`);
  });
  /** The file of a key: under its storage name, or one of its temporary names. */
  const fileOf = (key: string, suffix: '' | '.part' | '.del' = '') => {
    if (!STORAGE_KEY.test(key)) throw new Error('bad firmware storage key');
    return join(dir, suffix ? `.${key}${suffix}` : key);
  };
  const path = (key: string) => fileOf(key);
  return {
    dir,
    path,
    async receive(source) {
      const key = `${randomUUID()}.bin`;
      const file = fileOf(key, '.part');
      const hash = createHash('sha256');
      let size = 0;
      const digest = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      try {
        // flush: fsync before close, so a committed row never points at bytes still in the page cache.
        await pipeline(source, digest, createWriteStream(file, { flags: 'wx', flush: true }));
        if (source.truncated) {
          await rm(file, { force: true });
          return { key, size, sha256: '', truncated: true };
        }
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
      return { key, size, sha256: hash.digest('hex'), truncated: false };
    },
    async keep(key) {
      try {
        await rename(fileOf(key, '.part'), path(key));
      } catch (error) {
        // Another server's start sweep may have settled it already (one firmware folder, several replicas).
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || (await sizeOf(path(key))) === null) throw error;
      }
    },
    discard: (key) => rm(fileOf(key, '.part'), { force: true }),
    size: (key) => sizeOf(path(key)),
    read: (key, range) => createReadStream(path(key), range ? { start: range.start, end: range.end } : {}),
    retire: (key) => renameIfThere(path(key), fileOf(key, '.del')),
    restore: (key) => renameIfThere(fileOf(key, '.del'), path(key)),
    drop: (key) => rm(fileOf(key, '.del'), { force: true }),
    close: async () => {
      if (temporary) await rm(dir, { recursive: true, force: true });
    },
  };
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}

async function renameIfThere(from: string, to: string): Promise<void> {
  await rename(from, to).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/**
 * At start, before the server listens: settles the temporary files a crash left in the firmware
 * folder against the committed rows. A `.part` whose row exists was complete and flushed before
 * its row committed: it gets its storage name. A `.del` whose row exists belongs to a delete that
 * did not commit: it gets its name back. Without a row, either is removed. The rows are read FOR
 * UPDATE, so a delete in flight on another replica (it holds its row's lock while it renames) is
 * waited for, not undone. An upload in flight on another replica sharing the folder loses its
 * `.part` and answers an error (its row is removed again): uploads are rare, restarts rarer.
 */
export async function sweepFirmwareFolder(store: Pick<FirmwareStore, 'dir'>, db: Db): Promise<{ kept: number; removed: number }> {
  const found = (await readdir(store.dir)).flatMap((name) => {
    const match = TEMPORARY.exec(name);
    return match ? [{ file: join(store.dir, name), key: match[1]! }] : [];
  });
  if (!found.length) return { kept: 0, removed: 0 };
  return db.transaction(async (tx) => {
    const live = new Set(await lockStoredKeys(tx, [...new Set(found.map((f) => f.key))]));
    let kept = 0;
    for (const { file, key } of found) {
      if (live.has(key)) {
        await renameIfThere(file, join(store.dir, key));
        kept += 1;
      } else {
        await rm(file, { force: true });
      }
    }
    return { kept, removed: found.length - kept };
  });
}
