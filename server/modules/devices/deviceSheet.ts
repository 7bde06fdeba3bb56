import type { Language } from '../../../src/domain/constants';
import type { Device } from '../../../src/domain/device';
import { DEVICE_STATE_KEYS, DEVICE_KIND_LABELS } from '../../../src/domain/deviceKinds';
import { deviceFieldKey } from '../../../src/domain/deviceSchemas';
import { translateDomain } from '../../../src/domain/messages';
import type { ExportValue } from '../../http/exportFile';

/** The columns of an export, each with its header key and how to write a device's value. */
const EXPORT_COLUMNS: { field: string; value: (d: Device, lang: Language) => ExportValue }[] = [
  { field: 'id', value: (d) => d.id },
  { field: 'name', value: (d) => d.name },
  { field: 'deviceNum', value: (d) => d.deviceNum },
  { field: 'mac', value: (d) => d.mac },
  { field: 'deviceSn', value: (d) => d.deviceSn },
  { field: 'ownerId', value: (d) => d.ownerName },
  { field: 'ownerSubId', value: (d) => d.ownerSubName },
  { field: 'manufactureDate', value: (d) => d.manufactureDate },
  { field: 'deviceType', value: (d) => d.deviceType },
  { field: 'aduVersion', value: (d) => d.aduVersion },
  { field: 'bduVersion', value: (d) => d.bduVersion },
  { field: 'manufactureInfo', value: (d) => d.manufactureInfo },
  { field: 'deviceModel', value: (d) => d.deviceModel },
  { field: 'deviceKind', value: (d) => DEVICE_KIND_LABELS[d.deviceKind] ?? d.deviceKind },
  { field: 'chipId', value: (d) => d.chipId },
  { field: 'modemSn', value: (d) => d.modemSn },
  { field: 'hardware', value: (d) => d.hardware },
  { field: 'mmsi', value: (d) => d.mmsi },
  { field: 'imo', value: (d) => d.imo },
  { field: 'callsign', value: (d) => d.callsign },
  { field: 'status', value: (d, lang) => translateDomain(lang, DEVICE_STATE_KEYS[d.status]) },
  { field: 'activated', value: (d, lang) => translateDomain(lang, d.activated ? 'activation.activated' : 'activation.notActivated') },
  { field: 'activatedAt', value: (d) => (d.activatedAt ? new Date(d.activatedAt) : null) },
  { field: 'groupName', value: (d) => d.groupName },
];

export const exportHeaders = (lang: Language) => EXPORT_COLUMNS.map((c) => translateDomain(lang, deviceFieldKey(c.field)));
export const exportRow = (d: Device, lang: Language) => EXPORT_COLUMNS.map((c) => c.value(d, lang));
