import { DeviceKind, DeviceState, isDeviceKind } from '../domain/deviceKinds';
import type { ClientState } from './clientState';

/** The icon file name part of each state: the public/icons sets are <kind>-<online|offline|alarm>.svg. */
const STATE_NAME: Record<DeviceState, 'online' | 'offline' | 'alarm'> = { 0: 'offline', 1: 'online', 2: 'alarm' };

/** The default picture of a kind and state (public/icons). */
export function defaultDeviceIcon(kind: string, status: number): string {
  const state = STATE_NAME[status as DeviceState] ?? 'offline';
  return `/icons/${isDeviceKind(kind) ? kind : DeviceKind.Others}-${state}.svg`;
}

/**
 * The picture of a device's connection state (docs/requirements.md §1): the enterprise's uploaded antenna
 * icons for the antenna kind (client state, loaded after login), else the default set.
 */
export function deviceIcon(kind: string, status: number, icons: ClientState['icons']): string {
  if (kind === DeviceKind.Antenna) {
    const uploaded = icons[STATE_NAME[status as DeviceState] ?? 'offline'];
    if (uploaded) return uploaded;
  }
  return defaultDeviceIcon(kind, status);
}
