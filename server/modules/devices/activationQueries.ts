import type { Db, Queryable } from '../../db/connection';
import { detachFromOtherEnterprises } from './groupQueries';

/** The id of the device with this deviceNum or SN (the lowest, should both match), or undefined. */
export async function findDeviceIdByKey(db: Queryable, key: string) {
  const [row] = await db.query<{ id: number }>('SELECT id FROM devices WHERE device_num = $1 OR device_sn = $1 ORDER BY id LIMIT 1', [key]);
  return row?.id;
}

/**
 * Activates a device for an owner in one transaction, under the device's row lock: who and when
 * are recorded, the secret's hash stored, and the device leaves other enterprises' groups.
 * `notFound` or `alreadyActivated` change nothing.
 */
export async function activateDevice(
  db: Db,
  a: { id: number; activatedBy: number; ownerId: number; ownerSubId: number; secretHash: string },
): Promise<'activated' | 'notFound' | 'alreadyActivated'> {
  return db.transaction(async (tx) => {
    const [device] = await tx.query<{ activated: boolean }>('SELECT activated FROM devices WHERE id = $1 FOR UPDATE', [a.id]);
    if (!device) return 'notFound';
    if (device.activated) return 'alreadyActivated';
    await tx.query(
      `UPDATE devices SET activated = true, activated_at = now(), activated_by = $2, owner_id = $3, owner_sub_id = $4,
              secret_hash = $5, updated_at = now() WHERE id = $1`,
      [a.id, a.activatedBy, a.ownerId, a.ownerSubId || null, a.secretHash],
    );
    await detachFromOtherEnterprises(tx, a.id, a.ownerId);
    return 'activated';
  });
}

/** Deactivates an activated device (its secret stops working); false when there is no such activated device. */
export async function deactivateDevice(db: Queryable, id: number) {
  const rows = await db.query<{ activated: boolean }>(
    `UPDATE devices SET activated = false, activated_at = NULL, activated_by = NULL, secret_hash = NULL, updated_at = now()
      WHERE id = $1 AND activated RETURNING activated`,
    [id],
  );
  return rows.length > 0;
}
