import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import { ALARM_RULES_TABLE } from '../../../src/domain/alarmRules';
import { BizError, ok } from '../../http/envelope';
import { envelope } from '../../http/schemas';
import { setSubscription } from './subscribeQueries';

/**
 * supportModule/alarmRule/subscribe (docs/api.md, "Notifications"): a sub-user (level 3) puts itself
 * on a rule of its enterprise, or takes itself off, by mail; only a rule that covers one of the
 * vessels it was granted, and it is then told only of those vessels.
 */
export async function subscribeRoutes(app: Api, { db }: ServerContext) {
  app.post(
    '/alarmRule/subscribe',
    {
      config: { levels: [Level.SubUser], audit: { entity: 'alarmRule', table: ALARM_RULES_TABLE.table } },
      schema: {
        tags: ['alarmRule'],
        summary: 'A sub-user subscribes itself to a rule of its enterprise covering a vessel it was granted (or leaves it)',
        querystring: {
          type: 'object',
          required: ['id', 'subscribed'],
          properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 }, subscribed: { type: 'boolean' } },
        },
        response: envelope({ type: 'object', properties: { id: { type: 'integer' }, subscribed: { type: 'boolean' } } }),
      },
    },
    async (request) => {
      const { id, subscribed } = request.query;
      const user = request.user;
      if (!(await setSubscription(db, id, user.id, user.parentId!, subscribed))) throw new BizError(ErrorCode.NotFound);
      return ok({ id, subscribed });
    },
  );
}
