import nodemailer from 'nodemailer';
import { translateDomain } from '../../src/domain/messages';
import { acceptedBy, channelRequest, type HttpContact } from './channelRequests';
import { messageText, type Message, type Reader } from './notice';
import { refusedTarget } from './targetGuard';

/**
 * Sends one notice to one contact point and says how it went (docs/api.md, "Notifications"). It
 * does not retry: the caller (the outbox) decides, by `retry`, whether another attempt may help.
 */
export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
}

export type Contact = HttpContact | { channel: 'email'; to: string; smtp: SmtpSettings };

export type DeliveryResult =
  | { ok: true; ms: number }
  | { ok: false; ms: number; reason: 'target' | 'unreachable' | 'refused'; detail: string; message: string; retry: boolean };

export interface DeliveryOptions {
  allowPrivateTargets: boolean;
  timeoutMs?: number;
}

/** A mail transport to the mail server, every wait bounded by `timeoutMs` (alarm mails, scheduled reports). */
export const smtpTransport = (smtp: SmtpSettings, timeoutMs: number) =>
  nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? '' } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });

/** Text safe inside HTML (the mail body, the acknowledge page). */
export const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The mail: the title as subject, the lines as text and as a small table, then the links. */
function mailOf(message: Message, reader: Reader) {
  const { title, lines, links } = messageText(message, reader);
  const text = [...lines.map(([label, value]) => `${label}: ${value}`), '', ...links.map(([label, url]) => `${label}: ${url}`)].join('\n');
  const rows = lines.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('');
  const anchors = links.map(([label, url]) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`).join(' &nbsp; ');
  return { subject: title, text, html: `<h3>${escapeHtml(title)}</h3><table>${rows}</table><p>${anchors}</p>` };
}

export async function deliver(contact: Contact, notice: Message, reader: Reader, options: DeliveryOptions): Promise<DeliveryResult> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const failed = (reason: 'target' | 'unreachable' | 'refused', detail: string, retry: boolean): DeliveryResult => ({
    ok: false,
    ms: Math.round(performance.now() - started),
    reason,
    retry,
    detail: detail.slice(0, 200),
    message: translateDomain(reader.language, `notify.error.${reason}`, { detail: detail.slice(0, 200) }),
  });
  if (contact.channel === 'email') {
    const { smtp } = contact;
    const transport = smtpTransport(smtp, timeoutMs);
    try {
      await transport.sendMail({
        from: smtp.from,
        to: contact.to,
        ...mailOf(notice, reader),
        headers: { 'X-Fleet-Notification': notice.id },
      });
      return { ok: true, ms: Math.round(performance.now() - started) };
    } catch (error) {
      const e = error as { code?: string; responseCode?: number; message?: string };
      // A refusal (bad login, unknown mailbox: 5xx) will not change by itself; a lost connection may.
      const refused = e.code === 'EAUTH' || (typeof e.responseCode === 'number' && e.responseCode >= 500);
      return failed(refused ? 'refused' : 'unreachable', e.message ?? String(error), !refused);
    } finally {
      transport.close();
    }
  }
  const request = channelRequest(contact, notice, reader);
  const refusedBecause = await refusedTarget(request.url, { allowPrivate: options.allowPrivateTargets });
  if (refusedBecause) return failed('target', refusedBecause, false);
  try {
    const res = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = acceptedBy(contact.channel, res.status, await res.text());
    if (answer.ok) return { ok: true, ms: Math.round(performance.now() - started) };
    // 429 and 5xx may pass; any other refusal is the contact's to fix.
    return failed('refused', answer.detail, res.status === 429 || res.status >= 500);
  } catch (error) {
    // fetch says only "fetch failed"; its cause names what happened (ECONNREFUSED, ENOTFOUND, a timeout).
    const e = error as Error & { cause?: { code?: string; message?: string } };
    return failed('unreachable', e.cause?.code ?? e.cause?.message ?? e.message, true);
  }
}
