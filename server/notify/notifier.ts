import { randomBytes } from 'node:crypto';
import type { Db } from '../db/connection';
import { inBackground } from '../db/priority';
import type { ServerConfig } from '../config';
import type { Language } from '../../src/domain/constants';
import { alarmMeaning } from '../../src/domain/faultCodes';
import { userZone } from './quietHours';
import { contactOf } from './contacts';
import { deliver } from './delivery';
import { fanOut } from './fanOut';
import { signAckToken } from './ackLinks';
import { serverSecret } from './ackLinkQueries';
import type { Digest, Message, Notice } from './notice';
import {
  activeMailServer,
  alarmDetails,
  cancelSettledFollowUps,
  claimDueNotifications,
  contactPointsByIds,
  markAttemptFailed,
  markSent,
  usersByIds,
  type AlarmDetail,
  type ClaimedNotification,
} from './notifyQueries';

/** How the notifier runs (README lists the settings; docs/architecture.md, "Notification delivery"). */
export interface NotifierOptions {
  /** The console's address as recipients reach it, for the links in messages. */
  publicUrl: string;
  apiSegment: string;
  allowPrivateTargets: boolean;
  telegramApiBase: string;
  /** How often a worker looks for work (ms). */
  tickMs: number;
  /** The first retry's delay; each next one doubles, up to retryMaxMs, with jitter. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Attempts before a notification is failed. */
  maxAttempts: number;
  /** Storm control: a recipient gets at most `perWindow` messages per `windowMs`; the rest wait for one digest. */
  windowMs: number;
  perWindow: number;
  /** A claimed row not answered within this is claimed again (a worker died). */
  leaseMs: number;
  /** How long an acknowledge link works. */
  ackLinkMs: number;
  /** How long one service gets to answer. */
  timeoutMs: number;
  /** Told of each row marked sent: seconds from its writing to the service's answer (server/ops/metrics.ts). */
  onDelivered?: (seconds: number) => void;
}

export const NOTIFIER_DEFAULTS = {
  tickMs: 500,
  retryBaseMs: 5_000,
  retryMaxMs: 5 * 60_000,
  maxAttempts: 10,
  windowMs: 60_000,
  perWindow: 2,
  leaseMs: 60_000,
  ackLinkMs: 72 * 3_600_000,
  timeoutMs: 10_000,
} as const;

/** The notifier's options from the server's settings. */
export const notifierOptionsOf = (config: ServerConfig): NotifierOptions => ({
  ...NOTIFIER_DEFAULTS,
  publicUrl: config.publicUrl,
  apiSegment: config.apiSegment,
  allowPrivateTargets: config.notifyAllowPrivateTargets,
  telegramApiBase: config.telegramApiBase,
  tickMs: config.notifyTickMs,
  retryBaseMs: config.notifyRetryBaseMs,
  retryMaxMs: config.notifyRetryMaxMs,
  maxAttempts: config.notifyMaxAttempts,
  windowMs: config.notifyDigestSeconds * 1000,
  leaseMs: config.notifyLeaseSeconds * 1000,
});

/** Whom a claimed row goes to: a contact point, or a user by mail. */
interface Target {
  row: { channel: string; target: string; secret: string | null };
  language: Language;
  timeZone: string;
}

/** Recipients claimed per round, rows one message carries at most, recipients sent to at once. */
const CLAIM_RECIPIENTS = 64;
const PER_MESSAGE = 2000;
const PARALLEL = 8;

/** Exponential backoff with jitter: half the doubled delay is fixed, half random. */
export function retryDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(full / 2 + (random() * full) / 2);
}

export interface Notifier {
  /** One round now: outbox to delivery log, then every due message (tests and benches call it). */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The notification worker (docs/architecture.md, "Notification delivery"). Every replica runs one:
 * rows are claimed with FOR UPDATE SKIP LOCKED and a lease, so replicas share the work and a
 * worker killed mid-send leaves its rows to be sent again (at least once; receivers deduplicate by
 * the idempotency key).
 */
export async function startNotifier(db: Db, options: NotifierOptions, log: (message: string) => void): Promise<Notifier> {
  const secret = await serverSecret(db, 'ack-link', randomBytes(32).toString('base64url'));
  let running: Promise<void> | null = null;
  let stopped = false;

  const round = async () => {
    while ((await fanOut(db)) > 0 && !stopped);
    await cancelSettledFollowUps(db);
    for (;;) {
      const claimed = await claimDueNotifications(db, {
        recipients: CLAIM_RECIPIENTS,
        perMessage: PER_MESSAGE,
        leaseMs: options.leaseMs,
        windowMs: options.windowMs,
        perWindow: options.perWindow,
      });
      if (!claimed.length || stopped) return;
      await sendClaimed(claimed);
      if (new Set(claimed.map((c) => c.recipient)).size < CLAIM_RECIPIENTS) return;
    }
  };

  async function sendClaimed(claimed: readonly ClaimedNotification[]) {
    const contacts = new Map(
      (await contactPointsByIds(db, [...new Set(claimed.flatMap((c) => c.contactPointId ?? []))])).map((c) => [c.id, c]),
    );
    const users = new Map((await usersByIds(db, [...new Set(claimed.flatMap((c) => c.userId ?? []))])).map((u) => [u.id, u]));
    const alarms = new Map((await alarmDetails(db, [...new Set(claimed.map((c) => c.alarmId))])).map((a) => [a.alarmId, a]));
    const mailServer = users.size || [...contacts.values()].some((c) => c.channel === 'email') ? await activeMailServer(db) : null;
    const byRecipient = new Map<string, ClaimedNotification[]>();
    for (const row of claimed) byRecipient.set(row.recipient, [...(byRecipient.get(row.recipient) ?? []), row]);
    const groups = [...byRecipient.values()];
    const targetOf = (row: ClaimedNotification): Target | string => {
      if (row.userId !== null) {
        const user = users.get(row.userId);
        if (!user) return 'user deleted';
        if (!user.email) return 'the user has no email address';
        return {
          row: { channel: 'email', target: user.email, secret: null },
          language: user.language === 'en' ? 'en' : 'zh',
          timeZone: userZone(user.offsetHours),
        };
      }
      const contact = row.contactPointId === null ? undefined : contacts.get(row.contactPointId);
      if (!contact) return 'contact point deleted';
      if (!contact.enabled) return 'contact point disabled';
      return { row: contact, language: contact.language === 'en' ? 'en' : 'zh', timeZone: contact.timeZone };
    };
    for (let i = 0; i < groups.length; i += PARALLEL)
      await Promise.all(groups.slice(i, i + PARALLEL).map((rows) => sendGroup(rows, targetOf(rows[0]!), alarms, mailServer)));
  }

  async function sendGroup(
    rows: ClaimedNotification[],
    target: Target | string,
    alarms: Map<number, AlarmDetail>,
    mailServer: Awaited<ReturnType<typeof activeMailServer>>,
  ) {
    const ids = rows.map((r) => r.id);
    if (typeof target === 'string') return markAttemptFailed(db, ids, target, null);
    const { language, timeZone } = target;
    const contact = contactOf(target.row, options.telegramApiBase, mailServer);
    if (!contact) return retryOrFail(rows, 'no mail server', true);
    const notices = rows.flatMap((r) => {
      const alarm = alarms.get(r.alarmId);
      return alarm ? [noticeOf(r, alarm, language)] : [];
    });
    // The alarm was deleted with its vessel: nothing to say.
    if (!notices.length) return markAttemptFailed(db, ids, 'alarm deleted', null);
    const message: Message =
      notices.length === 1
        ? notices[0]!
        : ({
            id: `digest-${ids[0]}-${ids.at(-1)}-${ids.length}`,
            notices,
            link: `${options.publicUrl}/device/deviceManageData?tab=alarms`,
          } satisfies Digest);
    const result = await deliver(contact, message, { language, timeZone }, options);
    if (result.ok) {
      const sent = await markSent(db, ids, ids[0]!);
      if (options.onDelivered) for (const row of sent) options.onDelivered(row.latencyMs / 1000);
      return;
    }
    log(`notification to ${rows[0]!.recipient} (${contact.channel}) failed: ${result.detail}`);
    return retryOrFail(rows, result.detail, result.retry);
  }

  function retryOrFail(rows: ClaimedNotification[], error: string, retry: boolean) {
    const attempts = Math.max(...rows.map((r) => r.attempts));
    const next =
      retry && attempts < options.maxAttempts ? new Date(Date.now() + retryDelay(attempts, options.retryBaseMs, options.retryMaxMs)) : null;
    return markAttemptFailed(
      db,
      rows.map((r) => r.id),
      error,
      next,
    );
  }

  function noticeOf(row: ClaimedNotification, alarm: AlarmDetail, language: Language): Notice {
    const cleared = row.event === 'cleared';
    return {
      id: row.key,
      event: cleared ? 'alarm.cleared' : 'alarm.raised',
      alarm: { id: alarm.alarmId, code: alarm.code, text: alarmMeaning(alarm.code, alarm.detail, language), severity: alarm.severity },
      vessel: { id: alarm.deviceId, name: alarm.deviceName },
      occurredAt: cleared ? (alarm.clearedAt ?? row.createdAt) : alarm.raisedAt,
      position: alarm.lat === null || alarm.lon === null ? null : { lat: alarm.lat, lon: alarm.lon },
      link: `${options.publicUrl}/device/deviceDataDetail?id=${alarm.deviceId}`,
      ...(cleared
        ? {}
        : {
            ackLink: `${options.publicUrl}/cz/${options.apiSegment}/supportModule/notification/acknowledge?token=${signAckToken(secret, row.id, new Date(Date.now() + options.ackLinkMs))}`,
          }),
    };
  }

  const tick = () => {
    if (running || stopped) return running ?? Promise.resolve();
    running = inBackground(round)
      .catch((error: Error) => log(`notifications: ${error.message}`))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void tick(), options.tickMs);
  timer.unref();
  return {
    async runOnce() {
      await running;
      await tick();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
