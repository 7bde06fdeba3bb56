import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The acknowledge link of a notification (docs/api.md, "Notifications"): `<id>.<expiry s>.<mac>`,
 * the mac an HMAC-SHA256 of the first two with the server's secret (server_secrets). Bound to the
 * notification, hence to its alarm and recipient; single use is kept by the row (ack_used_at).
 */
const mac = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

export function signAckToken(secret: string, notificationId: number, expiresAt: Date): string {
  const payload = `${notificationId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${payload}.${mac(secret, payload)}`;
}

/** An expired token still names its notification (its signature holds): the page can speak its recipient's language. */
export type AckTokenCheck =
  { ok: true; notificationId: number } | { ok: false; reason: 'expired'; notificationId: number } | { ok: false; reason: 'invalid' };

export function checkAckToken(secret: string, token: string, now = Date.now()): AckTokenCheck {
  const match = /^(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(mac(secret, `${match[1]}.${match[2]}`));
  const given = Buffer.from(match[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
  if (Number(match[2]) * 1000 < now) return { ok: false, reason: 'expired', notificationId: Number(match[1]) };
  return { ok: true, notificationId: Number(match[1]) };
}
