import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { COMMAND_DEADLINE_DEFAULT_MIN, COMMAND_KINDS, COMMAND_STATES, commandSchema } from '../../../src/domain/commands';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import { visibleVessel } from '../vessel/vesselAccessQueries';
import { cancelQueuedCommand, findVisibleCommand, insertCommand, listCommands, maySendTo } from './commandQueries';
import { requeueLostCommands, startCommandDelivery } from './delivery';
import type { DeviceCommand } from '../../../src/domain/commands';
import type { Language } from '../../../src/domain/constants';
import { commandOutcome, commandParamsText, commandStateKey } from '../../../src/domain/commandOutcome';
import { translateDomain } from '../../../src/domain/messages';
import { XLSX_TYPE } from '../../http/xlsx';
import { exportOptionsOf, exportQuery, sendExport, type ExportValue } from '../../http/exportFile';
import { claimExportSlot } from '../devices/exportThrottleQueries';
import { EXPORT_MAX_ROWS } from '../devices/exportRoutes';

const tags = ['commands'];
const notFound = () => new BizError(ErrorCode.NotFound, 'error.commandNotFound');
const time = { type: ['string', 'null'], format: 'date-time' } as const;
const commandObject = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    deviceId: { type: 'integer' },
    deviceName: { type: 'string' },
    deviceNum: { type: ['string', 'null'] },
    kind: { type: 'string', enum: [...COMMAND_KINDS] },
    params: { type: 'object', additionalProperties: true },
    state: { type: 'string', enum: [...COMMAND_STATES] },
    createdBy: { type: ['integer', 'null'] },
    createdByName: { type: ['string', 'null'] },
    createdAt: time,
    sentAt: time,
    ackedAt: time,
    doneAt: time,
    deadline: time,
    message: { type: ['string', 'null'] },
    result: {
      type: ['object', 'null'],
      additionalProperties: true,
      description: 'What the device answered (diagnostics, firmware versions)',
    },
  },
} as const;

/** Filters of command/getAll and command/export. */
const commandFilterQuery = {
  deviceId: { type: 'integer' },
  state: { type: 'string', enum: [...COMMAND_STATES] },
  kind: { type: 'string', enum: [...COMMAND_KINDS] },
} as const;

/** The columns of command/export, under the list's headers. */
const EXPORT_FIELDS = [
  'id',
  'deviceName',
  'kind',
  'params',
  'state',
  'createdByName',
  'createdAt',
  'sentAt',
  'ackedAt',
  'deadline',
  'result',
] as const;

/** A command as its list row reads: names and sentences in the reader's language, times as times. */
function exportRow(c: DeviceCommand, lang: Language): ExportValue[] {
  const t = (key: string, vars?: Record<string, unknown>) => translateDomain(lang, key, vars as Record<string, string | number>);
  return EXPORT_FIELDS.map((field) => {
    switch (field) {
      case 'kind':
        return t(`commands.kind.${c.kind}`);
      case 'state':
        return t(commandStateKey(c));
      case 'params':
        return commandParamsText(t, c);
      case 'result':
        return commandOutcome(t, c);
      case 'createdAt':
      case 'sentAt':
      case 'ackedAt':
      case 'deadline':
        return c[field] ? new Date(c[field]) : null;
      default:
        return c[field];
    }
  });
}

/**
 * deviceModule/command: commands to antennas. Everyone lists and reads the commands of
 * the vessels it sees; levels 1 and 2 send to those vessels, a sub-user only to the vessels granted
 * it with canCommand (deviceModule/subUserGrant/set). Delivery is delivery.ts's.
 */
export async function commandRoutes(app: Api, { db, link }: ServerContext) {
  const delivery = startCommandDelivery(db, link, app.log);
  // The embedded broker's sessions live in this process: what they held died with the last one.
  if (link.kind === 'embedded') await requeueLostCommands(db);

  const assertMaySend = async (request: { user: Parameters<typeof maySendTo>[1] }, deviceId: number) => {
    const device = await visibleVessel(db, request.user, deviceId);
    if (!(await maySendTo(db, request.user, deviceId))) throw new BizError(ErrorCode.Forbidden, 'error.commandNotGranted');
    return device;
  };

  app.get(
    '/command/getAll',
    {
      schema: {
        tags,
        summary: "Commands of the caller's visible vessels, newest first: one vessel's (deviceId) or the fleet's, by state and kind",
        querystring: {
          type: 'object',
          properties: {
            ...tokenQuery,
            ...pageQuery,
            ...commandFilterQuery,
            order: { type: 'string', enum: ['asc', 'desc'] },
          },
        },
        response: envelope(pageOf(commandObject)),
      },
    },
    async (request) => {
      const q = request.query;
      if (q.deviceId) await visibleVessel(db, request.user, q.deviceId);
      return ok(await listCommands(db, request.user, q));
    },
  );

  app.get(
    '/command/export',
    {
      schema: {
        tags,
        summary: 'The commands getAll lists, as a file (format csv or xlsx, times at tz); exporting again within 10 s answers code -101',
        querystring: {
          type: 'object',
          properties: { ...tokenQuery, ...commandFilterQuery, order: { type: 'string', enum: ['asc', 'desc'] }, ...exportQuery },
        },
        produces: ['text/csv', XLSX_TYPE, 'application/json'],
      },
    },
    async (request, reply) => {
      const options = exportOptionsOf(request);
      const q = request.query;
      if (q.deviceId) await visibleVessel(db, request.user, q.deviceId);
      await claimExportSlot(db, request.user.id);
      const { list } = await listCommands(db, request.user, { ...q, pageIndex: 1, pageSize: EXPORT_MAX_ROWS });
      const header = EXPORT_FIELDS.map((f) => translateDomain(options.lang, `commands.fields.${f}`));
      return sendExport(
        reply,
        'commands',
        options,
        header,
        list.map((c) => exportRow(c, options.lang)),
      );
    },
  );

  app.get(
    '/command/getById',
    { schema: { tags, summary: 'One command of a visible vessel', querystring: idQuery, response: envelope(commandObject) } },
    async (request) => {
      const command = await findVisibleCommand(db, request.user, request.query.id);
      if (!command) throw notFound();
      return ok(command);
    },
  );

  app.get(
    '/command/canSend',
    {
      schema: {
        tags,
        summary: 'Whether the caller may send commands to a visible vessel',
        querystring: { type: 'object', required: ['deviceId'], properties: { ...tokenQuery, deviceId: { type: 'integer' } } },
        response: envelope({ type: 'object', properties: { canSend: { type: 'boolean' } } }),
      },
    },
    async (request) => {
      const { deviceId } = request.query;
      await visibleVessel(db, request.user, deviceId);
      return ok({ canSend: await maySendTo(db, request.user, deviceId) });
    },
  );

  app.post(
    '/command/add',
    {
      schema: {
        tags,
        summary: `Send a command to a visible vessel: reboot, repoint (params.satellite), setInterval (params.seconds), diagnostics, firmwareCheck; deadlineMinutes ${COMMAND_DEADLINE_DEFAULT_MIN} by default. Delivered at once when the device is connected, else when it next connects.`,
        querystring: { type: 'object', properties: tokenQuery },
        body: {
          type: 'object',
          properties: {
            deviceId: { type: ['integer', 'null'] },
            kind: { type: ['string', 'null'] },
            params: { type: ['object', 'null'], additionalProperties: true },
            deadlineMinutes: { type: ['integer', 'null'] },
          },
        },
        response: envelope(commandObject),
      },
    },
    async (request) => {
      const input = parseWith(commandSchema, request.body);
      const device = await assertMaySend(request, input.deviceId);
      if (!device.deviceNum) throw new BizError(ErrorCode.BadRequest, 'error.commandNoDeviceNum');
      const id = await insertCommand(db, {
        deviceId: input.deviceId,
        kind: input.kind,
        params: input.params ?? {},
        deadlineMinutes: input.deadlineMinutes ?? COMMAND_DEADLINE_DEFAULT_MIN,
        createdBy: request.user.id,
      });
      await delivery.deliverIfConnected(device.deviceNum);
      return ok(await findVisibleCommand(db, request.user, id));
    },
  );

  app.post(
    '/command/cancel',
    {
      schema: { tags, summary: 'Withdraw a command that is still queued', querystring: idQuery, response: envelope(commandObject) },
    },
    async (request) => {
      const { id } = request.query;
      const command = await findVisibleCommand(db, request.user, id);
      if (!command) throw notFound();
      await assertMaySend(request, command.deviceId);
      if (!(await cancelQueuedCommand(db, id))) throw new BizError(ErrorCode.BadRequest, 'error.commandNotQueued');
      return ok(await findVisibleCommand(db, request.user, id));
    },
  );
}
