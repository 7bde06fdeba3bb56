import type { Queryable } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level, type Principal } from '../../../src/domain/levels';
import type { FieldError } from '../../../src/domain/validate';
import type { DeviceInput } from '../../../src/domain/deviceSchemas';
import { BizError } from '../../http/envelope';
import { ownerForWrite } from '../../auth/deviceScope';
import { isUniqueViolation } from '../../db/uniqueViolation';
import { devicesHoldingUniqueValues } from './deviceQueries';
import { loadOwners, type OwnerRow } from './ownerQueries';

/** The unique fields of a device and the message naming each. */
export const UNIQUE_FIELDS = [
  { field: 'deviceNum', column: 'device_num', message: 'error.duplicateDeviceNum' },
  { field: 'deviceSn', column: 'device_sn', message: 'error.duplicateDeviceSn' },
  { field: 'mac', column: 'mac', message: 'error.duplicateMac' },
] as const;
type UniqueField = (typeof UNIQUE_FIELDS)[number]['field'];

/**
 * Owner and sub-owner of a device being written: an admin's choice must be an enterprise and one
 * of its sub-users (or 0, none); an enterprise always writes its own id (a foreign one is refused).
 * Returns the owner id to store and the field errors.
 */
export function checkOwnership(
  caller: Principal,
  owners: Map<number, OwnerRow>,
  ownerId: number,
  ownerSubId: number,
): { ownerId: number; errors: FieldError[] } {
  const owner = ownerForWrite(caller, ownerId)!;
  const errors: FieldError[] = [];
  if (owners.get(owner)?.permissionLevel !== Level.Enterprise) errors.push({ field: 'ownerId', message: 'validation.ownerEnterprise' });
  if (ownerSubId > 0) {
    const sub = owners.get(ownerSubId);
    if (!sub || sub.permissionLevel !== Level.SubUser || sub.parentId !== owner)
      errors.push({ field: 'ownerSubId', message: 'validation.ownerSub' });
  }
  return { ownerId: owner, errors };
}

/** The values of unique fields already taken by other devices. */
export async function takenUniqueValues(
  db: Queryable,
  devices: Pick<DeviceInput, 'deviceNum' | 'deviceSn' | 'mac'>[],
  exceptId = 0,
): Promise<Record<UniqueField, Set<string>>> {
  const list = (field: UniqueField) => [...new Set(devices.map((d) => d[field]).filter((v): v is string => !!v))];
  const rows = await devicesHoldingUniqueValues(
    db,
    { deviceNums: list('deviceNum'), deviceSns: list('deviceSn'), macs: list('mac') },
    exceptId,
  );
  const taken = { deviceNum: new Set<string>(), deviceSn: new Set<string>(), mac: new Set<string>() };
  for (const r of rows) {
    if (r.device_num) taken.deviceNum.add(r.device_num);
    taken.deviceSn.add(r.device_sn);
    if (r.mac) taken.mac.add(r.mac);
  }
  return taken;
}

/** Refuses a device whose deviceNum, SN or MAC another device has: code 9 naming every such field at once. */
export async function assertUnique(db: Queryable, device: DeviceInput, exceptId = 0): Promise<void> {
  const taken = await takenUniqueValues(db, [device], exceptId);
  const clashes = UNIQUE_FIELDS.filter((u) => device[u.field] && taken[u.field].has(device[u.field]!)).map((u) => u.field);
  if (clashes.length) throw duplicate(...clashes);
}

/** Code 9: msg names the first field, data every one ([{ field, message }]). */
const duplicate = (...fields: UniqueField[]) => {
  const errors = fields.map((field) => ({ field, message: UNIQUE_FIELDS.find((u) => u.field === field)!.message }));
  return new BizError(ErrorCode.Duplicate, errors[0]!.message, errors);
};

/** A unique violation that slipped past the check (a concurrent write) becomes the same refusal. */
export function uniqueViolationToBizError(error: unknown): unknown {
  if (!isUniqueViolation(error)) return error;
  const e = error as { constraint?: string; message?: string };
  const text = `${e.constraint ?? ''} ${e.message ?? ''}`;
  const match = UNIQUE_FIELDS.find((u) => text.includes(`devices_${u.column}_key`));
  return match ? duplicate(match.field) : new BizError(ErrorCode.Duplicate);
}

/** Validated input plus ownership, or code 1 with every bad field. */
export async function checkDeviceWrite(db: Queryable, caller: Principal, input: DeviceInput): Promise<DeviceInput> {
  const owners = await loadOwners(
    db,
    [input.ownerId, input.ownerSubId].filter((id) => id > 0),
  );
  const { ownerId, errors } = checkOwnership(caller, owners, input.ownerId, input.ownerSubId);
  if (errors.length) throw new BizError(ErrorCode.Validation, 'error.validation', errors);
  return { ...input, ownerId };
}
