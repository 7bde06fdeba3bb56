import type { Language } from '../../src/domain/constants';
import { translateDomain } from '../../src/domain/messages';

/**
 * What one notification says about one alarm transition, before it is shaped for a channel
 * (docs/api.md, "Notifications"). Times are instants; each recipient reads them in its own zone
 * and language.
 */
export type NoticeSeverity = 'critical' | 'major' | 'minor';

export interface Notice {
  /** The notification's id: the webhook's idempotency key, the same on every retry. */
  id: string;
  event: 'alarm.raised' | 'alarm.cleared';
  alarm: { id: number; code: string | null; text: string; severity: NoticeSeverity };
  vessel: { id: number; name: string };
  /** When the alarm was raised or cleared. */
  occurredAt: Date;
  position: { lat: number; lon: number } | null;
  /** The vessel's page in the console. */
  link: string;
  /** A signed link that acknowledges the alarm without logging in (single use, expiring). */
  ackLink?: string;
}

export interface Reader {
  language: Language;
  /** An IANA zone (Asia/Shanghai). */
  timeZone: string;
}

/** 2026-11-26 14:03 (UTC+08:00): the recipient's wall clock, with its offset so nobody guesses. */
export function localTime(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const zone = String(parts.timeZoneName);
  const offset = zone === 'GMT' || zone === 'GMT+00:00' ? 'UTC' : zone.replace('GMT', 'UTC');
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} (${offset})`;
}

const degrees = (value: number, positive: string, negative: string) => `${Math.abs(value).toFixed(4)}°${value >= 0 ? positive : negative}`;

/** A storm's messages to one recipient as one: the count, the first alarms, a link to the filtered status monitor. */
export interface Digest {
  /** The message's id: the idempotency key of the webhook. */
  id: string;
  notices: readonly Notice[];
  link: string;
}

export type Message = Notice | Digest;
export const isDigest = (m: Message): m is Digest => 'notices' in m;

/** The most alarms a digest lists by name; the rest are counted. */
export const DIGEST_LISTED = 10;

export interface MessageText {
  title: string;
  lines: [string, string][];
  /** Labelled links: the vessel's page, the acknowledge link, or the status monitor. */
  links: [string, string][];
}

const alarmText = (notice: Notice) => (notice.alarm.code ? `${notice.alarm.code} ${notice.alarm.text}` : notice.alarm.text);

/** A message as text for a person: a title, labelled lines and links, in the reader's language and zone. */
export function messageText(message: Message, reader: Reader): MessageText {
  const t = (key: string, values?: Record<string, string | number>) => translateDomain(reader.language, key, values);
  if (isDigest(message)) {
    const { notices } = message;
    const vessels = new Set(notices.map((n) => n.vessel.id)).size;
    const lines = notices
      .slice(0, DIGEST_LISTED)
      .map((n): [string, string] => [
        n.vessel.name,
        `${t(`notify.severity.${n.alarm.severity}`)} · ${alarmText(n)}${n.event === 'alarm.cleared' ? ` (${t('notify.cleared')})` : ''} · ${localTime(n.occurredAt, reader.timeZone)}`,
      ]);
    if (notices.length > DIGEST_LISTED) lines.push(['…', t('notify.digest.more', { count: notices.length - DIGEST_LISTED })]);
    return {
      title: t('notify.digest.title', { count: notices.length, vessels }),
      lines,
      links: [[t('notify.digest.open'), message.link]],
    };
  }
  const severity = t(`notify.severity.${message.alarm.severity}`);
  const head = t(message.event === 'alarm.cleared' ? 'notify.cleared' : 'notify.raised');
  const lines: [string, string][] = [
    [t('notify.vessel'), message.vessel.name],
    [t('notify.alarm'), alarmText(message)],
    [t('notify.time'), localTime(message.occurredAt, reader.timeZone)],
  ];
  if (message.position)
    lines.push([t('notify.position'), `${degrees(message.position.lat, 'N', 'S')} ${degrees(message.position.lon, 'E', 'W')}`]);
  const links: [string, string][] = [[t('notify.open'), message.link]];
  if (message.ackLink) links.push([t('notify.acknowledge'), message.ackLink]);
  return { title: `[${severity}] ${head}: ${message.vessel.name}`, lines, links };
}

/** One notice in the webhook's JSON: UTC ISO times, ids, no language. */
const noticePayload = (notice: Notice) => ({
  id: notice.id,
  event: notice.event,
  occurredAt: notice.occurredAt.toISOString(),
  alarm: notice.alarm,
  vessel: notice.vessel,
  position: notice.position,
  link: notice.link,
  ...(notice.ackLink ? { acknowledgeLink: notice.ackLink } : {}),
});

/**
 * The webhook's JSON body (docs/api.md, "Notifications"): one notice, or a digest that carries
 * every notice of a storm (a receiver deduplicates by each notice's id).
 */
export const webhookPayload = (message: Message) =>
  isDigest(message)
    ? {
        id: message.id,
        event: 'digest' as const,
        count: message.notices.length,
        notifications: message.notices.map(noticePayload),
        link: message.link,
      }
    : noticePayload(message);
