import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerContext } from '../context';
import { ErrorCode } from '../../src/domain/errorCodes';
import { sendBizError, BizError } from '../http/envelope';
import { checkDeviceCredentials } from '../auth/deviceCredentials';
import { deviceMayAccess } from './topics';

/** Equal strings in constant time (hashes first, so lengths do not leak). */
const same = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** The broker's shared secret: header x-mqtt-auth-secret, or Authorization: Bearer <secret>. */
function brokerSecret(request: FastifyRequest): string {
  const header = request.headers['x-mqtt-auth-secret'];
  if (typeof header === 'string') return header;
  const auth = request.headers.authorization ?? '';
  return auth.startsWith('Bearer ') ? auth.slice(7) : '';
}

/**
 * Access a broker plugin asks about: EMQX and HiveMQ send "publish"/"subscribe" (action),
 * mosquitto-go-auth a number (acc: 1 read, 2 write, 3 read-write, 4 subscribe). Reading a topic is
 * receiving it, which a device may only do on topics it may subscribe to.
 */
function accessOf(body: Record<string, unknown>): 'publish' | 'subscribe' | null {
  const raw = body.access ?? body.action ?? body.acc;
  const value = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (value === 'publish' || value === 2) return 'publish';
  if (value === 'subscribe' || value === 1 || value === 4) return 'subscribe';
  return null;
}

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

const bodySchema = {
  type: 'object',
  properties: {
    username: { type: 'string' },
    password: { type: 'string' },
    clientid: { type: 'string' },
    topic: { type: 'string' },
    // A word (EMQX, HiveMQ) or a number (mosquitto-go-auth): read by accessOf.
    access: {},
    action: { type: 'string' },
    acc: {},
  },
} as const;

/**
 * deviceModule/mqtt/auth, /acl and /superuser: what an external broker's HTTP auth plugin calls
 * (EMQX, HiveMQ, mosquitto-go-auth's http backend; docs/devices.md). They answer with the same
 * rules as the embedded broker (checkDeviceCredentials, deviceMayAccess): HTTP 200 and result
 * "allow", or HTTP 403 and result "deny". Only the broker may ask: each request carries the
 * shared secret MQTT_AUTH_SECRET; without that setting they refuse everything.
 */
export async function mqttAuthRoutes(app: FastifyInstance, { devices, config }: ServerContext) {
  const answer = (reply: FastifyReply, allow: boolean, superuser = false) =>
    reply.status(allow ? 200 : 403).send({
      code: allow ? ErrorCode.Ok : ErrorCode.DeviceAuthFailed,
      msg: allow ? 'success' : 'denied',
      data: { result: allow ? 'allow' : 'deny' },
      // The plugins' own fields: EMQX / HiveMQ read result and is_superuser, mosquitto-go-auth ok.
      result: allow ? 'allow' : 'deny',
      is_superuser: superuser,
      ok: allow,
    });
  const isServer = (username: string) => username === config.mqttServerUser;
  const guarded = async (
    request: FastifyRequest,
    reply: FastifyReply,
    decide: (body: Record<string, unknown>) => Promise<[boolean, boolean?]>,
  ) => {
    if (!config.mqttAuthSecret || !same(brokerSecret(request), config.mqttAuthSecret)) {
      return sendBizError(request, reply, new BizError(ErrorCode.Forbidden), 401);
    }
    const [allow, superuser] = await decide((request.body ?? {}) as Record<string, unknown>);
    return answer(reply, allow, superuser);
  };
  const route = { config: { public: true }, schema: { tags: ['devices'], security: [], body: bodySchema } };

  app.post(
    '/mqtt/auth',
    { ...route, schema: { ...route.schema, summary: 'External broker: may this client connect (device number and activation secret)?' } },
    (request, reply) =>
      guarded(request, reply, async (body) => {
        const username = text(body.username);
        const password = text(body.password);
        if (isServer(username)) return [same(password, config.mqttAuthSecret), true];
        // As on the embedded broker, a device's client id is its number (when the broker says which).
        const clientId = text(body.clientid);
        if (clientId && clientId !== username) return [false];
        return [(await checkDeviceCredentials(devices, username, password)) !== null];
      }),
  );

  app.post(
    '/mqtt/acl',
    { ...route, schema: { ...route.schema, summary: 'External broker: may this client publish or subscribe to this topic?' } },
    (request, reply) =>
      guarded(request, reply, async (body) => {
        const username = text(body.username);
        if (isServer(username)) return [true, true];
        const access = accessOf(body);
        return [access !== null && deviceMayAccess(config.mqttTopicRoot, username, text(body.topic), access)];
      }),
  );

  app.post(
    '/mqtt/superuser',
    { ...route, schema: { ...route.schema, summary: "External broker (mosquitto-go-auth): is this the server's own account?" } },
    (request, reply) => guarded(request, reply, async (body) => [isServer(text(body.username)), isServer(text(body.username))]),
  );
}
