import { LANGUAGE_COOKIE } from '../domain/constants';

/** Every cookie and storage key the console uses (docs/requirements.md §3, client storage). */
export const CookieKey = {
  token: 'token',
  sidebar: 'sidebarStatus',
  language: LANGUAGE_COOKIE,
  size: 'size',
  notice: 'noticeFlag',
  timeZone: 'timeZone',
} as const;

export const LocalKey = {
  baseURL: 'baseURL',
  gateway: 'gateway',
  serverIp: 'serverIp',
  clientIp: 'clientIp',
  autoLogin: 'autoLogin',
  rememberedName: 'rememberedName',
  rememberedSecret: 'rememberedSecret',
  theme: 'theme',
} as const;

export const SESSION_STATE_KEY = 'consoleState';
