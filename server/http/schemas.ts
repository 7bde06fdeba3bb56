/** JSON schemas shared by route definitions (they also feed the OpenAPI document). */
export const tokenQuery = {
  token: { type: 'string', description: 'Session token from /users/login' },
  lang: { type: 'string', enum: ['zh', 'en'], description: 'Language of msg (else Accept-Language, else zh)' },
} as const;

export const pageQuery = {
  pageIndex: { type: 'integer', minimum: 1, default: 1, description: '1-based page number' },
  pageSize: { type: 'integer', minimum: 1, maximum: 500, default: 20 },
} as const;

export const idQuery = {
  type: 'object',
  required: ['id'],
  properties: { ...tokenQuery, id: { type: 'integer' } },
} as const;

export const envelope = (data: object = {}) => ({
  200: {
    type: 'object',
    properties: { code: { type: 'integer' }, msg: { type: 'string' }, data },
  },
});

export const nameItem = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
} as const;

export const userObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    nickname: { type: ['string', 'null'] },
    parentId: { type: ['integer', 'null'] },
    parentName: { type: ['string', 'null'] },
    permissionLevel: { type: 'string', enum: ['1', '2', '3'] },
    department: { type: ['string', 'null'] },
    sex: { type: ['string', 'null'] },
    email: { type: ['string', 'null'] },
    signature: { type: ['string', 'null'] },
    company: { type: ['string', 'null'] },
    userType: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

export const pageOf = (item: object) => ({
  type: 'object',
  properties: { list: { type: 'array', items: item }, total: { type: 'integer' } },
});
