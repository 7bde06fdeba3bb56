import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { provideTemplate } from './pgliteTemplate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL URL when one answers; the server tests then run on it as well as on PGlite. */
    pgUrl: string;
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

  return provideTemplate(project);
}
