import type { ServerConfig } from '../config';
import type { DeviceReport } from '../../src/domain/reportSchema';
import type { CredentialSource, ReportingDevice } from '../auth/deviceCredentials';
import type { IngestMetrics } from '../ops/metrics';

/**
 * The server's side of the device link: how commands reach a device and how the
 * server learns that a device is connected or answered a command. One implementation talks to
 * the embedded Aedes broker, one to an external broker (MQTT_URL); tests may pass their own.
 *
 * Topics, per device number N (docs/devices.md):
 *   fleet/N/report   device -> server: one report or { reports: [...] } (the HTTP ingest body)
 *   fleet/N/status   device -> server: "online" / "offline" (its last will), retained
 *   fleet/N/cmd      server -> device: { id, kind, params, deadline } (QoS 1)
 *   fleet/N/cmd/ack  device -> server: { id, ok, message?, data? }
 */
/**
 * What a link is opened with, declared here so the link needs no ServerContext (server/context.ts
 * builds it, linkPartsOf): the settings, where reports go and where device credentials come from.
 */
export interface LinkParts {
  config: ServerConfig;
  /** The server's group-commit writer: resolves once the reports are committed (docs/architecture.md, "Ingest"). */
  ingest: { write(device: ReportingDevice, batch: readonly DeviceReport[]): Promise<unknown> };
  /** The server's device cache: credential rows by device number, without a query per report. */
  devices: CredentialSource;
  /** Counts the report messages that come over MQTT (server/ops/metrics.ts); absent when metrics are off. */
  metrics?: IngestMetrics;
}

export interface CommandAck {
  id: number;
  ok: boolean;
  message?: string;
  data?: unknown;
}

export interface DeviceLink {
  /** 'embedded', 'external' or 'none' (tests, or MQTT turned off). */
  readonly kind: 'embedded' | 'external' | 'none';
  /** Where devices connect (mqtt://host:port; the embedded broker's real port, or MQTT_URL); absent without a broker. */
  readonly deviceUrl?: string;
  /** Publishes on fleet/{deviceNum}/cmd at QoS 1; resolves when the broker has taken it. */
  sendCommand(deviceNum: string, payload: object): Promise<void>;
  /**
   * Whether a command sent now reaches the device, as far as this server knows: on the embedded
   * broker, connected with its cmd subscription in place; through an external broker, its last
   * status said "online" (a device subscribes to cmd before it says so, docs/devices.md).
   */
  isConnected(deviceNum: string): boolean;
  /** Called when a device becomes reachable as isConnected says. */
  onConnect(listener: (deviceNum: string) => void): void;
  /** Called for every well-formed command ack; the ack is acknowledged to the broker after the promise. */
  onCommandAck(listener: (deviceNum: string, ack: CommandAck) => Promise<void>): void;
  /**
   * Readiness and metrics: whether the link takes device connections now (the embedded broker
   * listens; at least one connection to the external broker is up) and how many devices are
   * connected (embedded) or online by their status (external).
   */
  status?(): { listening: boolean; connections: number };
  close(): Promise<void>;
}

/** A link that reaches no device: commands stay queued until a real link delivers them. */
export function noDeviceLink(): DeviceLink {
  return {
    kind: 'none',
    sendCommand: async () => {
      throw new Error('no device link');
    },
    isConnected: () => false,
    onConnect: () => undefined,
    onCommandAck: () => undefined,
    close: async () => undefined,
  };
}
