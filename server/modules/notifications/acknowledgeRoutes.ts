import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import type { Language } from '../../../src/domain/constants';
import { translateDomain } from '../../../src/domain/messages';
import { languageOf } from '../../http/envelope';
import { Level } from '../../../src/domain/levels';
import { checkAckToken } from '../../notify/ackLinks';
import { escapeHtml } from '../../notify/delivery';
import { ackTarget, serverSecret, useAckLink } from '../../notify/ackLinkQueries';
import { insertAuditEntry } from '../audit/auditQueries';
import { randomBytes } from 'node:crypto';

/** A small page in the recipient's language: no console, no login. */
function page(language: Language, text: string, form?: { token: string; button: string }) {
  const title = translateDomain(language, 'notify.ack.title');
  const body = form
    ? `<form method="post"><input type="hidden" name="token" value="${escapeHtml(form.token)}"><button type="submit">${escapeHtml(form.button)}</button></form>`
    : '';
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}button{font-size:1rem;padding:.6rem 1.4rem}</style></head>
<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${body}</body></html>`;
}

const tokenSchema = { type: 'object', required: ['token'], properties: { token: { type: 'string', maxLength: 200 } } } as const;

/**
 * supportModule/notification/acknowledge (docs/api.md, "Notifications"): the link in a message.
 * GET shows the alarm and a button (a link preview or a mail scanner that opens the link does not
 * acknowledge anything); POST acknowledges it as the user who set up the contact point, records
 * that in the audit log, and uses the link up. Public: the signed token is the credential.
 */
export async function acknowledgeRoutes(app: Api, { db }: ServerContext) {
  // Read once (made by the first server that needed it), not per request.
  let stored: Promise<string> | undefined;
  const secret = () => (stored ??= serverSecret(db, 'ack-link', randomBytes(32).toString('base64url')));

  /** What the token leads to; the page speaks the recipient's language, or the browser's when the token names nobody. */
  const resolve = async (token: string, browser: Language) => {
    const checked = checkAckToken(await secret(), token);
    const target = 'notificationId' in checked ? await ackTarget(db, checked.notificationId) : null;
    const language: Language = target ? (target.language === 'en' ? 'en' : 'zh') : browser;
    if (!checked.ok) return { language, text: translateDomain(language, `notify.ack.${checked.reason}`) };
    if (!target || target.userId === null) return { language, text: translateDomain(language, 'notify.ack.invalid') };
    if (target.ackUsedAt) return { language, text: translateDomain(language, 'notify.ack.used') };
    if (target.ackedAt) return { language, text: translateDomain(language, 'notify.ack.already') };
    return { language, target };
  };

  app.get(
    '/notification/acknowledge',
    { config: { public: true }, schema: { tags: ['notification'], summary: 'The page of an acknowledge link', querystring: tokenSchema } },
    async (request, reply) => {
      const found = await resolve(request.query.token, languageOf(request));
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (!('target' in found) || !found.target) return page(found.language, found.text!);
      const t = found.target;
      return page(found.language, `${t.deviceName} · ${t.code}`, {
        token: request.query.token,
        button: translateDomain(found.language, 'notify.acknowledge'),
      });
    },
  );

  app.post(
    '/notification/acknowledge',
    {
      config: { public: true },
      schema: { tags: ['notification'], summary: 'Acknowledge the alarm of a link (single use)', body: tokenSchema },
    },
    async (request, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      const found = await resolve(request.body.token, languageOf(request));
      if (!('target' in found) || !found.target) return page(found.language, found.text!);
      const t = found.target;
      const done = await db.transaction(async (tx) => {
        if (!(await useAckLink(tx, t.notificationId, t.alarmId, t.userId!))) return false;
        await insertAuditEntry(tx, {
          userId: t.userId!,
          userName: t.userName!,
          userLevel: (t.userLevel as Level | null) ?? Level.Enterprise,
          enterpriseId: t.enterpriseId,
          address: request.ip,
          method: 'POST',
          route: request.routeOptions.url ?? '',
          entity: 'alarm',
          entityId: String(t.alarmId),
          action: 'acknowledge',
          before: null,
          after: { acknowledged: true, by: 'notification link', notification: t.notificationId },
        });
        return true;
      });
      const text = done
        ? translateDomain(found.language, 'notify.ack.done', { code: t.code, vessel: t.deviceName, user: t.userName ?? '' })
        : translateDomain(found.language, 'notify.ack.used');
      return page(found.language, text);
    },
  );
}
