import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ServerConfig } from '../../config';

/**
 * Firmware files on disk: streamed in while their SHA-256 is computed (memory stays flat whatever
 * the size), stored under a random key, streamed out whole or by byte range.
 */
export interface FirmwareStore {
  dir: string;
  /** Streams `source` to a temporary file; `truncated` when the source stopped at the size limit. */
  receive(source: Readable & { truncated?: boolean }): Promise<ReceivedFile>;
  path(key: string): string;
  size(key: string): Promise<number | null>;
  read(key: string, range?: { start: number; end: number }): ReadStream;
  remove(key: string): Promise<void>;
  /** Removes a temporary folder made for an in-memory database. */
  close(): Promise<void>;
}

export interface ReceivedFile {
  key: string;
  size: number;
  sha256: string;
  truncated: boolean;
}

/** FIRMWARE_DIR, else a `firmware` folder beside the embedded database, else (memory://) a temp folder. */
async function resolveDir(config: Pick<ServerConfig, 'firmwareDir' | 'dataDir'>): Promise<{ dir: string; temporary: boolean }> {
  if (config.firmwareDir) return { dir: resolve(config.firmwareDir), temporary: false };
  if (config.dataDir === 'memory://' || !config.dataDir) return { dir: await mkdtemp(join(tmpdir(), 'fleet-firmware-')), temporary: true };
  return { dir: resolve(dirname(resolve(config.dataDir)), 'firmware'), temporary: false };
}

export async function openFirmwareStore(config: Pick<ServerConfig, 'firmwareDir' | 'dataDir'>): Promise<FirmwareStore> {
  const { dir, temporary } = await resolveDir(config);
  await mkdir(dir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`Cannot create the firmware folder ${dir} (FIRMWARE_DIR): ${error.code ?? error.message}`);
  });
  const path = (key: string) => {
    if (!/^[0-9a-f-]{36}\.bin$/.test(key)) throw new Error('bad firmware storage key');
    return join(dir, key);
  };
  return {
    dir,
    path,
    async receive(source) {
      const key = `${randomUUID()}.bin`;
      const partial = join(dir, `.${key}.part`);
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
        await pipeline(source, digest, createWriteStream(partial, { flags: 'wx' }));
        if (source.truncated) {
          await rm(partial, { force: true });
          return { key, size, sha256: '', truncated: true };
        }
        await rename(partial, path(key));
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { key, size, sha256: hash.digest('hex'), truncated: false };
    },
    async size(key) {
      try {
        return (await stat(path(key))).size;
      } catch {
        return null;
      }
    },
    read: (key, range) => createReadStream(path(key), range ? { start: range.start, end: range.end } : {}),
    remove: (key) => rm(path(key), { force: true }),
    close: async () => {
      if (temporary) await rm(dir, { recursive: true, force: true });
    },
  };
}
