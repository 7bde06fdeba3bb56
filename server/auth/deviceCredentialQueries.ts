import type { Queryable } from '../db/connection';

/** A device's credential row by its number (server/auth/deviceCache.ts keeps copies of them). */
export interface DeviceCredentialRow {
  num: string;
  id: number;
  activated: boolean;
  secret_hash: string | null;
}

/** The credential rows of the devices with these numbers (numbers no device has are simply absent). */
export const readDeviceCredentials = (db: Queryable, nums: readonly string[]) =>
  db.query<DeviceCredentialRow>('SELECT device_num AS num, id, activated, secret_hash FROM devices WHERE device_num = ANY($1::text[])', [
    nums,
  ]);
