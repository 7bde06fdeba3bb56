import type { Queryable } from './connection';
import { DEVICE_KINDS } from '../../src/domain/deviceKinds';
import { Feature } from '../../src/domain/features';

/** Demo vessels of the two demo enterprises: every kind, some grouped, some not yet activated. */
const OCEANIC_VESSELS = [
  'Ocean Pioneer',
  'Pacific Star',
  'Blue Horizon',
  'Sea Falcon',
  'Northern Light',
  'Golden Gate Trader',
  'Jade Fortune',
  'Coral Princess',
  'Silver Wave',
  'Eastern Glory',
  'Harbour Spirit',
  'Morning Tide',
  'Ocean Harmony',
  'Great Wall Express',
  'Yangtze Carrier',
  'Pearl River',
  'Sunrise Voyager',
  'Dragon Bay',
  'Lotus Trader',
  'Cape Endeavour',
  'Summit Bulker',
  'Crystal Sea',
  'Emerald Dawn',
  'Orient Bridge',
  'Maritime Unity',
  'Iron Monarch',
  'Grace Navigator',
];
const POLARIS_VESSELS = [
  'Polaris Aurora',
  'Arctic Explorer',
  'Nordic Breeze',
  'Ice Crown',
  'Boreal Tanker',
  'Fjord Runner',
  'Polar Express',
  'Glacier Bay',
  'Viking Venture',
  'Aurora Borealis',
  'Snow Petrel',
  'Northern Cross',
  'Baltic Carrier',
  'Midnight Sun',
  'Svalbard Trader',
  'Frost Queen',
  'Norse Guardian',
  'Tundra Spirit',
  'Arctic Tern',
  'Stella Polaris',
  'Icebreaker One',
  'Helsinki Link',
  'Tromso Star',
];
const MODELS: Record<string, { type: string; model: string }> = {
  antenna: { type: 'Ku-band VSAT antenna', model: 'SA-100K' },
  vsat: { type: 'VSAT terminal', model: 'VT-2000' },
  '4g': { type: '4G router', model: 'LTE-M4' },
  microwave: { type: 'Microwave link', model: 'MW-80' },
  vbox: { type: 'vBox', model: 'VB-1' },
  others: { type: 'AIS transponder', model: 'AX-30' },
};
const MIDS = ['413', '477', '563', '636', '538', '257'];

/** The IMO number's 7th digit is a check digit over the first six. */
function imoNumber(seed: number): string {
  const six = String(9_100_000 + seed * 7919)
    .slice(1, 7)
    .padStart(6, '9');
  const check = [...six].reduce((sum, d, i) => sum + Number(d) * (7 - i), 0) % 10;
  return six + check;
}

export async function seedDevices(tx: Queryable, ids: Map<string, number>): Promise<void> {
  const fleets = [
    { owner: 'oceanic', subs: ['oceanops', 'oceanbridge'], names: OCEANIC_VESSELS, groups: ['Container Fleet', 'Bulk Carriers'] },
    { owner: 'polaris', subs: ['polarisops'], names: POLARIS_VESSELS, groups: ['Tankers', 'Arctic Route'] },
  ];
  let n = 0;
  for (const fleet of fleets) {
    const ownerId = ids.get(fleet.owner)!;
    const groupIds: number[] = [];
    for (const name of fleet.groups) {
      const [g] = await tx.query<{ id: number }>('INSERT INTO device_groups (owner_id, name) VALUES ($1, $2) RETURNING id', [
        ownerId,
        name,
      ]);
      groupIds.push(g!.id);
    }
    const deviceIds: number[] = [];
    for (const [i, name] of fleet.names.entries()) {
      n += 1;
      const kind = DEVICE_KINDS[n % DEVICE_KINDS.length]!;
      const activated = n % 7 !== 3;
      const status = activated ? [1, 1, 0, 1, 2][n % 5]! : 0;
      const online = status !== 0;
      const hex = (0xa1000000 + n).toString(16).toUpperCase();
      const subId = i % 9 === 0 ? ids.get(fleet.subs[0]!)! : null;
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO devices (name, device_num, mac, device_sn, owner_id, owner_sub_id, manufacture_date, device_type,
           adu_version, bdu_version, manufacture_info, device_model, device_kind, chip_id, modem_sn, hardware, mmsi, imo,
           callsign, status, speed, heading, activated, activated_at, activated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23,
           CASE WHEN $23 THEN now() - ($24 || ' days')::interval END, CASE WHEN $23 THEN $25::int END) RETURNING id`,
        [
          name,
          hex,
          `00.1A.2B.3C.${(n >> 8).toString(16).padStart(2, '0').toUpperCase()}.${(n & 255).toString(16).padStart(2, '0').toUpperCase()}`,
          `SN2024${String(n).padStart(5, '0')}`,
          ownerId,
          subId,
          `202${2 + (n % 3)}-${String((n % 12) + 1).padStart(2, '0')}-15`,
          MODELS[kind]!.type,
          `V2.${n % 4}.${n % 10}`,
          `V1.${n % 3}.${(n * 3) % 10}`,
          'Shenzhen Marine Electronics Co.',
          MODELS[kind]!.model,
          kind,
          `CHIP${(0x5000 + n).toString(16).toUpperCase()}`,
          `MDM${String(80_000 + n)}`,
          `HW-${1 + (n % 3)}.0`,
          `${MIDS[n % MIDS.length]}${String(100_000 + n * 137).padStart(6, '0')}`,
          imoNumber(n),
          `${['B', 'V', 'L', 'S'][n % 4]}${String.fromCharCode(65 + (n % 26))}${String.fromCharCode(65 + ((n * 7) % 26))}${n % 10}`,
          status,
          online ? Math.round((8 + (n % 12) + (n % 3) * 0.4) * 10) / 10 : null,
          online ? (n * 47) % 360 : null,
          activated,
          String(30 + n * 5),
          ids.get('admin')!,
        ],
      );
      deviceIds.push(row!.id);
    }
    // The first third in the first group, the next sixth in the second, the rest ungrouped.
    for (const [i, id] of deviceIds.entries()) {
      const groupId = i < deviceIds.length / 3 ? groupIds[0] : i < deviceIds.length / 2 ? groupIds[1] : undefined;
      if (groupId) await tx.query('INSERT INTO device_group_members (device_id, group_id) VALUES ($1, $2)', [id, groupId]);
    }
    await tx.query('INSERT INTO device_pins (user_id, device_id) SELECT $1, unnest($2::int[])', [ownerId, deviceIds.slice(0, 3)]);
    // Each sub-user sees a subset of its enterprise's vessels.
    for (const [s, sub] of fleet.subs.entries()) {
      const granted = deviceIds.filter((_, i) => i % (s + 2) === 0).slice(0, 10);
      await tx.query(
        'INSERT INTO sub_user_grants (sub_user_id, device_id, granted_by) SELECT $1, unnest($2::int[]), $3 ON CONFLICT DO NOTHING',
        [ids.get(sub)!, granted, ownerId],
      );
    }
  }
  // Oceanic has every feature; Polaris tracks and statistics, and the camera on its first vessel.
  const grant =
    'INSERT INTO device_auth_grants (enterprise_id, device_id, feature, device_count, subscription_quantity, deadline) VALUES ($1, $2, $3, $4, $5, $6)';
  for (const feature of Object.values(Feature)) await tx.query(grant, [ids.get('oceanic'), null, feature, 50, 12, null]);
  await tx.query(grant, [ids.get('polaris'), null, Feature.TrackHistory, 30, 12, '2099-12-31']);
  await tx.query(grant, [ids.get('polaris'), null, Feature.Statistics, 30, 12, null]);
  const [first] = await tx.query<{ id: number }>('SELECT min(id) AS id FROM devices WHERE owner_id = $1', [ids.get('polaris')]);
  await tx.query(grant, [ids.get('polaris'), first!.id, Feature.Camera, 1, 1, null]);
}
