import { createHmac } from 'node:crypto';
import { messageText, webhookPayload, type Message, type Reader } from './notice';

/**
 * One notice shaped for each channel's documented format, as an HTTP request (docs/api.md,
 * "Notifications"). Pure: the clock is a parameter, so the signatures can be checked.
 */
export type HttpContact =
  /** Our JSON, signed with the contact's secret: X-Fleet-Signature = sha256=<hex HMAC-SHA256 of the body>. */
  | { channel: 'webhook'; url: string; secret: string }
  /** WeCom group robot: https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=... */
  | { channel: 'wecom'; url: string }
  /** DingTalk robot: https://oapi.dingtalk.com/robot/send?access_token=...; with a secret, timestamp and sign are added. */
  | { channel: 'dingtalk'; url: string; secret?: string }
  /** Feishu/Lark custom bot: https://open.feishu.cn/open-apis/bot/v2/hook/...; with a secret, the body carries timestamp and sign. */
  | { channel: 'feishu'; url: string; secret?: string }
  /** Telegram bot: sendMessage to a chat; apiBase is https://api.telegram.org unless a proxy is set. */
  | { channel: 'telegram'; botToken: string; chatId: string; apiBase?: string };

export interface HttpRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const json = { 'content-type': 'application/json' };

/** Markdown for the robots that take it (WeCom, DingTalk). */
function markdown(message: Message, reader: Reader): { title: string; text: string } {
  const { title, lines, links } = messageText(message, reader);
  const body = lines.map(([label, value]) => `> **${label}**: ${value}`).join('\n');
  return { title, text: `### ${title}\n${body}\n\n${links.map(([label, url]) => `[${label}](${url})`).join('  \n')}` };
}

/** Plain text for the others (Feishu text, Telegram). */
function plain(message: Message, reader: Reader): string {
  const { title, lines, links } = messageText(message, reader);
  return [title, ...lines.map(([label, value]) => `${label}: ${value}`), ...links.map(([label, url]) => `${label}: ${url}`)].join('\n');
}

/** The HMAC-SHA256 of the webhook body, as the X-Fleet-Signature header carries it. */
export const webhookSignature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** DingTalk: base64(HmacSHA256(secret, "<ms>\n<secret>")), URL-encoded in the query. */
export const dingTalkSign = (secret: string, timestampMs: number) =>
  createHmac('sha256', secret).update(`${timestampMs}\n${secret}`).digest('base64');

/** Feishu: base64(HmacSHA256 keyed with "<s>\n<secret>" over nothing). */
export const feishuSign = (secret: string, timestampS: number) =>
  createHmac('sha256', `${timestampS}\n${secret}`).update('').digest('base64');

export function channelRequest(contact: HttpContact, notice: Message, reader: Reader, now = Date.now()): HttpRequest {
  switch (contact.channel) {
    case 'webhook': {
      const body = JSON.stringify(webhookPayload(notice));
      return {
        url: contact.url,
        headers: { ...json, 'idempotency-key': notice.id, 'x-fleet-signature': webhookSignature(contact.secret, body) },
        body,
      };
    }
    case 'wecom':
      return {
        url: contact.url,
        headers: json,
        body: JSON.stringify({ msgtype: 'markdown', markdown: { content: markdown(notice, reader).text } }),
      };
    case 'dingtalk': {
      const url = new URL(contact.url);
      if (contact.secret) {
        url.searchParams.set('timestamp', String(now));
        url.searchParams.set('sign', dingTalkSign(contact.secret, now));
      }
      return { url: url.toString(), headers: json, body: JSON.stringify({ msgtype: 'markdown', markdown: markdown(notice, reader) }) };
    }
    case 'feishu': {
      const seconds = Math.floor(now / 1000);
      const signed = contact.secret ? { timestamp: String(seconds), sign: feishuSign(contact.secret, seconds) } : {};
      return {
        url: contact.url,
        headers: json,
        body: JSON.stringify({ ...signed, msg_type: 'text', content: { text: plain(notice, reader) } }),
      };
    }
    case 'telegram': {
      const base = (contact.apiBase ?? 'https://api.telegram.org').replace(/\/$/, '');
      return {
        url: `${base}/bot${contact.botToken}/sendMessage`,
        headers: json,
        body: JSON.stringify({ chat_id: contact.chatId, text: plain(notice, reader), disable_web_page_preview: true }),
      };
    }
  }
}

/**
 * Whether the service took the message, by its documented answer: WeCom and DingTalk answer
 * { errcode: 0 }, Feishu { code: 0 }, Telegram { ok: true }; a webhook any 2xx.
 */
export function acceptedBy(channel: HttpContact['channel'], status: number, body: string): { ok: true } | { ok: false; detail: string } {
  if (status < 200 || status > 299) return { ok: false, detail: `HTTP ${status}` };
  if (channel === 'webhook') return { ok: true };
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { ok: false, detail: 'not JSON' };
  }
  const ok =
    channel === 'telegram' ? answer.ok === true : channel === 'feishu' ? (answer.code ?? answer.StatusCode) === 0 : answer.errcode === 0;
  const detail = String(answer.errmsg ?? answer.msg ?? answer.description ?? JSON.stringify(answer)).slice(0, 200);
  return ok ? { ok: true } : { ok: false, detail };
}
