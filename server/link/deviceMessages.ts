import { holdsSecret, type ReportingDevice } from '../auth/deviceCredentials';
import { parseBatch } from '../modules/monitoring/reportBatch';
import { BizError, translateFields } from '../http/envelope';
import { refuseDeepNesting } from '../http/edgeValidation';
import { ErrorCode } from '../../src/domain/errorCodes';
import { translateDomain } from '../../src/domain/messages';
import type { FieldError } from '../../src/domain/validate';
import type { CommandAck, LinkParts } from './deviceLink';
import { topicOf, type DeviceTopic } from './topics';

export interface DeviceMessagesParts {
  devices: LinkParts['devices'];
  ingest: LinkParts['ingest'];
  root: string;
  /** Publishes on a device's topic (QoS 0): the refusals of its reports. */
  publish(topic: string, payload: string): Promise<void>;
  ackListeners: ((deviceNum: string, ack: CommandAck) => Promise<void>)[];
  /** Largest report payload (config.mqttMaxReportBytes): a larger one is refused on report/error (docs/devices.md, "Limits"). */
  maxReportBytes: number;
  /** Counts report messages received, stored and refused (transport mqtt); absent when metrics are off. */
  metrics?: LinkParts['metrics'];
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
  /** Refusals go back in English: MQTT carries no user language. */
  const refuse = (deviceNum: string, error: BizError) => {
    const data = Array.isArray(error.data) ? translateFields('en', error.data as FieldError[]) : error.data;
    const body = { code: error.code, msg: translateDomain('en', error.msgKey, error.vars), data };
    return parts.publish(topicOf(parts.root, deviceNum, 'report/error'), JSON.stringify(body));
  };

  const report = async (deviceNum: string, payload: Buffer, connected?: ReportingDevice) => {
    parts.metrics?.received('mqtt');
    try {
      if (payload.length > parts.maxReportBytes)
        throw new BizError(ErrorCode.Validation, 'error.reportTooLarge', null, { max: parts.maxReportBytes });
      let body: unknown;
      try {
        body = JSON.parse(payload.toString('utf8'));
      } catch {
        throw new BizError(ErrorCode.BadRequest, 'error.badRequest', 'the report is not JSON');
      }
      // As HTTP's edge does: too deep a body is a validation error (code 1), not a stack overflow that leaves it unacknowledged.
      refuseDeepNesting(body);
      const known = await parts.devices.get(deviceNum);
      if (!known || (connected && known.id !== connected.id)) throw new BizError(ErrorCode.DeviceAuthFailed);
      // A device that connected unactivated stays unactivated until it connects again with its secret.
      const device = { id: known.id, activated: holdsSecret(known) && (connected?.activated ?? true) };
      const result = (await parts.ingest.write(device, parseBatch(body))) as { accepted?: number } | undefined;
      parts.metrics?.stored('mqtt', result?.accepted ?? 0);
    } catch (error) {
      parts.metrics?.refused('mqtt', error);
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
    try {
      refuseDeepNesting(parsed.data); // malformed as well: its data could not be stored
    } catch {
      return;
    }
    const value: CommandAck = { id: parsed.id!, ok: parsed.ok };
    if (typeof parsed.message === 'string') value.message = parsed.message.slice(0, 500);
    if (parsed.data !== undefined) value.data = parsed.data;
    for (const listener of parts.ackListeners) await listener(deviceNum, value);
  };

  return {
    async handle(deviceNum: string, kind: DeviceTopic, payload: Buffer | string, connected?: ReportingDevice): Promise<void> {
      if (kind === 'report') return report(deviceNum, typeof payload === 'string' ? Buffer.from(payload) : payload, connected);
      const text = typeof payload === 'string' ? payload : payload.toString('utf8');
      if (kind === 'cmd/ack') return ack(deviceNum, text);
      if (kind === 'status' && (text === 'online' || text === 'offline')) parts.onStatus?.(deviceNum, text === 'online');
    },
  };
}
