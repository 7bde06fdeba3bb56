import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { openDb } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * A file holding a dump of an in-memory PGlite with every migration applied: each PGlite test
     * server starts from it instead of creating and migrating a database.
     */
    pgliteTemplate: string;
  }
}

/**
 * In a project's globalSetup: makes the migrated database once per project and run (about 2 s
 * saved on each PGlite server the tests start) and provides its file; answers the teardown.
 */
export async function provideTemplate(project: TestProject): Promise<() => void> {
  const db = await openDb({ databaseUrl: '', dataDir: 'memory://' });
  await migrate(db);
  const dump = await db.dumpDataDir!();
  await db.close();
  const file = join(tmpdir(), `fleet-pglite-${project.name}-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rmSync(file, { force: true });
}

let template: Blob | undefined;
/** The migrated database of the run, read once per test file; undefined in a project that provides none. */
export function pgliteTemplate(): Blob | undefined {
  const file = inject('pgliteTemplate');
  if (file && !template) template = new Blob([readFileSync(file)]);
  return template;
}
