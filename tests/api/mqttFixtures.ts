import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';

/** The Mosquitto the external-broker tests use (MQTT_TEST_URL, else the local one). */
const MOSQUITTO_URL = process.env.MQTT_TEST_URL ?? 'mqtt://127.0.0.1:1883';

/** Whether an MQTT broker answers at `url` within two seconds. */
async function answers(url: string): Promise<boolean> {
  const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 2000, clientId: `probe-${process.pid}-${Date.now()}` });
  const ok = await new Promise<boolean>((resolve) => {
    client.once('connect', () => resolve(true));
    client.once('error', () => resolve(false));
    client.once('close', () => resolve(false));
  });
  await client.endAsync(true);
  return ok;
}

/** Mosquitto's URL when it answers, else '' (its tests are then not registered, as engines are for PostgreSQL). */
export const mosquittoUrl = (await answers(MOSQUITTO_URL)) ? MOSQUITTO_URL : '';

/** A device's connection: client id and username its number, password its secret (none: unactivated). */
export function deviceClient(url: string, deviceNum: string, secret?: string, options: IClientOptions = {}): MqttClient {
  return mqtt.connect(url, {
    clientId: deviceNum,
    username: deviceNum,
    password: secret,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...options,
  });
}

/** Resolves once connected; rejects with the broker's refusal (error.code: 4 bad credentials, 2 identifier rejected). */
export function connected(client: MqttClient): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client));
    client.once('error', reject);
  });
}

export const connectDevice = (url: string, deviceNum: string, secret?: string, options: IClientOptions = {}) =>
  connected(deviceClient(url, deviceNum, secret, options));

/** The next message on `topic`, parsed as JSON when it is JSON. */
export function nextMessage(client: MqttClient, topic: string): Promise<any> {
  return new Promise((resolve) => {
    const on = (t: string, payload: Buffer) => {
      if (t !== topic) return;
      client.off('message', on);
      const text = payload.toString();
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(text);
      }
    };
    client.on('message', on);
  });
}

/** Resolves when the broker closes the connection. */
export const closed = (client: MqttClient) => new Promise<void>((resolve) => client.once('close', () => resolve()));

/** Ends persistent sessions left on a broker (connect with clean: true, then leave). */
export async function forgetSessions(url: string, clientIds: string[]): Promise<void> {
  await Promise.all(
    clientIds.map(async (clientId) => {
      const client = mqtt.connect(url, { clientId, clean: true, reconnectPeriod: 0, protocolVersion: 4 });
      await new Promise<void>((resolve) => {
        client.once('connect', () => resolve());
        client.once('error', () => resolve());
      });
      await client.endAsync(true);
    }),
  );
}
