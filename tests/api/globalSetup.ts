import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDb } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL URL when one answers; the server tests then run on it as well as on PGlite. */
    pgUrl: string;
    /**
     * A file holding a dump of an in-memory PGlite with every migration applied: each PGlite test
     * server starts from it (tests/api/helpers.ts) instead of creating and migrating a database.
     */
    pgliteTemplate: string;
  }
}

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL ?? DEFAULT_PG_URL;
  let available = '';
  if (process.env.TEST_DATABASE_URL !== '') {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      available = url;
    } catch {
      available = '';
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  console.log(available ? `server tests: PGlite and PostgreSQL (${url})` : 'server tests: PGlite only (no PostgreSQL answered)');
  project.provide('pgUrl', available);

  // Made once per project and run; about 2 s saved on each PGlite server the tests start.
  const db = await openDb({ databaseUrl: '', dataDir: 'memory://' });
  await migrate(db);
  const dump = await db.dumpDataDir!();
  await db.close();
  const template = join(tmpdir(), `fleet-pglite-${project.name}-${process.pid}.tar`);
  writeFileSync(template, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', template);
  return () => rmSync(template, { force: true });
}
