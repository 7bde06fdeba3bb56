import { DeviceState } from '../../domain/deviceKinds';
import { STATE_COLOURS } from '../../map/vesselStyle';

/** The connection states' colours by name for the vessel pages (bands, chips): the fleet map's palette. */
export const STATE_COLORS = {
  online: STATE_COLOURS[DeviceState.Online]!,
  warn: STATE_COLOURS[DeviceState.Warn]!,
  offline: STATE_COLOURS[DeviceState.Offline]!,
} as const;
/** State names indexed by status number (0 offline, 1 online, 2 warn). */
export const STATE_NAMES = ['offline', 'online', 'warn'] as const;
