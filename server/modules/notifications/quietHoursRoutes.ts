import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { quietHoursSchema } from '../../../src/domain/contactPoints';
import { ok } from '../../http/envelope';
import { envelope } from '../../http/schemas';
import { parseWith } from '../../http/validation';
import { quietHoursOf, setQuietHours } from './quietHoursQueries';

const quietHours = {
  type: 'object',
  properties: { quietFrom: { type: ['string', 'null'] }, quietTo: { type: ['string', 'null'] } },
} as const;

/**
 * supportModule/notification/quietHours (docs/api.md, "Notifications"): the caller's own quiet
 * hours for the alarm mails rules send it, in the time zone of its last login. Every level reads
 * and sets its own; nobody another's.
 */
export async function quietHoursRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/notification/quietHours',
    { schema: { tags: ['notification'], summary: "The caller's quiet hours for alarm mails", response: envelope(quietHours) } },
    async (request) => ok(await quietHoursOf(db, request.user.id)),
  );
  app.post(
    '/notification/quietHours',
    {
      schema: {
        tags: ['notification'],
        summary: "Sets the caller's quiet hours (both, or neither to turn them off)",
        body: quietHours,
        response: envelope(quietHours),
      },
    },
    async (request) => {
      const valid = parseWith(quietHoursSchema, request.body);
      const q = { quietFrom: valid.quietFrom ?? null, quietTo: valid.quietTo ?? null };
      await setQuietHours(db, request.user.id, q);
      return ok(q);
    },
  );
}
