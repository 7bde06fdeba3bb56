import { Level } from '../domain/levels';
import type { ReferenceDef } from './types';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * A user as people know it: its display name (nickname, "Oceanic Shipping"), else its company
 * ("Oceanic Shipping Co."), else its login name ("oceanic"). users/getAll's `name` filter matches
 * all three, so what is shown can be typed.
 */
export const userDisplayName = (user: Record<string, unknown>): string =>
  text(user.nickname) || text(user.company) || String(user.name ?? '');

/**
 * The references definitions share (docs/extending.md): a vessel picked by name (searched like the
 * device list), an enterprise by the name people know it by, or a sub-user by name.
 */
export const VESSEL_REFERENCE: ReferenceDef = { resource: 'system/deviceManagement', optionText: 'name', searchField: 'search' };
export const ENTERPRISE_REFERENCE: ReferenceDef = {
  resource: 'system/user',
  filter: { permissionLevel: Level.Enterprise },
  optionText: userDisplayName,
  searchField: 'name',
};
export const SUB_USER_REFERENCE: ReferenceDef = {
  resource: 'system/user',
  filter: { permissionLevel: Level.SubUser },
  optionText: 'name',
  searchField: 'name',
};
