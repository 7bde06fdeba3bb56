import type { Queryable } from '../../db/connection';
import type { Language } from '../../../src/domain/constants';
import { Level, type Principal } from '../../../src/domain/levels';
import type { ImportRowError } from '../../../src/domain/device';
import { deviceFieldKey, deviceSchema, type DeviceInput } from '../../../src/domain/deviceSchemas';
import { translateDomain } from '../../../src/domain/messages';
import { validate } from '../../../src/domain/validate';
import { BizError } from '../../http/envelope';
import type { SheetRow } from './importParser';
import { UNIQUE_FIELDS, checkOwnership, takenUniqueValues } from './deviceRules';
import { loadOwners, type OwnerRow } from './ownerQueries';

interface RowProblem {
  row: number;
  field: string;
  key: string;
  vars?: Record<string, string | number>;
}

/** An owner cell may hold a user's id or name; an enterprise may leave its own owner cell empty. */
function resolveOwnerCell(text: string | undefined, byName: Map<string, OwnerRow>): number | string | undefined {
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  return byName.get(text.toLowerCase())?.id ?? text;
}

/**
 * Every row through the same rules as the form (deviceSchema), then ownership, then uniqueness
 * within the file and against the stored devices. Returns the devices to write, or every problem
 * with the row number and the column header in the caller's language.
 */
export async function checkImportRows(
  db: Queryable,
  caller: Principal,
  rows: SheetRow[],
  lang: Language,
): Promise<{ devices: DeviceInput[]; errors: ImportRowError[] }> {
  const owners = await loadOwners(db);
  const byName = new Map([...owners.values()].map((o) => [o.name.toLowerCase(), o]));
  const problems: RowProblem[] = [];
  const valid: { row: number; device: DeviceInput }[] = [];

  for (const { row, values } of rows) {
    const input: Record<string, unknown> = { ...values };
    input.ownerId = resolveOwnerCell(values.ownerId, byName) ?? (caller.permissionLevel === Level.Enterprise ? caller.id : undefined);
    input.ownerSubId = resolveOwnerCell(values.ownerSubId, byName);
    const result = validate(deviceSchema, input);
    if (!result.ok) {
      for (const e of result.errors) {
        const unknownName = (e.field === 'ownerId' || e.field === 'ownerSubId') && typeof input[e.field] === 'string';
        problems.push({ row, field: e.field, key: unknownName ? 'error.importUnknownOwner' : e.message });
      }
      continue;
    }
    try {
      const { ownerId, errors } = checkOwnership(caller, owners, result.value.ownerId, result.value.ownerSubId);
      if (errors.length) {
        for (const e of errors) problems.push({ row, field: e.field, key: e.message });
        continue;
      }
      valid.push({ row, device: { ...result.value, ownerId } });
    } catch (error) {
      if (!(error instanceof BizError)) throw error;
      problems.push({ row, field: 'ownerId', key: error.msgKey });
    }
  }

  const taken = await takenUniqueValues(
    db,
    valid.map((v) => v.device),
  );
  for (const { field, message } of UNIQUE_FIELDS) {
    const firstRow = new Map<string, number>();
    for (const { row, device } of valid) {
      const value = device[field];
      if (!value) continue;
      if (taken[field].has(value)) problems.push({ row, field, key: message });
      else if (firstRow.has(value)) problems.push({ row, field, key: 'error.duplicateInFile', vars: { row: firstRow.get(value)! } });
      else firstRow.set(value, row);
    }
  }

  problems.sort((a, b) => a.row - b.row);
  const errors = problems.map((p) => ({
    row: p.row,
    column: translateDomain(lang, deviceFieldKey(p.field)),
    message: translateDomain(lang, p.key, p.vars),
  }));
  return { devices: errors.length ? [] : valid.map((v) => v.device), errors };
}
