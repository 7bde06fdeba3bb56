/** Device kinds and connection states of docs/requirements.md §1 (icon sets) and §7 (warn = 2). */
export const DeviceKind = {
  Antenna: 'antenna',
  Vsat: 'vsat',
  Lte: '4g',
  Microwave: 'microwave',
  VBox: 'vbox',
  Others: 'others',
} as const;
export type DeviceKind = (typeof DeviceKind)[keyof typeof DeviceKind];
export const DEVICE_KINDS: readonly DeviceKind[] = Object.values(DeviceKind);
export const isDeviceKind = (value: unknown): value is DeviceKind => (DEVICE_KINDS as readonly unknown[]).includes(value);

/**
 * What a device of each kind has, so what its reports carry (docs/devices.md, "What each kind
 * reports"): satellite pointing (azimuth, elevation, skew and the satellite; absent without a
 * satellite link, src/domain/reportSchema.ts) and a 4G signal (lteSignal: a 4G router always, a
 * vBox where there is coverage, null or absent otherwise).
 */
export const KIND_REPORTS: Record<DeviceKind, { satellite: boolean; lte: boolean }> = {
  antenna: { satellite: true, lte: false },
  vsat: { satellite: true, lte: false },
  '4g': { satellite: false, lte: true },
  microwave: { satellite: false, lte: false },
  vbox: { satellite: true, lte: true },
  others: { satellite: false, lte: false },
};

/** Names in export files (the same in both languages); an import also takes the kind's id and its name in either language (DEVICE_KIND_KEYS). */
export const DEVICE_KIND_LABELS: Record<DeviceKind, string> = {
  antenna: 'Antenna',
  vsat: 'VSAT',
  '4g': '4G',
  microwave: 'Microwave',
  vbox: 'vBox',
  others: 'Others',
};

/** The console's message key of each kind (messages.ts: deviceKind.*), translated per language. */
export const DEVICE_KIND_KEYS: Record<DeviceKind, string> = {
  antenna: 'deviceKind.antenna',
  vsat: 'deviceKind.vsat',
  '4g': 'deviceKind.4g',
  microwave: 'deviceKind.microwave',
  vbox: 'deviceKind.vbox',
  others: 'deviceKind.others',
};

/** Connection state as a status number; the alarm poll looks for 2. */
export const DeviceState = { Offline: 0, Online: 1, Warn: 2 } as const;
export type DeviceState = (typeof DeviceState)[keyof typeof DeviceState];
export const DEVICE_STATES: readonly DeviceState[] = [DeviceState.Offline, DeviceState.Online, DeviceState.Warn];
export const isDeviceState = (value: unknown): value is DeviceState => (DEVICE_STATES as readonly unknown[]).includes(value);

/** Message key of each state (messages.ts: deviceState.*). */
export const DEVICE_STATE_KEYS: Record<DeviceState, string> = {
  0: 'deviceState.offline',
  1: 'deviceState.online',
  2: 'deviceState.warn',
};

/** Which picture type (pictures.ts) an enterprise may upload for a state of the antenna kind. */
export const STATE_ICON_FILE_TYPE: Record<DeviceState, 2 | 3 | 4> = { 1: 2, 0: 3, 2: 4 };

/** The virtual groups every user sees beside its enterprise's groups. */
export const VirtualGroup = { SpecialFocus: -1, Ungrouped: 0 } as const;
export type VirtualGroup = (typeof VirtualGroup)[keyof typeof VirtualGroup];
export const VIRTUAL_GROUP_KEYS: Record<VirtualGroup, string> = {
  [-1]: 'deviceGroup.specialFocus',
  0: 'deviceGroup.ungrouped',
};
