import type { Queryable } from '../../db/connection';

/**
 * A sub-user subscribes to (or leaves) a rule of its enterprise that covers one of its granted
 * vessels (all vessels, or one of the chosen vessels or groups); answers false when no such rule.
 */
export async function setSubscription(db: Queryable, ruleId: number, userId: number, enterpriseId: number, on: boolean): Promise<boolean> {
  const rows = await db.query(
    `UPDATE alarm_rules r
        SET user_ids = CASE WHEN $4::boolean
                            THEN (SELECT jsonb_agg(DISTINCT v) FROM jsonb_array_elements(COALESCE(r.user_ids, '[]') || to_jsonb($2::int)) AS e(v))
                            ELSE COALESCE((SELECT jsonb_agg(v) FROM jsonb_array_elements(COALESCE(r.user_ids, '[]')) AS e(v) WHERE v <> to_jsonb($2::int)), '[]') END,
            updated_at = now()
      WHERE r.id = $1 AND r.owner_id = $3
        AND EXISTS (
          SELECT 1 FROM sub_user_grants g WHERE g.sub_user_id = $2 AND alarm_rule_covers(r.device_ids, r.group_ids, g.device_id))
      RETURNING r.id`,
    [ruleId, userId, enterpriseId, on],
  );
  return rows.length > 0;
}
