import type { AuthProvider } from 'react-admin';
import { canAccessResource } from '../../src/navigation/access';
import { getState } from '../../src/state/clientState';

/** An authProvider that answers as the console's does, from the level in the client state (the component tests set it). */
export const levelAuthProvider: AuthProvider = {
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => getState().permissionLevel,
  canAccess: async ({ resource, action }) => canAccessResource(getState().permissionLevel, resource, action),
};
