import type { Db } from './connection';
import { hashPassword } from '../auth/password';
import { DEMO_ACCOUNTS } from './demoAccounts';
import { seedDevices } from './seedDevices';

/** Loads the demo data into an empty database; returns false when users already exist. */
export async function seedDemo(db: Db): Promise<boolean> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
  if (row!.n > 0) return false;
  await db.transaction(async (tx) => {
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
  });
  return true;
}
