import type { DeviceKind, DeviceState } from './deviceKinds';
import type { Feature } from './features';

/** A device as deviceModule returns it (never with its secret). */
export interface Device {
  id: number;
  name: string;
  deviceNum: string | null;
  mac: string | null;
  deviceSn: string;
  ownerId: number;
  ownerName: string | null;
  ownerSubId: number;
  ownerSubName: string | null;
  manufactureDate: string;
  deviceType: string;
  aduVersion: string;
  bduVersion: string;
  manufactureInfo: string;
  deviceModel: string;
  deviceKind: DeviceKind;
  chipId: string | null;
  modemSn: string | null;
  hardware: string | null;
  mmsi: string | null;
  imo: string | null;
  callsign: string | null;
  status: DeviceState;
  speed: number | null;
  heading: number | null;
  activated: boolean;
  activatedAt: string | null;
  activatedBy: number | null;
  groupId: number | null;
  groupName: string | null;
  /** In the caller's "Special Focus". */
  pinned: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface DeviceGroup {
  /** -1 "Special Focus" and 0 "Ungrouped Device" are virtual. */
  id: number;
  name: string;
  ownerId: number | null;
  ownerName: string | null;
  deviceCount: number;
  virtual: boolean;
}

export interface DeviceAuthGrant {
  id: number;
  enterpriseId: number;
  enterpriseName: string | null;
  deviceId: number | null;
  deviceName: string | null;
  feature: Feature;
  deviceCount: number | null;
  subscriptionQuantity: number | null;
  deadline: string | null;
  createdAt: string;
}

/** One bad cell of an Excel import: the row number as Excel shows it, the column's header. */
export interface ImportRowError {
  row: number;
  column: string;
  message: string;
}
