import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { updateVoyageSchema, voyageSchema } from '../../../src/domain/vesselSchemas';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { DEVICE_EDITORS } from '../../auth/deviceScope';
import { currentVoyage, deleteVoyage, findVisibleVoyage, insertVoyage, listVoyages, updateVoyage } from './voyageQueries';
import { visibleVessel } from './vesselAccessQueries';

const tags = ['voyage'];
const notFound = () => new BizError(ErrorCode.NotFound, 'error.voyageNotFound');
const text = { type: ['string', 'null'] } as const;
const voyageObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    deviceId: { type: 'integer' },
    deviceName: { type: 'string' },
    voyageNo: { type: 'string' },
    destination: { type: 'string' },
    etd: { type: 'string', format: 'date-time' },
    eta: { type: 'string', format: 'date-time' },
    agent: { type: 'string' },
    email: text,
    phone: text,
    remark: text,
    status: { type: 'string', enum: ['planned', 'underway', 'arrived'] },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
} as const;
const voyageBody = {
  type: 'object',
  properties: {
    id: { type: ['integer', 'null'], description: 'update only' },
    deviceId: { type: ['integer', 'null'] },
    voyageNo: text,
    destination: text,
    etd: { type: ['string', 'null'], description: 'ISO 8601 with zone' },
    eta: { type: ['string', 'null'], description: 'ISO 8601 with zone, not before etd' },
    agent: text,
    email: text,
    phone: text,
    remark: text,
  },
} as const;

/** deviceModule/voyage: voyages per vessel (read: levels 1-3 on visible vessels; write: levels 1, 2). */
export async function voyageRoutes(app: Api, { db }: ServerContext) {
  app.get(
    '/voyage/getAll',
    {
      schema: {
        tags,
        summary: 'Visible voyages, newest etd first: the history of one vessel (deviceId) or of all',
        querystring: {
          type: 'object',
          properties: {
            ...tokenQuery,
            ...pageQuery,
            deviceId: { type: 'integer' },
            search: { type: 'string', maxLength: 64 },
            order: { type: 'string', enum: ['asc', 'desc'] },
          },
        },
        response: envelope(pageOf(voyageObject)),
      },
    },
    async (request) => {
      const q = request.query;
      if (q.deviceId) await visibleVessel(db, request.user, q.deviceId);
      return ok(await listVoyages(db, request.user, q));
    },
  );

  app.get(
    '/voyage/getById',
    { schema: { tags, summary: 'One visible voyage', querystring: idQuery, response: envelope(voyageObject) } },
    async (request) => {
      const { id } = request.query;
      const voyage = await findVisibleVoyage(db, request.user, id);
      if (!voyage) throw notFound();
      return ok(voyage);
    },
  );

  app.get(
    '/voyage/getCurrent',
    {
      schema: {
        tags,
        summary: 'The current voyage of a visible vessel (under way, else next planned, else last arrived), or null',
        querystring: { type: 'object', required: ['deviceId'], properties: { ...tokenQuery, deviceId: { type: 'integer' } } },
        response: envelope({ ...voyageObject, type: ['object', 'null'] }),
      },
    },
    async (request) => {
      const { deviceId } = request.query;
      await visibleVessel(db, request.user, deviceId);
      return ok(await currentVoyage(db, deviceId));
    },
  );

  app.post(
    '/voyage/add',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: 'Add a voyage to a visible vessel (voyageNo, destination, etd, eta, agent required; eta not before etd)',
        querystring: { type: 'object', properties: tokenQuery },
        body: voyageBody,
        response: envelope(voyageObject),
      },
    },
    async (request) => {
      const input = parseWith(voyageSchema, request.body);
      await visibleVessel(db, request.user, input.deviceId);
      const id = await insertVoyage(db, input, request.user.id);
      return ok(await findVisibleVoyage(db, request.user, id));
    },
  );

  app.post(
    '/voyage/update',
    {
      config: { levels: DEVICE_EDITORS },
      schema: {
        tags,
        summary: 'Replace the fields of a visible voyage',
        querystring: { type: 'object', properties: tokenQuery },
        body: voyageBody,
        response: envelope(voyageObject),
      },
    },
    async (request) => {
      const { id, ...input } = parseWith(updateVoyageSchema, request.body);
      if (!(await findVisibleVoyage(db, request.user, id))) throw notFound();
      await visibleVessel(db, request.user, input.deviceId);
      await updateVoyage(db, id, input);
      return ok(await findVisibleVoyage(db, request.user, id));
    },
  );

  app.delete(
    '/voyage/deleteById',
    {
      config: { levels: DEVICE_EDITORS },
      schema: { tags, summary: 'Delete a visible voyage', querystring: idQuery, response: envelope() },
    },
    async (request) => {
      const { id } = request.query;
      if (!(await findVisibleVoyage(db, request.user, id))) throw notFound();
      await deleteVoyage(db, id);
      return ok(null);
    },
  );
}
