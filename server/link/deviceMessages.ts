import type { Queryable } from '../db/connection';
import type { IngestWriter } from '../modules/monitoring/ingestWriter';
import type { ReportingDevice } from '../modules/monitoring/deviceAuth';
import { parseBatch } from '../modules/monitoring/ingestRoutes';
import { BizError, translateFields } from '../http/envelope';
import { ErrorCode } from '../../src/domain/errorCodes';
import { translateDomain } from '../../src/domain/messages';
import type { FieldError } from '../../src/domain/validate';
import type { CommandAck } from './deviceLink';
import { topicOf, type DeviceTopic } from './topics';

/** How long a device's id and activation are reused between reports (external broker: looked up by topic). */
const DEVICE_CACHE_MS = 10_000;
const DEVICE_CACHE_MAX = 200_000;

export interface DeviceMessagesParts {
  db: Queryable;
  ingest: IngestWriter;
  root: string;
  /** Publishes on a device's topic (QoS 0): the refusals of its reports. */
  publish(topic: string, payload: string): Promise<void>;
  ackListeners: ((deviceNum: string, ack: CommandAck) => Promise<void>)[];
  /** A device said "online" / "offline" on its status topic. */
  onStatus?(deviceNum: string, online: boolean): void;
}

/**
 * What the server does with a message a device published on one of its own topics, on either
 * broker. The promise resolves once the message is dealt with (a report committed, an ack's
 * listeners done): only then is the message acknowledged (PUBACK). It rejects only when the
 * message should come again (server busy, database down); a message refused for what it says is
 * answered on root/N/report/error and resolves (it would be refused again).
 *
 * `connected`: the identity the device proved when it connected (embedded broker); without it
 * (external broker, which authenticated the device itself) the device is looked up by number.
 */
export function createDeviceMessages(parts: DeviceMessagesParts) {
  const cache = new Map<string, { device: ReportingDevice | null; at: number }>();
  /** Device numbers waiting for the next lookup query, with the promises of their callers. */
  let waiting = new Map<string, { resolve(device: ReportingDevice | null): void; reject(error: unknown): void }[]>();

  /** One query for every number asked for in the same turn of the event loop (10,000 devices' first reports). */
  const flush = async () => {
    const batch = waiting;
    waiting = new Map();
    const nums = [...batch.keys()];
    const found = new Map<string, ReportingDevice>();
    try {
      for (let i = 0; i < nums.length; i += 1000) {
        const rows = await parts.db.query<{ num: string; id: number; activated: boolean; secret_hash: string | null }>(
          'SELECT device_num AS num, id, activated, secret_hash FROM devices WHERE device_num = ANY($1::text[])', [nums.slice(i, i + 1000)]);
        for (const row of rows) found.set(row.num, { id: row.id, activated: row.activated && !!row.secret_hash });
      }
    } catch (error) {
      // The database is down: callers see the cached device if any, else a failure (the report comes again).
      for (const [num, callers] of batch) {
        const hit = cache.get(num);
        for (const caller of callers) (hit ? caller.resolve(hit.device) : caller.reject(error));
      }
      return;
    }
    if (cache.size + nums.length > DEVICE_CACHE_MAX) cache.clear();
    for (const [num, callers] of batch) {
      const device = found.get(num) ?? null;
      cache.set(num, { device, at: Date.now() });
      for (const caller of callers) caller.resolve(device);
    }
  };
  const query = (deviceNum: string) => new Promise<ReportingDevice | null>((resolve, reject) => {
    if (!waiting.size) setImmediate(() => void flush());
    const callers = waiting.get(deviceNum) ?? [];
    callers.push({ resolve, reject });
    waiting.set(deviceNum, callers);
  });

  /**
   * The device as the database knows it (id, activated): one lookup per device every few seconds,
   * not one per report. A stale entry is used while it is looked up again, so that the entries of
   * a whole fleet, cached together, do not all make their reports wait at the same moment.
   */
  const lookup = async (deviceNum: string): Promise<ReportingDevice | null> => {
    const hit = cache.get(deviceNum);
    if (!hit) return query(deviceNum);
    if (Date.now() - hit.at >= DEVICE_CACHE_MS && !waiting.has(deviceNum)) {
      hit.at = Date.now(); // one refresh at a time
      void query(deviceNum).catch(() => undefined);
    }
    return hit.device;
  };

  /** Refusals go back in English: MQTT carries no user language. */
  const refuse = (deviceNum: string, error: BizError) => {
    const data = Array.isArray(error.data) ? translateFields('en', error.data as FieldError[]) : error.data;
    const body = { code: error.code, msg: translateDomain('en', error.msgKey, error.vars), data };
    return parts.publish(topicOf(parts.root, deviceNum, 'report/error'), JSON.stringify(body));
  };

  const report = async (deviceNum: string, payload: string, connected?: ReportingDevice) => {
    try {
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        throw new BizError(ErrorCode.BadRequest, 'error.badRequest', 'the report is not JSON');
      }
      const known = await lookup(deviceNum);
      if (!known || (connected && known.id !== connected.id)) throw new BizError(ErrorCode.DeviceAuthFailed);
      // A device that connected unactivated stays unactivated until it connects again with its secret.
      const device = { id: known.id, activated: known.activated && (connected?.activated ?? true) };
      await parts.ingest.write(device, parseBatch(body));
    } catch (error) {
      // Busy (the writer's backlog is full) and database failures are not acknowledged: the report comes again.
      if (error instanceof BizError && error.code !== ErrorCode.Busy) return refuse(deviceNum, error);
      throw error;
    }
  };

  const ack = async (deviceNum: string, payload: string) => {
    let parsed: Partial<CommandAck>;
    try {
      parsed = JSON.parse(payload) as Partial<CommandAck>;
    } catch {
      return; // not an ack at all: nothing to follow
    }
    if (!parsed || !Number.isSafeInteger(parsed.id) || typeof parsed.ok !== 'boolean') return;
    const value: CommandAck = { id: parsed.id!, ok: parsed.ok };
    if (typeof parsed.message === 'string') value.message = parsed.message.slice(0, 500);
    if (parsed.data !== undefined) value.data = parsed.data;
    for (const listener of parts.ackListeners) await listener(deviceNum, value);
  };

  return {
    async handle(deviceNum: string, kind: DeviceTopic, payload: Buffer | string, connected?: ReportingDevice): Promise<void> {
      const text = typeof payload === 'string' ? payload : payload.toString('utf8');
      if (kind === 'report') return report(deviceNum, text, connected);
      if (kind === 'cmd/ack') return ack(deviceNum, text);
      if (kind === 'status' && (text === 'online' || text === 'offline')) parts.onStatus?.(deviceNum, text === 'online');
    },
  };
}
