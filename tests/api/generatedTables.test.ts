import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as yup from 'yup';
import type { Db } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';
import { checkTableResource, ensureTables } from '../../server/db/generatedTables';
import type { TableResource } from '../../src/domain/tableResource';
import { emptyDb, engines } from './helpers';

/** A declared resource's table is made from its declaration and kept in step with it (docs/extending.md, "Its table"). */
const base: TableResource = {
  path: '/deviceModule/logbookEntry',
  table: 'logbook_entries',
  scope: 'vessel',
  columns: { deviceId: { type: 'integer', notNull: true }, title: { type: 'text', notNull: true }, loggedAt: { type: 'timestamp' } },
  levels: { list: ['1'] },
  schema: { create: yup.object({}) },
  unique: [['deviceId', 'title']],
};
/** The same without the vessel (rows here need no device). */
const global: TableResource = {
  ...base,
  scope: 'global',
  columns: { day: { type: 'integer', notNull: true }, title: { type: 'text', notNull: true }, loggedAt: { type: 'timestamp' } },
  unique: [['day', 'title']],
};

describe.each(engines)('generated tables (%s)', (engine) => {
  let db: Db;
  let drop: () => Promise<void>;
  const columns = async () =>
    (
      await db.query<{ column_name: string; is_nullable: string }>(
        `SELECT column_name, is_nullable FROM information_schema.columns WHERE table_name = 'logbook_entries' AND table_schema = current_schema() ORDER BY column_name`,
      )
    ).map((c) => `${c.column_name}${c.is_nullable === 'NO' ? ' not null' : ''}`);

  beforeAll(async () => {
    ({ db, drop } = await emptyDb(engine));
    await migrate(db);
  });
  afterAll(async () => drop?.());

  it('creates the table whole, then adds a column declared later (nullable) and keeps the rows; a second start changes nothing', async () => {
    await ensureTables(db, [global]);
    expect(await columns()).toEqual([
      'created_at not null',
      'created_by',
      'day not null',
      'id not null',
      'logged_at',
      'title not null',
      'updated_at not null',
    ]);
    await db.query(`INSERT INTO logbook_entries (day, title) VALUES (1, 'Noon report')`);

    const later: TableResource = { ...global, columns: { ...global.columns, watchOfficer: { type: 'text', notNull: true } } };
    await ensureTables(db, [later]);
    await ensureTables(db, [later]);
    expect(await columns()).toContain('watch_officer');
    expect(await db.query(`SELECT title FROM logbook_entries`)).toEqual([{ title: 'Noon report' }]);

    // The unique key is an index of its own, named as a duplicate's answer expects.
    await expect(db.query(`INSERT INTO logbook_entries (day, title) VALUES (1, 'Noon report')`)).rejects.toMatchObject({
      code: '23505',
      constraint: 'logbook_entries_day_title_key',
    });
  });

  it('leaves a table a migration made alone (generate: false)', async () => {
    await ensureTables(db, [
      { ...base, table: 'voyages', generate: false, columns: { deviceId: { type: 'integer' }, bogus: { type: 'text' } } },
    ]);
    const bogus = await db.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'voyages' AND column_name = 'bogus'`);
    expect(bogus).toEqual([]);
  });
});

describe('a declaration the server refuses at start', () => {
  it.each([
    ['a table name that is not an identifier', { ...base, table: 'logbook; DROP TABLE users' }],
    ['a column name that is not an identifier', { ...base, columns: { ...base.columns, title: { type: 'text', column: 'title"' } } }],
    ['a unique key on an undeclared field', { ...base, unique: [['deviceId', 'nope']] }],
    ['a vessel scope without deviceId', { ...base, columns: { title: { type: 'text' } }, unique: [] }],
    ['an unknown type', { ...base, columns: { ...base.columns, title: { type: 'varchar' } } }],
  ])('%s', (_, declaration) => {
    expect(() => checkTableResource(declaration as TableResource)).toThrow(/table resource \/deviceModule\/logbookEntry/);
  });
});
