import type { Contact } from './delivery';
import type { MailServer } from './notifyQueries';

/**
 * A stored contact point (its channel, target and secret) as delivery takes it (docs/api.md,
 * "Notifications"). An email contact point goes through the mail server; without one it is null.
 */
export function contactOf(
  row: { channel: string; target: string; secret: string | null },
  telegramApiBase: string,
  mailServer: MailServer | null,
): Contact | null {
  const secret = row.secret ?? undefined;
  switch (row.channel) {
    case 'email':
      return mailServer
        ? {
            channel: 'email',
            to: row.target,
            smtp: {
              host: mailServer.host,
              port: mailServer.port,
              secure: mailServer.secure,
              user: mailServer.user ?? undefined,
              password: mailServer.password ?? undefined,
              from: mailServer.fromAddress,
            },
          }
        : null;
    case 'webhook':
      return { channel: 'webhook', url: row.target, secret: secret ?? '' };
    case 'wecom':
      return { channel: 'wecom', url: row.target };
    case 'dingtalk':
      return { channel: 'dingtalk', url: row.target, secret };
    case 'feishu':
      return { channel: 'feishu', url: row.target, secret };
    case 'telegram':
      return { channel: 'telegram', botToken: secret ?? '', chatId: row.target, apiBase: telegramApiBase };
    default:
      throw new Error(`unknown channel ${row.channel}`);
  }
}
