import * as yup from 'yup';
import { blankToUndefined, idRule, isRealDate, optionalPattern, requiredText } from './schemaRules';
import { DEVICE_KINDS } from './deviceKinds';
import { FEATURES } from './features';

/** The device rules of docs/requirements.md §5, written once for the console's forms, the API and the import. */
export const DEVICE_NUM_PATTERN = /^[0-9A-F]{8}$/;
export const MAC_PATTERN = /^[0-9A-Fa-f]{2}(\.[0-9A-Fa-f]{2}){5}$/;
/** The bare form (12 hex digits, docs/requirements.md §5); the import turns it into the dotted one. */
export const BARE_MAC_PATTERN = /^[0-9A-Fa-f]{12}$/;
export const SN_PATTERN = /^\S+$/;
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
export const MMSI_PATTERN = /^\d{9}$/;
export const IMO_PATTERN = /^\d{7}$/;
export const CALLSIGN_PATTERN = /^[A-Za-z0-9]{3,10}$/;
/** Group names may not contain these (docs/requirements.md §5): the virtual groups' names in both languages. */
export const RESERVED_GROUP_NAMES = ['Special Focus', 'Ungrouped Device', '特别关注', '未分组设备'] as const;

/**
 * The latest day it is anywhere on earth (UTC+14, YYYY-MM-DD): a manufacture date after it is in
 * the future for everyone, and one up to it is today somewhere, so no user's today is refused.
 */
export const latestToday = (now = Date.now()) => new Date(now + 14 * 3_600_000).toISOString().slice(0, 10);

export const deviceFields = {
  name: requiredText(64),
  deviceNum: optionalPattern(DEVICE_NUM_PATTERN, 'validation.deviceNum'),
  mac: optionalPattern(MAC_PATTERN, 'validation.mac').transform((v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v)),
  deviceSn: yup
    .string()
    .transform(blankToUndefined)
    .required('validation.required')
    .matches(SN_PATTERN, 'validation.snNoSpace')
    .max(64, 'validation.tooLong'),
  ownerId: idRule().required('validation.required').min(1, 'validation.required'),
  /** The sub-user of the owner the device is assigned to; 0 means none. */
  ownerSubId: idRule().required('validation.required').min(0, 'validation.integer'),
  manufactureDate: yup
    .string()
    .transform(blankToUndefined)
    .trim()
    .required('validation.required')
    .matches(DATE_PATTERN, 'validation.date')
    .test('real-date', 'validation.date', isRealDate)
    .test('not-future', 'validation.notFuture', (v) => !v || !DATE_PATTERN.test(v) || v <= latestToday()),
  deviceType: requiredText(32),
  aduVersion: requiredText(32),
  bduVersion: requiredText(32),
  manufactureInfo: requiredText(200),
  deviceModel: requiredText(64),
  deviceKind: yup
    .string()
    .transform(blankToUndefined)
    .required('validation.required')
    .oneOf([...DEVICE_KINDS], 'validation.deviceKind'),
  chipId: optionalPattern(/^.{1,64}$/, 'validation.tooLong'),
  modemSn: optionalPattern(/^.{1,64}$/, 'validation.tooLong'),
  hardware: optionalPattern(/^.{1,64}$/, 'validation.tooLong'),
  mmsi: optionalPattern(MMSI_PATTERN, 'validation.mmsi'),
  imo: optionalPattern(IMO_PATTERN, 'validation.imo'),
  callsign: optionalPattern(CALLSIGN_PATTERN, 'validation.callsign'),
};

export const deviceSchema = yup.object(deviceFields);
export const updateDeviceSchema = yup.object({ id: idRule().required('validation.required'), ...deviceFields });

/** The fields in form and import order (the import template's columns). */
export const DEVICE_FIELDS = Object.keys(deviceFields) as (keyof typeof deviceFields)[];
export type DeviceField = (typeof DEVICE_FIELDS)[number];
/** Message key of a field's label (messages.ts: deviceField.*). */
export const deviceFieldKey = (field: string) => `deviceField.${field}`;

export const containsReservedGroupName = (name: string | undefined) =>
  !!name && RESERVED_GROUP_NAMES.some((reserved) => name.toLowerCase().includes(reserved.toLowerCase()));

export const groupNameRule = yup
  .string()
  .transform(blankToUndefined)
  .trim()
  .required('validation.required')
  .max(32, 'validation.tooLong')
  .test('not-reserved', 'validation.groupNameReserved', (value) => !containsReservedGroupName(value));

export const deviceGroupSchema = yup.object({
  name: groupNameRule,
  /** The enterprise the group belongs to; admins choose it, enterprises get their own. */
  ownerId: idRule().optional().nullable(),
});
export const updateDeviceGroupSchema = yup.object({ id: idRule().required('validation.required'), name: groupNameRule });

const idList = (max: number) =>
  yup
    .array(idRule().required('validation.required'))
    .required('validation.required')
    .min(1, 'validation.required')
    .max(max, 'validation.tooLong');

/** Moves devices into a group; groupId 0 takes them out of every group ("Ungrouped Device"). */
export const moveDevicesSchema = yup.object({
  groupId: idRule().required('validation.required').min(0, 'validation.integer'),
  deviceIds: idList(1000),
});
export const deviceIdsSchema = yup.object({ deviceIds: idList(1000) });

export const activationSchema = yup.object({
  id: idRule().required('validation.required'),
  ownerId: idRule().required('validation.required').min(1, 'validation.required'),
  ownerSubId: idRule().min(0, 'validation.integer').optional().nullable(),
});

export const deviceAuthGrantSchema = yup.object({
  enterpriseId: idRule().required('validation.required'),
  /** Absent or null: the grant covers every device of the enterprise. */
  deviceId: idRule().optional().nullable(),
  feature: yup
    .string()
    .required('validation.required')
    .oneOf([...FEATURES], 'validation.feature'),
  deviceCount: idRule().min(0, 'validation.integer').optional().nullable(),
  subscriptionQuantity: idRule().min(0, 'validation.integer').optional().nullable(),
  deadline: yup
    .string()
    .transform(blankToUndefined)
    .matches(DATE_PATTERN, 'validation.date')
    .test('real-date', 'validation.date', isRealDate)
    .optional()
    .nullable(),
});
export const updateDeviceAuthGrantSchema = deviceAuthGrantSchema.shape({ id: idRule().required('validation.required') });

/** The whole set of an enterprise's vessels one sub-user may see (replaces the previous set). */
export const subUserGrantSchema = yup.object({
  subUserId: idRule().required('validation.required'),
  deviceIds: yup.array(idRule().required('validation.required')).required('validation.required').max(100_000, 'validation.tooLong'),
  /** Of deviceIds, those the sub-user may also send commands to; not given: the flags stay as they are. */
  commandDeviceIds: yup.array(idRule().required('validation.required')).max(100_000, 'validation.tooLong').optional(),
});

export type DeviceInput = yup.InferType<typeof deviceSchema>;
export type UpdateDeviceInput = yup.InferType<typeof updateDeviceSchema>;
export type DeviceAuthGrantInput = yup.InferType<typeof deviceAuthGrantSchema>;
