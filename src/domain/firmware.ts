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
