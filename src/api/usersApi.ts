import type { NameItem, User } from '../domain/user';
import { ErrorCode } from '../domain/errorCodes';
import { request } from './client';
import { ApiError } from './errors';

/** Calls of the users module that are not plain resource CRUD. */
export interface Picture {
  fileType: number;
  content: string;
  ownerId: number;
}

export const usersApi = {
  /** `timeZone`: the console's UTC offset in hours; the user's alarm mails use it. */
  login: (name: string, password: string, timeZone: number) =>
    request<{ token: string }>('/users/login', { method: 'POST', form: { name, password, timeZone: String(timeZone) }, token: null }),
  logout: (token: string | null) => request<null>('/users/logout', { method: 'POST', token, quiet: true }),
  getSelf: () => request<User>('/users/getSelf'),
  updatePassword: (id: number, password: string) => request<null>('/users/updatePassword', { method: 'POST', query: { id, password } }),
  updatePasswordSelf: (id: number, password: string) =>
    request<null>('/users/updatePasswordSelf', { method: 'POST', query: { id, password } }),
  updateUser: (user: Partial<User> & { id: number }) => request<User>('/users/updateUser', { method: 'POST', json: user }),
  enterpriseNames: () => request<NameItem[]>('/users/getEnterpriseUserNameList'),
  subUserNames: () => request<NameItem[]>('/users/getSubEnterpriseUserNameList'),
  pictures: () => request<Picture[]>('/users/getPictureListByUid', { quiet: true }),
  uploadPicture: (fileType: number, file: File) => {
    const formData = new FormData();
    formData.append('fileType', String(fileType));
    formData.append('file', file);
    return request<{ fileType: number; size: number }>('/users/uploadFile', { method: 'POST', query: { fileType }, formData });
  },
  restorePicture: (fileType: number) =>
    request<{ deleted: boolean }>('/users/deleteOneByFileType', { method: 'DELETE', query: { fileType } }),
};

/** docs/requirements.md §7: the alarm poll. Code 10 (endpoint not there yet) means no alarms. */
export interface AlarmQuery {
  deviceId?: number;
  deviceStatus: number[];
  deviceType?: number[];
  ownerSubId?: number[];
  ownerId?: number[];
  /** Ours: only devices with an alarm nobody acknowledged. */
  unacknowledgedOnly?: boolean;
  pageIndex?: number;
  pageSize?: number;
}

/** The bell's poll: a background call (the console asks by itself), so it does not keep the session alive. */
export async function fetchAlarmCount(query: AlarmQuery): Promise<number> {
  let data: unknown;
  try {
    data = await request<unknown>('/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition', {
      method: 'POST',
      json: query,
      quiet: [ErrorCode.RouteNotFound],
      revalidate: true,
      background: true,
    });
  } catch (error) {
    if (error instanceof ApiError && error.code === ErrorCode.RouteNotFound) return 0;
    throw error;
  }
  if (Array.isArray(data)) return data.length;
  if (data && typeof data === 'object' && Array.isArray((data as { list?: unknown }).list))
    return (data as { list: unknown[] }).list.length;
  return 0;
}
