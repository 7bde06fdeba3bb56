import { usersApi } from '../api/usersApi';
import type { User } from '../domain/user';
import { getState, setState, setToken } from './clientState';
import { loadIcons } from './icons';

/** Fetches the logged-in user into the client state (roles = [permissionLevel]). */
export async function loadUser(): Promise<User> {
  const user = await usersApi.getSelf();
  setState({
    name: user.name,
    nickName: user.nickname,
    id: user.id,
    parentId: user.parentId,
    permissionLevel: user.permissionLevel,
    roles: [user.permissionLevel],
  });
  void loadIcons();
  return user;
}

export const hasUser = (): boolean => getState().roles.length > 0 && getState().id !== null;

/** Logs in, stores the token and loads the user (the login page, the login-again dialog). */
export async function loginWith(name: string, password: string): Promise<User> {
  const { token } = await usersApi.login(name, password, getState().timeZone);
  setToken(token);
  setState({ relogin: false });
  return loadUser();
}
