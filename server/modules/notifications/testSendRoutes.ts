import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { tableLevels } from '../../../src/domain/tableResource';
import type { Language } from '../../../src/domain/constants';
import { translateDomain } from '../../../src/domain/messages';
import { BizError, languageOf, ok } from '../../http/envelope';
import { envelope, idQuery } from '../../http/schemas';
import { deliver } from '../../notify/delivery';
import { contactOf } from '../../notify/contacts';
import { activeMailServer } from '../../notify/notifyQueries';
import type { Notice } from '../../notify/notice';
import { findTableRow } from '../../resources/tableQueries';
import { CONTACT_POINTS_TABLE } from '../../../src/domain/contactPoints';

const result = {
  type: 'object',
  properties: {
    delivered: { type: 'boolean' },
    ms: { type: 'integer', description: 'how long the service took to answer' },
    reason: { type: 'string', enum: ['target', 'unreachable', 'refused'] },
    message: { type: 'string', description: "why not, in the caller's language" },
  },
} as const;

/** supportModule/contactPoint/testSend: a test message to one contact point, now (levels 1 and 2). */
export async function testSendRoutes(app: Api, { db, config }: ServerContext) {
  app.post(
    '/contactPoint/testSend',
    {
      // Those who may edit the contact points may test them.
      config: { levels: tableLevels(CONTACT_POINTS_TABLE, 'edit') },
      schema: {
        tags: ['contactPoint'],
        summary: "Send a test message to a contact point of the caller's enterprise and say whether the service took it",
        querystring: idQuery,
        response: envelope(result),
      },
    },
    async (request) => {
      // The contact point as its getById reads it (the same scope), with its secret to send with.
      const found = await findTableRow(db, CONTACT_POINTS_TABLE, request.user, request.query.id, { withSecrets: true });
      if (!found) throw new BizError(ErrorCode.NotFound);
      const row = found as { id: number; channel: string; target: string; secret: string | null; language: string; timeZone: string };
      const language: Language = row.language === 'en' ? 'en' : 'zh';
      const notice: Notice = {
        id: `test-${row.id}-${Date.now()}`,
        event: 'alarm.raised',
        alarm: { id: 0, code: null, text: translateDomain(language, 'notify.test.alarm'), severity: 'minor' },
        vessel: { id: 0, name: translateDomain(language, 'notify.test.vessel') },
        occurredAt: new Date(),
        position: null,
        link: `${request.protocol}://${request.host}/`,
      };
      const contact = contactOf(row, config.telegramApiBase, row.channel === 'email' ? await activeMailServer(db) : null);
      if (!contact)
        return ok({
          delivered: false,
          ms: 0,
          reason: 'refused',
          message: translateDomain(languageOf(request), 'notify.error.noMailServer'),
        });
      const sent = await deliver(
        contact,
        notice,
        { language, timeZone: row.timeZone },
        {
          allowPrivateTargets: config.notifyAllowPrivateTargets,
        },
      );
      if (sent.ok) return ok({ delivered: true, ms: sent.ms });
      const message = translateDomain(languageOf(request), `notify.error.${sent.reason}`, { detail: sent.detail });
      return ok({ delivered: false, ms: sent.ms, reason: sent.reason, message });
    },
  );
}
