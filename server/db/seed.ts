import type { Db } from './connection';
import { hashPassword } from '../auth/password';
import { DEMO_ACCOUNTS } from './demoAccounts';
import { seedDevices } from './seedDevices';
import { seedStory } from './seedStory';
import { seedNotifications } from './seedNotifications';

/**
 * Loads the demo data into an empty database; returns false when users already exist. On
 * PostgreSQL replicas started together take turns (advisory lock), so one of them seeds.
 */
export async function seedDemo(db: Db): Promise<boolean> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  if (row!.n > 0) return false;
  return db.transaction(async (tx) => {
    if (db.engine === 'postgres') {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext(current_database() || '.' || current_schema() || '.fleet-seed'))`);
      const [again] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
      if (again!.n > 0) return false;
    }
    const ids = new Map<string, number>();
    for (const a of DEMO_ACCOUNTS) {
      const [inserted] = await tx.query<{ id: number }>(
        `INSERT INTO users (name, nickname, password_hash, permission_level, parent_id, company)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [a.name, a.nickname, await hashPassword(a.password), a.permissionLevel, a.parent ? ids.get(a.parent) : null, a.company ?? null],
      );
      ids.set(a.name, inserted!.id);
    }
    await seedDevices(tx, ids);
    // A month of history and the records around it (server/db/seedStory.ts), so a first look shows a
    // fleet with a past; SEED_STORY=0 leaves it out (tests that need an empty history).
    if (process.env.SEED_STORY !== '0') await seedStory(tx, ids, Date.now(), Number(process.env.SIMULATOR_SEED ?? 1));
    await seedNotifications(tx, ids);
    return true;
  });
}
