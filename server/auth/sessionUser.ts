import type { User } from '../../src/domain/user';

/** The caller: the user row as getSelf answers it (with its parent's name). */
export type SessionUser = User & { parentName: string | null };
