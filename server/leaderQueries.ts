import type pg from 'pg';

/** The lock is per database and schema, so test servers in throw-away schemas do not compete. */
export const LEADER_LOCK_KEY = `hashtext(current_database() || '.' || current_schema() || '.fleet-leader')`;
const TRY_LOCK = `SELECT pg_try_advisory_lock(${LEADER_LOCK_KEY}) AS locked`;

/** Takes the leader's session advisory lock on this connection if no other session holds it (server/leader.ts). */
export async function tryLeaderLock(client: pg.Client): Promise<boolean> {
  return !!(await client.query<{ locked: boolean }>(TRY_LOCK)).rows[0]?.locked;
}

/** Checks that the leader's connection (and with it the lock) is still there; throws when it is not. */
export async function pingLeaderConnection(client: pg.Client): Promise<void> {
  await client.query('SELECT 1');
}
