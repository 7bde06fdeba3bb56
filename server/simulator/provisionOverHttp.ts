import type { SimDevice } from './fleet';
import { DEVICE_KINDS } from '../../src/domain/deviceKinds';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

export interface ProvisionOptions {
  apiBase: string;
  vessels: number;
  seed: number;
  user: string;
  password: string;
  /** The enterprise that owns the simulated vessels (name); the first enterprise when absent. */
  owner?: string;
  concurrency?: number;
}

/** The simulator's own device numbers: F, the seed's last hex digit, then the vessel index. */
export const simDeviceNum = (seed: number, index: number) =>
  `F${(seed & 15).toString(16)}${index.toString(16).padStart(6, '0')}`.toUpperCase();

/**
 * For the CLI against any running server: logs in as an admin, creates the simulator's own
 * devices ("SIM ..." with numbers F...) where missing, and (re)activates each to get its secret.
 * Devices of others are never touched.
 */
export async function provisionOverHttp(o: ProvisionOptions): Promise<SimDevice[]> {
  const login = await fetch(`${o.apiBase}/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: o.user, password: o.password }).toString(),
  });
  const session = (await login.json()) as Envelope<{ token: string }>;
  if (session.code !== 0) throw new Error(`login as ${o.user} failed: ${session.msg}`);
  const call = async <T>(path: string, body?: unknown): Promise<Envelope<T>> => {
    const sep = path.includes('?') ? '&' : '?';
    const res = await fetch(
      `${o.apiBase}${path}${sep}token=${encodeURIComponent(session.data.token)}&lang=en`,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    return (await res.json()) as Envelope<T>;
  };
  const owners = await call<{ id: number; name: string }[]>('/users/getEnterpriseUserNameList');
  const owner = owners.data?.find((u) => !o.owner || u.name === o.owner);
  if (!owner) throw new Error(`no enterprise ${o.owner ?? ''} to own the simulated vessels`);

  const devices: SimDevice[] = new Array(o.vessels);
  let next = 0;
  const one = async (i: number) => {
    const deviceNum = simDeviceNum(o.seed, i);
    let found = await call<{ id: number; activated: boolean }>(`/deviceModule/activation/find?key=${deviceNum}`);
    if (found.code !== 0) {
      const kind = DEVICE_KINDS[i % DEVICE_KINDS.length]!;
      found = await call('/deviceModule/device/add', {
        name: `SIM ${o.seed}-${i + 1}`,
        deviceNum,
        deviceSn: `SIM-${deviceNum}`,
        ownerId: owner.id,
        ownerSubId: 0,
        manufactureDate: '2024-01-15',
        deviceType: 'Simulated terminal',
        aduVersion: 'V2.1.0',
        bduVersion: 'V1.0.0',
        manufactureInfo: 'Fleet simulator',
        deviceModel: 'SIM-1',
        deviceKind: kind,
      });
      if (found.code !== 0) throw new Error(`creating ${deviceNum} failed: ${found.msg} ${JSON.stringify(found.data)}`);
    } else if (found.data.activated) {
      await call(`/deviceModule/activation/deactivate?id=${found.data.id}`, {});
    }
    const activated = await call<{ secret: string }>('/deviceModule/activation/activate', {
      id: found.data.id,
      ownerId: owner.id,
      ownerSubId: 0,
    });
    if (activated.code !== 0) throw new Error(`activating ${deviceNum} failed: ${activated.msg}`);
    devices[i] = { deviceNum, secret: activated.data.secret };
  };
  await Promise.all(
    Array.from({ length: Math.min(o.concurrency ?? 8, o.vessels) }, async () => {
      while (next < o.vessels) await one(next++);
    }),
  );
  return devices;
}
