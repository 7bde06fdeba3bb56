import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import type { Queryable } from '../../db/connection';
import type { Principal } from '../../../src/domain/levels';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Feature } from '../../../src/domain/features';
import { cameraSchema, streamKindOf, updateCameraSchema } from '../../../src/domain/vesselSchemas';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, tokenQuery } from '../../http/schemas';
import { DEVICE_EDITORS } from '../../auth/deviceScope';
import { assertFeatureUnlocked } from '../devices/featureLock';
import { camerasOfDevice, deleteCamera, findVisibleCamera, insertCamera, updateCamera, type CameraRow } from './cameraQueries';

const tags = ['camera'];
const notFound = () => new BizError(ErrorCode.NotFound, 'error.cameraNotFound');
const text = { type: ['string', 'null'] } as const;
const cameraObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    deviceId: { type: 'integer' },
    deviceName: { type: 'string' },
    name: { type: 'string' },
    link: { type: 'string', description: 'http or https' },
    description: text,
    kind: { type: 'string', enum: ['hls', 'mjpeg', 'external'], description: 'How the console opens it' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
} as const;
const cameraBody = {
  type: 'object',
  properties: {
    id: { type: ['integer', 'null'], description: 'update only' },
    deviceId: { type: ['integer', 'null'] },
    name: text,
    link: { type: ['string', 'null'], description: 'http:// or https:// only' },
    description: text,
  },
} as const;

const present = <T extends CameraRow>(c: T) => ({ ...c, kind: streamKindOf(c.link) });

async function visibleCamera(db: Queryable, caller: Principal, id: number) {
  const row = await findVisibleCamera(db, caller, id);
  return row ? present(row) : undefined;
}

/** A visible camera whose vessel has the camera feature unlocked, else "not found" / locked. */
async function unlockedCamera(db: Queryable, caller: Principal, id: number) {
  const camera = await visibleCamera(db, caller, id);
  if (!camera) throw notFound();
  await assertFeatureUnlocked(db, caller, camera.deviceId, Feature.Camera);
  return camera;
}

/** deviceModule/camera: camera stream links per vessel (feature "camera"; read 1-3, write 1, 2). */
export async function cameraRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/camera/getAll',
    {
      schema: {
        tags,
        summary:
          "The cameras of a visible vessel whose camera feature is unlocked (else code 3 'contact your service provider to unlock it')",
        querystring: { type: 'object', required: ['deviceId'], properties: { ...tokenQuery, deviceId: { type: 'integer' } } },
        response: envelope({ type: 'object', properties: { list: { type: 'array', items: cameraObject }, total: { type: 'integer' } } }),
      },
    },
    async (request) => {
      const { deviceId } = request.query;
      await assertFeatureUnlocked(db, request.user, deviceId, Feature.Camera);
      const rows = await camerasOfDevice(db, deviceId);
      return ok({ list: rows.map(present), total: rows.length });
    },
  );

  app.get(
    '/camera/getById',
    { schema: { tags, summary: 'One camera of a visible, unlocked vessel', querystring: idQuery, response: envelope(cameraObject) } },
    async (request) => {
      const { id } = request.query;
      return ok(await unlockedCamera(db, request.user, id));
    },
  );

  app.post(
    '/camera/add',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: 'Add a camera (name, link required; link http(s) only)',
        querystring: { type: 'object', properties: tokenQuery },
        body: cameraBody,
        response: envelope(cameraObject),
      },
    },
    async (request) => {
      const input = parseWith(cameraSchema, request.body);
      await assertFeatureUnlocked(db, request.user, input.deviceId, Feature.Camera);
      return ok(await visibleCamera(db, request.user, await insertCamera(db, input)));
    },
  );

  app.post(
    '/camera/update',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: 'Replace the fields of a camera',
        querystring: { type: 'object', properties: tokenQuery },
        body: cameraBody,
        response: envelope(cameraObject),
      },
    },
    async (request) => {
      const { id, ...input } = parseWith(updateCameraSchema, request.body);
      await unlockedCamera(db, request.user, id);
      await assertFeatureUnlocked(db, request.user, input.deviceId, Feature.Camera);
      await updateCamera(db, id, input);
      return ok(await visibleCamera(db, request.user, id));
    },
  );

  app.delete(
    '/camera/deleteById',
    {
      config: { levels: DEVICE_EDITORS },
      schema: { tags, summary: 'Delete a camera', querystring: idQuery, response: envelope() },
    },
    async (request) => {
      const { id } = request.query;
      await unlockedCamera(db, request.user, id);
      await deleteCamera(db, id);
      return ok(null);
    },
  );
}
