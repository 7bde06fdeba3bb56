import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { preparedStatements } from '../../server/db/pgliteStatements';

/** The embedded database's named statements (server/db/pgliteStatements.ts) against PGlite's own query(). */
describe('prepared statements on the embedded database', () => {
  let lite: PGlite;
  beforeAll(async () => {
    lite = await PGlite.create();
    await lite.exec(
      `CREATE TABLE things (id serial PRIMARY KEY, name text UNIQUE NOT NULL, at timestamptz, tags text[], doc jsonb, raw bytea, n real)`,
    );
  });
  afterAll(() => lite.close());

  /** The server's prepared statements (not the query that lists them). */
  const preparedTexts = async () =>
    (await lite.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE from_sql = false ORDER BY name`)).rows.map(
      (r) => r.statement,
    );

  it('answers as query() does, for every kind of value in and out', async () => {
    const query = preparedStatements(lite);
    const params = [
      'boat',
      new Date('2026-11-29T03:00:00Z'),
      ['a', 'b,c', null],
      { deep: [1, { x: 'y' }] },
      new Uint8Array([0, 1, 255]),
      1.5,
    ];
    const insert = `INSERT INTO things (name, at, tags, doc, raw, n) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`;
    const [mine] = await query(insert, params, false);
    const [theirs] = (await lite.query(insert, ['boat2', ...params.slice(1)])).rows as Record<string, unknown>[];
    expect({ ...mine, id: 0, name: '' }).toEqual({ ...theirs, id: 0, name: '' });
    expect(mine!.at).toEqual(new Date('2026-11-29T03:00:00Z'));
    expect(mine!.tags).toEqual(['a', 'b,c', null]);
    expect(mine!.doc).toEqual({ deep: [1, { x: 'y' }] });
    // A null parameter, and a statement that returns no rows.
    expect(await query(`UPDATE things SET at = $1 WHERE name = $2`, [null, 'boat'], false)).toEqual([]);
    expect((await query(`SELECT at FROM things WHERE name = $1`, ['boat'], false))[0]).toEqual({ at: null });
  });

  it('prepares each text once and binds it afresh every time', async () => {
    const query = preparedStatements(lite);
    const before = (await preparedTexts()).length;
    const sql = `SELECT count(*)::int AS n FROM things WHERE name LIKE $1`;
    for (const pattern of ['boat%', 'nothing', 'boat2']) await query(sql, [pattern], false);
    expect((await preparedTexts()).filter((t) => t === sql)).toHaveLength(1);
    expect((await preparedTexts()).length).toBe(before + 1);
    expect(await query(sql, ['boat%'], false)).toEqual([{ n: 2 }]);
    expect(await query(sql, ['nothing'], false)).toEqual([{ n: 0 }]);
  });

  it('keeps at most its limit of texts, closing the least recently used', async () => {
    const query = preparedStatements(lite, 2);
    const before = await preparedTexts();
    const texts = [1, 2, 3].map((k) => `SELECT ${k} AS k`);
    await query(texts[0]!, [], false);
    await query(texts[1]!, [], false);
    await query(texts[0]!, [], false); // used again: the second is now the oldest
    await query(texts[2]!, [], false);
    const now = (await preparedTexts()).filter((t) => !before.includes(t));
    expect(now.sort()).toEqual([texts[0], texts[2]]);
    expect(await query(texts[1]!, [], false)).toEqual([{ k: 2 }]);
  });

  it('gives the database error with its code, and goes on after it', async () => {
    const query = preparedStatements(lite);
    const insert = `INSERT INTO things (name) VALUES ($1)`;
    await expect(query(insert, ['boat'], false)).rejects.toMatchObject({ code: '23505', constraint: 'things_name_key' });
    await expect(query(`SELECT nope FROM things`, [], false)).rejects.toMatchObject({ code: '42703' });
    expect(await query(insert, ['raft'], false)).toEqual([]);
  });

  it('keeps a statement prepared in a transaction that rolls back, and runs inside an open transaction', async () => {
    const query = preparedStatements(lite);
    const sql = `SELECT count(*)::int AS n FROM things WHERE name = $1`;
    await lite
      .transaction(async () => {
        await query(`INSERT INTO things (name) VALUES ($1)`, ['ghost'], true);
        expect(await query(sql, ['ghost'], true)).toEqual([{ n: 1 }]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await query(sql, ['ghost'], false)).toEqual([{ n: 0 }]);
  });

  it('keeps statements sent at once apart, each with its own answer', async () => {
    const query = preparedStatements(lite);
    const days = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2026, 10, 1 + i)));
    const texts = [`SELECT $1::timestamptz + interval '1 day' AS next`, `SELECT $1::timestamptz - interval '1 day' AS next`];
    const answers = await Promise.all(days.map((day, i) => query(texts[i % 2]!, [day], false)));
    answers.forEach((rows, i) => expect(rows).toEqual([{ next: new Date(days[i]!.getTime() + (i % 2 ? -1 : 1) * 86_400_000) }]));
  });

  it('refuses a statement once the database is closed', async () => {
    const other = await PGlite.create();
    const query = preparedStatements(other);
    expect(await query('SELECT 1 AS one', [], false)).toEqual([{ one: 1 }]);
    await other.close();
    await expect(query('SELECT 1 AS one', [], false)).rejects.toThrow(/closed/);
  });

  it('prepares a text again when its table changed shape', async () => {
    const query = preparedStatements(lite);
    await lite.exec(`CREATE TABLE shapes (id int)`);
    await lite.exec(`INSERT INTO shapes VALUES (1)`);
    const sql = `SELECT * FROM shapes`;
    expect(await query(sql, [], false)).toEqual([{ id: 1 }]);
    await lite.exec(`ALTER TABLE shapes ADD COLUMN label text DEFAULT 'new'`);
    expect(await query(sql, [], false)).toEqual([{ id: 1, label: 'new' }]);
  });
});
