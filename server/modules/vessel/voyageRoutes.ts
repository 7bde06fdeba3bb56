import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ok } from '../../http/envelope';
import { envelope, tokenQuery } from '../../http/schemas';
import { currentVoyage } from './voyageQueries';
import { visibleVessel } from './vesselAccessQueries';

/**
 * deviceModule/voyage/getCurrent. The voyage's getAll, getById, add, update and deleteById are
 * built from its declaration (src/resources/voyages/definition.ts; docs/extending.md).
 */
export async function voyageRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/voyage/getCurrent',
    {
      schema: {
        tags: ['voyage'],
        summary: 'The current voyage of a visible vessel (under way, else next planned, else last arrived), or null',
        querystring: { type: 'object', required: ['deviceId'], properties: { ...tokenQuery, deviceId: { type: 'integer' } } },
        response: envelope({ type: ['object', 'null'], additionalProperties: true }),
      },
    },
    async (request) => {
      const { deviceId } = request.query;
      await visibleVessel(db, request.user, deviceId);
      return ok(await currentVoyage(db, deviceId));
    },
  );
}
