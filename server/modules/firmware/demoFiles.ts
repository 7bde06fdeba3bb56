import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../../db/connection';
import { DEMO_FIRMWARE_KEY_PREFIX } from '../../db/seedStory';
import type { FirmwareStore } from './storage';
import { attachPackageFile, demoPackagesWithoutFile } from './firmwareQueries';
const CHUNK = 64 * 1024;

/** `size` bytes that depend only on `seed` (a SHA-256 chain), made a chunk at a time. */
function* demoBytes(seed: string, size: number): Generator<Buffer> {
  let block = createHash('sha256').update(seed).digest();
  for (let left = size; left > 0;) {
    const chunk = Buffer.alloc(Math.min(CHUNK, left));
    for (let at = 0; at < chunk.length; at += block.length) {
      block.copy(chunk, at);
      block = createHash('sha256').update(block).digest();
    }
    left -= chunk.length;
    yield chunk;
  }
}

/**
 * The demo's firmware packages are seeded as rows only (the seed runs inside a database
 * transaction, before the firmware folder is open). At start each one still under its placeholder
 * key gets a file of its listed size, stored like an upload (receive, commit the row, keep), so
 * that the demo's packages download and update vessels like real ones. Replicas starting
 * together race on a conditional update: one keeps its file, the others discard theirs.
 */
export async function fileDemoPackages(store: FirmwareStore, db: Db): Promise<number> {
  const rows = await demoPackagesWithoutFile(db, DEMO_FIRMWARE_KEY_PREFIX);
  let made = 0;
  for (const row of rows) {
    const file = await store.receive(Readable.from(demoBytes(row.key, Number(row.size))));
    if (await attachPackageFile(db, row.id, row.key, file)) {
      await store.keep(file.key);
      made += 1;
    } else await store.discard(file.key);
  }
  return made;
}
