import type { Level } from './levels';

/** A user as the /cz users module returns it (never with a password). */
export interface User {
  id: number;
  name: string;
  nickname: string | null;
  parentId: number | null;
  permissionLevel: Level;
  department: string | null;
  sex: string | null;
  email: string | null;
  signature: string | null;
  company: string | null;
  userType: string | null;
  createdAt: string;
}

export interface NameItem {
  id: number;
  name: string;
}

export interface Page<T> {
  list: T[];
  total: number;
}

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}
