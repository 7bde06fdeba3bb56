import type { Queryable } from '../../db/connection';

/** Stores an enterprise's picture of a type (0: the defaults), replacing the previous one. */
export async function savePicture(db: Queryable, ownerId: number, fileType: number, mime: string, content: Uint8Array) {
  await db.query(
    `INSERT INTO pictures (owner_id, file_type, mime, content) VALUES ($1, $2, $3, $4)
     ON CONFLICT (owner_id, file_type) DO UPDATE SET mime = EXCLUDED.mime, content = EXCLUDED.content, updated_at = now()`,
    [ownerId, fileType, mime, content],
  );
}

/** One picture per type: the enterprise's own, else the default (owner 0). */
export async function picturesOf(db: Queryable, ownerId: number) {
  return db.query<{ fileType: number; mime: string; content: Uint8Array; ownerId: number }>(
    `SELECT DISTINCT ON (file_type) file_type AS "fileType", mime, content, owner_id AS "ownerId"
       FROM pictures WHERE owner_id IN ($1, 0) ORDER BY file_type, owner_id DESC`,
    [ownerId],
  );
}

/** Whether the enterprise had its own picture of that type. */
export async function deletePicture(db: Queryable, ownerId: number, fileType: number) {
  const rows = await db.query('DELETE FROM pictures WHERE owner_id = $1 AND file_type = $2 RETURNING file_type', [ownerId, fileType]);
  return rows.length > 0;
}
