import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { Level } from '../../../src/domain/levels';
import { extraLinkSchema } from '../../../src/domain/userSchemas';
import { ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, tokenQuery } from '../../http/schemas';
import { assertManageable, assertVisible } from '../../auth/userScope';
import { findTarget } from './userQueries';
import { findExtraLink, saveExtraLink, visibleExtraLinks } from './extraLinkQueries';

const tags = ['extra links'];
const link = {
  type: 'object',
  properties: {
    userId: { type: 'integer' },
    userName: { type: 'string' },
    content: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

/** A free text (a link, a subscription note) attached to a user; read by whoever sees the user, written by whoever manages it. */
export async function extraLinkRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/getUserExtraLink',
    {
      schema: {
        tags,
        summary: "A visible user's extra link (null when none)",
        querystring: { type: 'object', required: ['userId'], properties: { ...tokenQuery, userId: { type: 'integer' } } },
        response: envelope({ ...link, nullable: true }),
      },
    },
    async (request) => {
      const { userId } = request.query;
      assertVisible(request.user, await findTarget(db, userId));
      return ok((await findExtraLink(db, userId)) ?? null);
    },
  );

  app.get(
    '/getAllUserExtraLink',
    {
      config: { levels: [Level.Admin, Level.Enterprise] },
      schema: {
        tags,
        summary: 'Extra links of every visible user',
        querystring: { type: 'object', properties: tokenQuery },
        response: envelope({ type: 'array', items: link }),
      },
    },
    async (request) => ok(await visibleExtraLinks(db, request.user)),
  );

  app.post(
    '/addEditUserExtraLink',
    {
      config: { levels: [Level.Admin, Level.Enterprise] },
      schema: {
        tags,
        summary: 'Create or replace the extra link of a user the caller manages',
        querystring: {
          type: 'object',
          required: ['userId', 'content'],
          properties: { ...tokenQuery, userId: { type: 'integer' }, content: { type: 'string' } },
        },
        response: envelope(link),
      },
    },
    async (request) => {
      const { userId, content } = request.query;
      assertManageable(request.user, await findTarget(db, userId));
      const valid = parseWith(extraLinkSchema, { content }).content;
      await saveExtraLink(db, userId, valid);
      return ok(await findExtraLink(db, userId));
    },
  );
}
