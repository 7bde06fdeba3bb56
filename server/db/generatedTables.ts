import type { Db } from './connection';
import { MIGRATION_LOCK } from './migrate';
import { SCOPE_FIELD, snakeCase, type TableColumnType, type TableResource } from '../../src/domain/tableResource';

/**
 * The tables of declared resources (docs/extending.md, "Its table"): made and kept from the
 * declaration when the server starts, after the migrations. A new table is created whole; a
 * column declared later is added (nullable: rows may exist); the unique keys get unique indexes and
 * the scope's column an index. Nothing is ever dropped, renamed or retyped here: such a change is a
 * migration of its own (server/db/migrations/).
 */

const SQL_TYPES: Record<TableColumnType, string> = {
  text: 'text',
  integer: 'integer',
  number: 'double precision',
  boolean: 'boolean',
  date: 'date',
  timestamp: 'timestamptz',
  json: 'jsonb',
};

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

const columnName = (field: string, column?: string) => column ?? snakeCase(field);

/** The name of a unique key's index, which a duplicate's error names (constraint). */
export const uniqueIndexName = (table: string, fields: readonly string[]): string =>
  `${table}_${fields.map((f) => snakeCase(f)).join('_')}_key`.slice(0, 63);

/** A declaration's names are SQL identifiers, its unique keys and scope name declared fields. */
export function checkTableResource(r: TableResource): void {
  const bad = (what: string) => new Error(`table resource ${r.path}: ${what}`);
  if (!IDENTIFIER.test(r.table)) throw bad(`"${r.table}" is not a table name`);
  for (const [field, spec] of Object.entries(r.columns)) {
    if (!spec.sql && !IDENTIFIER.test(columnName(field, spec.column))) throw bad(`field ${field} has no valid column name`);
    if (!SQL_TYPES[spec.type]) throw bad(`field ${field} has an unknown type ${spec.type}`);
  }
  const known = (field: string) => field === 'id' || field in r.columns;
  for (const field of [...(r.unique ?? []).flat(), ...(r.search ?? []), ...(r.filters ?? []), ...(r.sortable ?? [])])
    if (!known(field)) throw bad(`${field} is not a declared field`);
  const scopeField = SCOPE_FIELD[r.scope];
  if (scopeField && !r.columns[scopeField]) throw bad(`a ${r.scope} scope needs the field ${scopeField}`);
}

/** The statements that make and keep one table. */
export function tableStatements(r: TableResource): string[] {
  const scopeField = SCOPE_FIELD[r.scope];
  const columns = Object.entries(r.columns).filter(([, spec]) => !spec.sql);
  const definitionOf = ([field, spec]: (typeof columns)[number], creating: boolean) => {
    const name = columnName(field, spec.column);
    const references =
      field === scopeField
        ? r.scope === 'vessel'
          ? ' REFERENCES devices(id) ON DELETE CASCADE'
          : ' REFERENCES users(id) ON DELETE CASCADE'
        : '';
    return `${name} ${SQL_TYPES[spec.type]}${creating && spec.notNull ? ' NOT NULL' : ''}${references}`;
  };
  const createdBy = r.createdBy ?? 'created_by';
  const statements = [
    `CREATE TABLE IF NOT EXISTS ${r.table} (
      id serial PRIMARY KEY,
      ${columns.map((c) => `${definitionOf(c, true)},`).join('\n      ')}
      ${createdBy} integer REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now())`,
    ...columns.map((c) => `ALTER TABLE ${r.table} ADD COLUMN IF NOT EXISTS ${definitionOf(c, false)}`),
    ...(r.unique ?? []).map(
      (fields) =>
        `CREATE UNIQUE INDEX IF NOT EXISTS ${uniqueIndexName(r.table, fields)} ON ${r.table} (${fields.map((f) => columnName(f, r.columns[f]?.column)).join(', ')})`,
    ),
  ];
  if (scopeField) {
    const column = columnName(scopeField, r.columns[scopeField]!.column);
    statements.push(`CREATE INDEX IF NOT EXISTS ${`${r.table}_${column}_idx`.slice(0, 63)} ON ${r.table} (${column})`);
  }
  return statements;
}

/** Makes or completes every generated table, in one transaction (under the migrations' lock on PostgreSQL). */
export async function ensureTables(db: Db, resources: readonly TableResource[]): Promise<void> {
  const generated = resources.filter((r) => r.generate !== false);
  if (!generated.length) return;
  await db.transaction(async (tx) => {
    if (db.engine === 'postgres') await tx.query(MIGRATION_LOCK);
    for (const r of generated) for (const statement of tableStatements(r)) await tx.query(statement);
  });
}
