import type { Queryable } from '../db/connection';
import type { TableReferenceKind, TableResource } from '../../src/domain/tableResource';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from '../http/envelope';

/** The ids among $1 that belong to enterprise $2, by what they name. */
const OWNED_SQL: Record<TableReferenceKind, string> = {
  vessel: 'SELECT id FROM devices WHERE id = ANY($1::int[]) AND owner_id = $2',
  contactPoint: 'SELECT id FROM contact_points WHERE id = ANY($1::int[]) AND owner_id = $2',
  geofence: 'SELECT id FROM geofences WHERE id = ANY($1::int[]) AND owner_id = $2',
  user: 'SELECT id FROM users WHERE id = ANY($1::int[]) AND (id = $2 OR parent_id = $2)',
  group: `SELECT g.id FROM device_groups g JOIN users u ON u.id = g.owner_id
           WHERE g.id = ANY($1::int[]) AND (u.id = $2 OR u.parent_id = $2)`,
};

const idsOf = (value: unknown): number[] =>
  (Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]).map(Number);

/**
 * A row of an enterprise names only that enterprise's vessels, contact points, users and groups
 * (TableResource.references): every field that names another's (or one that does not exist) is
 * refused at once, code 1, each with validation.foreignReference.
 */
export async function assertOwnReferences(db: Queryable, r: TableResource, row: Record<string, unknown>): Promise<void> {
  if (!r.references) return;
  const ownerId = Number(row.ownerId);
  const errors: { field: string; message: string }[] = [];
  for (const [field, kind] of Object.entries(r.references)) {
    const ids = [...new Set(idsOf(row[field]))];
    if (!ids.length) continue;
    const found = await db.query<{ id: number }>(OWNED_SQL[kind], [ids, ownerId]);
    if (found.length !== ids.length) errors.push({ field, message: 'validation.foreignReference' });
  }
  if (errors.length) throw new BizError(ErrorCode.Validation, 'error.validation', errors);
}
