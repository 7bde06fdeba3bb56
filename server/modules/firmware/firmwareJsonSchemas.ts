/** JSON schemas of the firmware module's answers (documentation: OpenAPI). */
export const firmwareObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string', description: 'The uploaded file name' },
    version: { type: 'string' },
    deviceType: { type: 'string' },
    customer: { type: 'string' },
    model: { type: 'string' },
    versionType: { type: 'string', enum: ['release', 'beta'] },
    enabled: { type: 'boolean' },
    updateInfo: { type: ['string', 'null'] },
    fileSize: { type: 'integer' },
    sha256: { type: 'string' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    status: { type: 'string', enum: ['none', 'rollingOut', 'finished'] },
    rollouts: { type: 'integer' },
    targets: { type: 'integer' },
    updatedCount: { type: 'integer' },
    failedCount: { type: 'integer' },
    unfinishedCount: { type: 'integer' },
  },
} as const;

export const rolloutObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    firmwareId: { type: 'integer' },
    version: { type: 'string' },
    model: { type: 'string' },
    maxConcurrent: { type: 'integer' },
    groupId: { type: ['integer', 'null'] },
    createdAt: { type: 'string' },
    cancelledAt: { type: ['string', 'null'] },
    total: { type: 'integer' },
    counts: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Devices per update state' },
  },
} as const;

export const targetObject = {
  type: 'object',
  properties: {
    deviceId: { type: 'integer' },
    deviceName: { type: 'string' },
    deviceNum: { type: ['string', 'null'] },
    ownerName: { type: ['string', 'null'] },
    state: { type: 'string' },
    progress: { type: 'integer' },
    message: { type: ['string', 'null'] },
    startedAt: { type: ['string', 'null'] },
    finishedAt: { type: ['string', 'null'] },
    updatedAt: { type: 'string' },
  },
} as const;

export const candidateObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    deviceNum: { type: ['string', 'null'] },
    deviceSn: { type: 'string' },
    ownerId: { type: 'integer' },
    ownerName: { type: ['string', 'null'] },
    groupId: { type: ['integer', 'null'] },
    groupName: { type: ['string', 'null'] },
    activated: { type: 'boolean' },
    aduVersion: { type: 'string' },
    bduVersion: { type: 'string' },
    busyState: { type: ['string', 'null'], description: 'Its update state in another unfinished rollout, if any' },
  },
} as const;
