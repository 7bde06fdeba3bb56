import type { Db } from '../db/connection';
import { bloatedTables, vacuumTable } from './opsQueries';

/**
 * The embedded database's upkeep (docs/architecture.md, "An embedded database that lasts"). PGlite
 * has no autovacuum, and rows updated in place (each vessel's latest state, the device rows)
 * leave dead versions behind: 50,000 a minute at 1,000 reports/s. Unvacuumed, those small tables
 * grew to 25-56 MB for 10,000 rows in 13 minutes and every lookup and update read through them.
 * The leader vacuums every minute the tables that have gathered enough dead rows, one statement per
 * table, so the console's queries get their turns between them. PostgreSQL's autovacuum does this
 * there. Resolves to the tables vacuumed.
 */
export async function vacuumEmbedded(db: Db): Promise<string[]> {
  if (db.engine !== 'pglite') return [];
  const done: string[] = [];
  for (const { table } of await bloatedTables(db)) {
    await vacuumTable(db, table);
    done.push(table);
  }
  return done;
}
