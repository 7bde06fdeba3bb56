import type { Queryable } from '../../db/connection';
import type { DeviceInput } from '../../../src/domain/deviceSchemas';
import { INSERT_COLUMNS, INSERT_TYPES, deviceValues } from './deviceQueries';

/** Rows per INSERT statement: one array parameter per column, so a batch is one round trip. */
export const IMPORT_BATCH_ROWS = 1000;

const UNNEST_SQL = `INSERT INTO devices (${INSERT_COLUMNS})
  SELECT * FROM unnest(${INSERT_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;

/** Inserts checked devices in batches (the caller holds the transaction). */
export async function insertDevices(tx: Queryable, devices: DeviceInput[]): Promise<number> {
  for (let start = 0; start < devices.length; start += IMPORT_BATCH_ROWS) {
    const batch = devices.slice(start, start + IMPORT_BATCH_ROWS).map(deviceValues);
    const columns = INSERT_TYPES.map((_, col) => batch.map((values) => values[col]));
    await tx.query(UNNEST_SQL, columns);
  }
  return devices.length;
}
