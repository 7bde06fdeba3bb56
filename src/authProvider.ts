import type { AuthProvider } from 'react-admin';
import { usersApi } from './api/usersApi';
import { ErrorCode } from './domain/errorCodes';
import { canAccessResource } from './navigation/access';
import { clearSession, getState } from './state/clientState';
import { forgetLogin, rememberLogin } from './state/rememberedLogin';
import { hasUser, loadUser, loginWith } from './state/session';

/**
 * Login, logout and the session states of docs/requirements.md §4:
 * - no token: checkAuth rejects, react-admin goes to /login (only /login and /auth-redirect open);
 * - token but no roles: the user is fetched once, then navigation goes on;
 * - the user fetch fails: forced local logout, then /;
 * - a page the level may not open: canAccess says no and the guard shows /401.
 */
export interface AuthDeps {
  /** Leaves the page for a fresh load (tests replace it). */
  reload: (to: string) => void;
}

const defaultDeps: AuthDeps = { reload: (to) => window.location.assign(to) };

const codeOf = (error: unknown): number | undefined => {
  const e = error as { code?: unknown; body?: { code?: unknown } } | null;
  const code = e?.code ?? e?.body?.code;
  return typeof code === 'number' ? code : undefined;
};

/** Codes whose dialogs the error catalogue shows; react-admin must not log out on them. */
const CATALOGUE_CODES: readonly number[] = [
  ErrorCode.LoggedInElsewhere,
  ErrorCode.SessionTimeout,
  ErrorCode.KickedOut,
  ErrorCode.KickedOutByAdmin,
];

export interface LoginParams {
  username: string;
  password: string;
  remember?: boolean;
  redirectTo?: string;
}

export function createAuthProvider(deps: AuthDeps = defaultDeps): AuthProvider {
  return {
    async login({ username, password, remember, redirectTo }: LoginParams) {
      await loginWith(username, password);
      if (remember === true) await rememberLogin(username, password);
      else if (remember === false) forgetLogin();
      return { redirectTo: redirectTo ?? '/' };
    },

    async logout() {
      const token = getState().token;
      clearSession();
      // react-admin also calls logout when checkAuth fails (no token): that is no logout of the
      // user's, so the remembered login stays for the login page. A real logout forgets it
      // (docs/requirements.md §4: logout clears stored data).
      if (!token) return undefined;
      forgetLogin();
      try {
        await usersApi.logout(token);
      } catch {
        /* the local data is gone either way */
      }
      deps.reload('/login');
      return false;
    },

    async checkAuth() {
      if (!getState().token) throw { redirectTo: '/login', message: false };
      if (hasUser()) return;
      try {
        await loadUser();
      } catch {
        clearSession();
        throw { redirectTo: '/', message: false };
      }
    },

    async checkError(error: unknown) {
      const code = codeOf(error);
      if (code !== undefined && CATALOGUE_CODES.includes(code)) return;
      const status = (error as { status?: number } | null)?.status;
      if (code === ErrorCode.TokenMissing || code === ErrorCode.TokenInvalid || status === 401) {
        throw { redirectTo: '/login', message: false };
      }
    },

    async getIdentity() {
      if (!hasUser()) await loadUser();
      const { id, name, nickName, permissionLevel, parentId } = getState();
      return { id: id!, fullName: nickName || name || '', name, permissionLevel, parentId };
    },

    async getPermissions() {
      if (!getState().token) return null;
      if (!hasUser()) await loadUser();
      return getState().permissionLevel;
    },

    /** The action's levels from the resource's definition (a page: its levels); anything undeclared is denied. */
    async canAccess({ resource, action }: { resource: string; action: string }) {
      if (!getState().token) return false;
      if (!hasUser()) await loadUser();
      return canAccessResource(getState().permissionLevel, resource, action);
    },
  };
}
