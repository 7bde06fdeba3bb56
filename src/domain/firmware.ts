import * as yup from 'yup';
import { blankToUndefined, idRule, requiredText } from './schemaRules';
import { FIRMWARE_VERSION_PATTERN } from './reportSchema';

/**
 * Firmware packages and their rollouts (docs/requirements.md §§3 and 5), written once for the console's
 * forms, the API and the device API.
 */
export { FIRMWARE_VERSION_PATTERN };
export const FIRMWARE_VERSION_TYPES = ['release', 'beta'] as const;
export type FirmwareVersionType = (typeof FIRMWARE_VERSION_TYPES)[number];

/** A device's update state in a rollout; queued waits for a slot, the next three hold one. */
export const UPDATE_STATES = ['queued', 'downloading', 'downloaded', 'updating', 'updated', 'failed'] as const;
export type UpdateState = (typeof UPDATE_STATES)[number];
export const ACTIVE_UPDATE_STATES: readonly UpdateState[] = ['downloading', 'downloaded', 'updating'];
export const UNFINISHED_UPDATE_STATES: readonly UpdateState[] = ['queued', ...ACTIVE_UPDATE_STATES];

/** What a device may report next from each state (the same state again carries progress). */
export const NEXT_UPDATE_STATES: Readonly<Record<UpdateState, readonly UpdateState[]>> = {
  queued: [],
  downloading: ['downloading', 'downloaded', 'failed'],
  downloaded: ['updating', 'failed'],
  updating: ['updating', 'updated', 'failed'],
  updated: [],
  failed: [],
};
export const REPORTABLE_UPDATE_STATES: readonly UpdateState[] = ['downloading', 'downloaded', 'updating', 'updated', 'failed'];

/** The derived status of a package in the list: never rolled out, rolling out, or every rollout finished. */
export const FIRMWARE_STATUSES = ['none', 'rollingOut', 'finished'] as const;
export type FirmwareStatus = (typeof FIRMWARE_STATUSES)[number];

/** A firmware package as the API returns it (firmware/getAll, getById, add, update); the server's row adds its storage key. */
export interface FirmwarePackage {
  id: number;
  name: string;
  version: string;
  deviceType: string;
  customer: string;
  model: string;
  versionType: string;
  enabled: boolean;
  updateInfo: string | null;
  fileSize: number;
  sha256: string;
  createdAt: string;
  updatedAt: string;
  rollouts: number;
  targets: number;
  updatedCount: number;
  failedCount: number;
  unfinishedCount: number;
  status: FirmwareStatus;
}

/** A rollout of one package with its devices counted by update state (firmware/rollout/getAll, add, cancel). */
export interface Rollout {
  id: number;
  firmwareId: number;
  version: string;
  model: string;
  maxConcurrent: number;
  groupId: number | null;
  createdAt: string;
  cancelledAt: string | null;
  total: number;
  counts: Record<UpdateState, number>;
}

/** Default of the size limit (FIRMWARE_MAX_MB); the server states the one in force (firmware/getConfig). */
export const FIRMWARE_DEFAULT_MAX_MB = 512;
export const ROLLOUT_MAX_CONCURRENT = 1000;
export const ROLLOUT_MAX_DEVICES = 10_000;
/** A device holding a slot that has said nothing for this long is marked failed and frees its slot. */
export const ROLLOUT_STALL_MINUTES = 15;

export const firmwareFields = {
  deviceType: requiredText(32),
  customer: requiredText(64),
  model: requiredText(64),
  version: yup
    .string()
    .transform(blankToUndefined)
    .trim()
    .required('validation.required')
    .matches(FIRMWARE_VERSION_PATTERN, 'validation.firmwareVersion'),
  versionType: yup
    .string()
    .transform(blankToUndefined)
    .oneOf([...FIRMWARE_VERSION_TYPES], 'validation.firmwareVersionType')
    .default('release'),
  enabled: yup.boolean().typeError('validation.boolean').default(true),
  updateInfo: yup.string().transform(blankToUndefined).trim().max(2000, 'validation.tooLong').optional().nullable(),
};

/** The upload form's fields (the file travels beside them). */
export const firmwareSchema = yup.object(firmwareFields);
/** What can change after the upload: the file, type, model and version stay as uploaded. */
export const updateFirmwareSchema = yup.object({
  id: idRule().required('validation.required'),
  customer: firmwareFields.customer,
  versionType: firmwareFields.versionType,
  enabled: firmwareFields.enabled,
  updateInfo: firmwareFields.updateInfo,
});
export const setFirmwareEnabledSchema = yup.object({
  id: idRule().required('validation.required'),
  enabled: yup.boolean().typeError('validation.boolean').required('validation.required'),
});

/**
 * A package's customer that means "every customer" (docs/architecture.md, Firmware): such a shared
 * package is offered to the devices of every enterprise; any other customer names the enterprise
 * (its company, nickname or login name, case and spaces aside) whose devices alone may take it.
 */
export const SHARED_FIRMWARE_CUSTOMERS = ['*', 'all', 'shared', 'general', 'common', '通用', '全部', '共享'] as const;
const customerKey = (text: string | null | undefined) => (text ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
export const isSharedCustomer = (customer: string): boolean =>
  (SHARED_FIRMWARE_CUSTOMERS as readonly string[]).includes(customerKey(customer));
/** The customer as compared with an enterprise's names (trimmed, inner spaces single, lower case); null for a shared package. */
export const customerMatchKey = (customer: string): string | null => (isSharedCustomer(customer) ? null : customerKey(customer));
/** Whether a package of this customer may go to a device of this owner enterprise (null: a device without owner takes shared packages only). */
export function customerFits(
  customer: string,
  owner: { name?: string | null; nickname?: string | null; company?: string | null } | null,
): boolean {
  if (isSharedCustomer(customer)) return true;
  const wanted = customerKey(customer);
  return !!owner && !!wanted && [owner.company, owner.nickname, owner.name].some((n) => customerKey(n) === wanted);
}

/** A firmware version's numbers (V2.2.6 -> [2, 2, 6]; a suffix such as -beta is ignored); null when it has none. */
export function versionNumbers(version: string | null | undefined): number[] | null {
  const m = /^\s*V?(\d+)\.(\d+)\.(\d+)/i.exec(version ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}
/** Negative when a is older than b, 0 when the same numbers, null when either has no numbers. */
export function compareVersions(a: string | null | undefined, b: string | null | undefined): number | null {
  const x = versionNumbers(a);
  const y = versionNumbers(b);
  if (!x || !y) return null;
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
/**
 * Whether installing the package would take the device back: its version is older than the
 * device's ADU version (the version the device runs, docs/api.md firmware). A rollout with such
 * devices goes ahead only with allowDowngrade (the console asks for an explicit confirmation).
 */
export const isDowngrade = (packageVersion: string, deviceVersion: string | null | undefined): boolean =>
  (compareVersions(packageVersion, deviceVersion) ?? 0) < 0;

/** A rollout: the devices named (of the package's type and model), or those of one group; N at a time. */
export const rolloutSchema = yup
  .object({
    firmwareId: idRule().required('validation.required'),
    deviceIds: yup.array(idRule().required('validation.required')).max(ROLLOUT_MAX_DEVICES, 'validation.tooLong').optional(),
    groupId: idRule().min(1, 'validation.integer').optional().nullable(),
    maxConcurrent: idRule()
      .required('validation.required')
      .min(1, 'validation.rolloutConcurrency')
      .max(ROLLOUT_MAX_CONCURRENT, 'validation.rolloutConcurrency'),
    /** The caller confirmed that devices with a newer version take this older package. */
    allowDowngrade: yup.boolean().typeError('validation.boolean').optional(),
  })
  .test('devices-or-group', 'validation.rolloutDevices', function check(value) {
    if ((value?.deviceIds?.length ?? 0) > 0 || value?.groupId) return true;
    return this.createError({ path: 'deviceIds', message: 'validation.rolloutDevices' });
  });

/** What a device reports about its update. */
export const updateReportSchema = yup.object({
  rolloutId: idRule().required('validation.required'),
  state: yup
    .string()
    .required('validation.required')
    .oneOf([...REPORTABLE_UPDATE_STATES], 'validation.updateState'),
  progress: yup
    .number()
    .typeError('validation.integer')
    .min(0, 'validation.progress')
    .max(100, 'validation.progress')
    .optional()
    .nullable(),
  message: yup.string().max(200, 'validation.tooLong').optional().nullable(),
});

export type FirmwareInput = yup.InferType<typeof firmwareSchema>;
export type RolloutInput = yup.InferType<typeof rolloutSchema>;
export type UpdateReport = yup.InferType<typeof updateReportSchema>;
