import type { Queryable } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { EXPORT_THROTTLE_MS } from '../../../src/domain/constants';
import { BizError } from '../../http/envelope';

/**
 * One export per user per 10 s (docs/requirements.md §8, -101). The last export time lives in the
 * database, and claiming the slot is one atomic upsert, so several server replicas agree.
 */
export async function claimExportSlot(db: Queryable, userId: number): Promise<void> {
  const rows = await db.query(
    `INSERT INTO export_throttle (user_id, last_export_at) VALUES ($1, clock_timestamp())
     ON CONFLICT (user_id) DO UPDATE SET last_export_at = clock_timestamp()
      WHERE export_throttle.last_export_at <= clock_timestamp() - $2 * interval '1 millisecond'
     RETURNING user_id`,
    [userId, EXPORT_THROTTLE_MS],
  );
  if (!rows.length) throw new BizError(ErrorCode.ExportTooFrequent);
}
