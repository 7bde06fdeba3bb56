import type { LiveStateQuery } from '../../api/monitoringApi';
import { isDeviceKind } from '../../domain/deviceKinds';

/**
 * The status monitor's filters live in the URL (so the bell can open `?state=warn`, a refresh or
 * a shared link keeps them): state (online|offline|warn), kind, owner, sub, link (backup: on a
 * backup link now), q, page, size, sort, order, tab (status|alarms).
 */
export const STATE_BY_NAME = { offline: 0, online: 1, warn: 2 } as const;
export type StateName = keyof typeof STATE_BY_NAME;
export const STATE_NAMES: readonly StateName[] = ['online', 'offline', 'warn'];
export const PAGE_SIZES = [20, 50, 100] as const;
const SORTS = ['name', 'status', 'reportedAt', 'speed', 'ownerName', 'deviceKind'] as const;
export type MonitorSort = (typeof SORTS)[number];

export interface MonitorFilters {
  state: StateName | null;
  kind: string | null;
  owner: number | null;
  sub: number | null;
  /** 'backup': only vessels whose traffic goes over a backup link now. */
  link: 'backup' | null;
  q: string;
  page: number;
  size: number;
  sort: MonitorSort | null;
  order: 'asc' | 'desc';
}

const positiveInt = (value: string | null): number | null => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : null;
};

export function readFilters(params: URLSearchParams): MonitorFilters {
  const state = params.get('state');
  const kind = params.get('kind');
  const size = positiveInt(params.get('size'));
  const sort = params.get('sort');
  return {
    state: state && state in STATE_BY_NAME ? (state as StateName) : null,
    kind: isDeviceKind(kind) ? kind : null,
    owner: positiveInt(params.get('owner')),
    sub: positiveInt(params.get('sub')),
    link: params.get('link') === 'backup' ? 'backup' : null,
    q: (params.get('q') ?? '').slice(0, 64),
    page: positiveInt(params.get('page')) ?? 1,
    size: size && (PAGE_SIZES as readonly number[]).includes(size) ? size : PAGE_SIZES[0],
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as MonitorSort) : null,
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
  };
}

/** The URL parameters after a change; any filter change goes back to page 1. */
export function writeFilters(params: URLSearchParams, change: Partial<MonitorFilters>): URLSearchParams {
  const next = new URLSearchParams(params);
  const merged = { ...readFilters(params), ...change };
  if (!('page' in change)) merged.page = 1;
  const set = (key: string, value: string | number | null, fallback: string | number | null = null) => {
    if (value === null || value === '' || value === fallback) next.delete(key);
    else next.set(key, String(value));
  };
  set('state', merged.state);
  set('kind', merged.kind);
  set('owner', merged.owner);
  set('sub', merged.sub);
  set('link', merged.link);
  set('q', merged.q);
  set('page', merged.page, 1);
  set('size', merged.size, PAGE_SIZES[0]);
  set('sort', merged.sort);
  set('order', merged.sort ? merged.order : null, 'asc');
  return next;
}

/** The API query of a set of filters. */
export function toLiveQuery(f: MonitorFilters): LiveStateQuery {
  return {
    deviceStatus: f.state ? [STATE_BY_NAME[f.state]] : [],
    deviceType: f.kind ? [f.kind] : [],
    ownerId: f.owner ? [f.owner] : [],
    ownerSubId: f.sub ? [f.sub] : [],
    onBackup: f.link === 'backup',
    search: f.q.trim(),
    pageIndex: f.page,
    pageSize: f.size,
    sort: f.sort ?? 'id',
    order: f.sort ? f.order : 'asc',
  };
}
