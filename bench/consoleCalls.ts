import { BELL_QUERY } from '../src/api/bellQuery';

const json = { 'content-type': 'application/json' };

/** The status monitor's first page of 20, every state, with the counts per state. */
export const MONITOR_PAGE_QUERY = {
  deviceStatus: [],
  deviceType: [],
  ownerId: [],
  ownerSubId: [],
  search: '',
  pageIndex: 1,
  pageSize: 20,
  sort: 'id',
  order: 'asc',
  withTotal: true,
};

/** One console call as autocannon (and fetch) takes it. */
export interface ConsoleCall {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * What an open console asks for, in turn (bench:soak's console users, bench:statements): the bell,
 * a status monitor page, a device list page, the status counts. `base`: the API's path
 * (`/cz/<segment>`); each call takes the user's token.
 */
export const consoleCalls = (base: string): { name: string; call: (token: string) => ConsoleCall }[] => [
  {
    name: 'bell',
    call: (t) => ({
      method: 'POST',
      path: `${base}/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition?token=${t}`,
      headers: json,
      body: JSON.stringify(BELL_QUERY),
    }),
  },
  {
    name: 'status monitor page',
    call: (t) => ({
      method: 'POST',
      path: `${base}/deviceModule/deviceGroup/getAllDeviceUploadDataWithCondition?token=${t}`,
      headers: json,
      body: JSON.stringify(MONITOR_PAGE_QUERY),
    }),
  },
  {
    name: 'device list page',
    call: (t) => ({ method: 'GET', path: `${base}/deviceModule/device/getAll?pageIndex=1&pageSize=20&token=${t}` }),
  },
  { name: 'status counts', call: (t) => ({ method: 'GET', path: `${base}/deviceModule/monitor/statusCounts?token=${t}` }) },
];
