/**
 * Device topics and the one access rule of the device link (docs/devices.md), used by the
 * embedded broker's hooks and by the HTTP endpoints an external broker's auth plugin calls.
 */

/** What a device publishes (the server listens) and what it receives. */
export type DeviceTopic = 'report' | 'status' | 'cmd/ack' | 'cmd' | 'report/error';

const DEVICE_PUBLISHES: readonly DeviceTopic[] = ['report', 'status', 'cmd/ack'];
const DEVICE_SUBSCRIBES: readonly DeviceTopic[] = ['cmd', 'report/error'];

export const topicOf = (root: string, deviceNum: string, kind: DeviceTopic) => `${root}/${deviceNum}/${kind}`;

/** root/N/kind split into its device number and kind; null for anything else (wildcards included). */
export function parseTopic(root: string, topic: string): { deviceNum: string; kind: DeviceTopic } | null {
  if (!topic.startsWith(`${root}/`)) return null;
  const rest = topic.slice(root.length + 1);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  const deviceNum = rest.slice(0, slash);
  const kind = rest.slice(slash + 1) as DeviceTopic;
  if (deviceNum === '+' || deviceNum === '#' || ![...DEVICE_PUBLISHES, ...DEVICE_SUBSCRIBES].includes(kind)) return null;
  return { deviceNum, kind };
}

/**
 * A device (its MQTT username is its device number) may publish only its own report, status and
 * cmd/ack, and subscribe only to its own cmd and report/error. Everything else is refused:
 * another device's topics, wildcards, $SYS, shared subscriptions.
 */
export function deviceMayAccess(root: string, deviceNum: string, topic: string, access: 'publish' | 'subscribe'): boolean {
  const parsed = parseTopic(root, topic);
  if (!parsed || parsed.deviceNum !== deviceNum) return false;
  return (access === 'publish' ? DEVICE_PUBLISHES : DEVICE_SUBSCRIBES).includes(parsed.kind);
}
