/** JSON schemas of deviceModule for the OpenAPI document (the rules themselves are the yup schemas). */
const text = { type: ['string', 'null'] } as const;
const int = { type: ['integer', 'null'] } as const;

export const deviceObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    deviceNum: text,
    mac: text,
    deviceSn: { type: 'string' },
    ownerId: { type: 'integer' },
    ownerName: text,
    ownerSubId: { type: 'integer', description: '0: no sub-user' },
    ownerSubName: text,
    manufactureDate: { type: 'string', format: 'date' },
    deviceType: { type: 'string' },
    aduVersion: { type: 'string' },
    bduVersion: { type: 'string' },
    manufactureInfo: { type: 'string' },
    deviceModel: { type: 'string' },
    deviceKind: { type: 'string', enum: ['antenna', 'vsat', '4g', 'microwave', 'vbox', 'others'] },
    chipId: text,
    modemSn: text,
    hardware: text,
    mmsi: text,
    imo: text,
    callsign: text,
    status: { type: 'integer', enum: [0, 1, 2], description: '0 offline, 1 online, 2 warn' },
    speed: { type: ['number', 'null'] },
    heading: { type: ['number', 'null'] },
    activated: { type: 'boolean' },
    activatedAt: text,
    activatedBy: int,
    groupId: int,
    groupName: text,
    pinned: { type: 'boolean', description: "In the caller's Special Focus" },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
} as const;

/** The writable fields (POST add / update body). */
export const deviceBody = {
  type: 'object',
  properties: {
    id: { type: ['integer', 'null'], description: 'update only' },
    name: { type: ['string', 'null'] },
    deviceNum: { type: ['string', 'null'], description: '8 of [0-9A-F]' },
    mac: { type: ['string', 'null'], description: 'xx.xx.xx.xx.xx.xx' },
    deviceSn: { type: ['string', 'null'], description: 'no spaces' },
    ownerId: { type: ['integer', 'null'] },
    ownerSubId: { type: ['integer', 'null'], description: '0: none' },
    manufactureDate: { type: ['string', 'null'], description: 'YYYY-MM-DD' },
    deviceType: { type: ['string', 'null'] },
    aduVersion: { type: ['string', 'null'] },
    bduVersion: { type: ['string', 'null'] },
    manufactureInfo: { type: ['string', 'null'] },
    deviceModel: { type: ['string', 'null'] },
    deviceKind: { type: ['string', 'null'] },
    chipId: { type: ['string', 'null'] },
    modemSn: { type: ['string', 'null'] },
    hardware: { type: ['string', 'null'] },
    mmsi: { type: ['string', 'null'], description: '9 digits' },
    imo: { type: ['string', 'null'], description: '7 digits' },
    callsign: { type: ['string', 'null'] },
  },
} as const;

export const deviceFilterQuery = {
  search: { type: 'string', maxLength: 64, description: 'Part of name, deviceNum, SN, MAC, MMSI or call sign' },
  deviceKind: { type: 'string', maxLength: 200, description: 'One kind or a comma list' },
  deviceType: { type: 'string', maxLength: 200, description: 'One type or a comma list' },
  ownerId: { type: 'string', maxLength: 200, description: 'One owner id or a comma list' },
  ownerSubId: { type: 'string', maxLength: 200, description: 'One sub-user id or a comma list' },
  status: { type: 'string', maxLength: 20, description: '0 offline, 1 online, 2 warn; one or a comma list' },
  activated: { type: 'boolean' },
  groupId: { type: 'integer', minimum: -1, description: '-1 Special Focus, 0 Ungrouped Device, else a group' },
  sort: { type: 'string', enum: ['id', 'name', 'deviceKind', 'deviceType', 'status', 'activated', 'ownerId'] },
  order: { type: 'string', enum: ['asc', 'desc'] },
} as const;

export const groupObject = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: '-1 Special Focus, 0 Ungrouped Device (virtual), else a group' },
    name: { type: 'string' },
    ownerId: int,
    ownerName: text,
    deviceCount: { type: 'integer' },
    virtual: { type: 'boolean' },
  },
} as const;

export const grantObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    enterpriseId: { type: 'integer' },
    enterpriseName: text,
    deviceId: int,
    deviceName: text,
    feature: { type: 'string', enum: ['trackHistory', 'camera', 'statistics', 'iotData'] },
    deviceCount: int,
    subscriptionQuantity: int,
    deadline: text,
    createdAt: { type: 'string' },
  },
} as const;

export const idListBody = { type: 'object', properties: { deviceIds: { type: 'array', items: { type: 'integer' } } } } as const;
