import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api';
import type { MultipartFile } from '@fastify/multipart';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import {
  FIRMWARE_STATUSES,
  FIRMWARE_VERSION_TYPES,
  firmwareSchema,
  setFirmwareEnabledSchema,
  updateFirmwareSchema,
} from '../../../src/domain/firmware';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { rethrowMultipart } from '../../http/multipartErrors';
import { envelope, idQuery, pageOf, pageQuery, tokenQuery } from '../../http/schemas';
import type { FirmwareStore } from './storage';
import {
  deleteFirmware,
  deleteFirmwareRow,
  findFirmware,
  insertFirmware,
  listFirmware,
  publicFirmware,
  setFirmwareEnabled,
  updateFirmware,
  versionTaken,
} from './firmwareQueries';
import { firmwareObject } from './firmwareJsonSchemas';
import { isUniqueViolation } from '../../db/uniqueViolation';

const tags = ['firmware'];
const ADMIN = [Level.Admin] as const;
const tokenOnly = { type: 'object', properties: tokenQuery } as const;
export const noSuchFirmware = () => new BizError(ErrorCode.NotFound, 'error.firmwareNotFound');
const duplicateVersion = () =>
  new BizError(ErrorCode.Duplicate, 'error.firmwareDuplicateVersion', [{ field: 'version', message: 'error.firmwareDuplicateVersion' }]);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 1000) / 1000;

const fieldValue = (part: MultipartFile, name: string): unknown => {
  const field = part.fields[name] as { type?: string; value?: unknown } | undefined;
  return field && field.type === 'field' ? field.value : undefined;
};

/** Reads and throws away the rest of a file part we refuse (busboy stops at the size limit anyway). */
async function discard(part: MultipartFile) {
  part.file.resume();
  await new Promise<void>((done) => {
    if (part.file.readableEnded) done();
    part.file
      .once('end', done)
      .once('close', done)
      .once('error', () => done());
  });
}

/**
 * deviceModule/firmware: firmware packages (level 1 only). The upload is streamed to disk with its
 * SHA-256 computed on the way, under a size limit of its own (FIRMWARE_MAX_MB), not the global
 * 2 MB picture limit.
 */
export function firmwareRoutes(store: FirmwareStore) {
  return async function routes(app: Api, { db, config }: ServerContext) {
    app.get(
      '/firmware/getConfig',
      {
        config: { levels: ADMIN },
        schema: {
          tags,
          summary: 'The upload size limit in force and the version types',
          querystring: tokenOnly,
          response: envelope({
            type: 'object',
            properties: {
              maxBytes: { type: 'integer' },
              maxMb: { type: 'number' },
              versionTypes: { type: 'array', items: { type: 'string' } },
            },
          }),
        },
      },
      async () => ok({ maxBytes: config.firmwareMaxBytes, maxMb: mb(config.firmwareMaxBytes), versionTypes: FIRMWARE_VERSION_TYPES }),
    );

    app.get(
      '/firmware/getAll',
      {
        config: { levels: ADMIN },
        schema: {
          tags,
          summary: 'Firmware packages, paged, newest first unless sorted',
          querystring: {
            type: 'object',
            properties: {
              ...tokenQuery,
              ...pageQuery,
              sort: {
                type: 'string',
                enum: [
                  'id',
                  'name',
                  'version',
                  'deviceType',
                  'customer',
                  'model',
                  'versionType',
                  'enabled',
                  'fileSize',
                  'createdAt',
                  'status',
                ],
              },
              order: { type: 'string', enum: ['asc', 'desc'] },
              name: { type: 'string', maxLength: 64, description: 'Searches file name, model, version, customer and device type' },
              deviceType: { type: 'string', maxLength: 32 },
              model: { type: 'string', maxLength: 64 },
              customer: { type: 'string', maxLength: 64 },
              versionType: { type: 'string', enum: [...FIRMWARE_VERSION_TYPES] },
              enabled: { type: 'boolean' },
              status: { type: 'string', enum: [...FIRMWARE_STATUSES] },
            },
          },
          response: envelope(pageOf(firmwareObject)),
        },
      },
      async (request) => {
        const page = await listFirmware(db, request.query);
        return ok({ list: page.list.map(publicFirmware), total: page.total });
      },
    );

    app.get(
      '/firmware/getById',
      { config: { levels: ADMIN }, schema: { tags, summary: 'One package', querystring: idQuery, response: envelope(firmwareObject) } },
      async (request) => {
        const row = await findFirmware(db, request.query.id);
        if (!row) throw noSuchFirmware();
        return ok(publicFirmware(row));
      },
    );

    app.post(
      '/firmware/add',
      {
        config: { levels: ADMIN },
        // The multipart body is streamed by the handler; no body limit applies to it here.
        schema: {
          tags,
          summary:
            'Upload a package (multipart: the fields deviceType, customer, model, version, versionType, enabled, updateInfo FIRST, then the file). Over the limit: code 8, nothing kept',
          consumes: ['multipart/form-data'],
          querystring: tokenOnly,
          response: envelope(firmwareObject),
        },
      },
      async (request: FastifyRequest) => {
        if (!request.isMultipart()) throw new BizError(ErrorCode.UploadRejected, 'error.uploadMissing');
        // A malformed or truncated multipart body is refused as an upload (code 8), not -100.
        const part = await request
          .file({ limits: { fileSize: config.firmwareMaxBytes, files: 1, fields: 10, fieldSize: 4096 }, throwFileSizeLimit: false })
          .catch(rethrowMultipart);
        if (!part) throw new BizError(ErrorCode.UploadRejected, 'error.uploadMissing');
        const fields = Object.fromEntries(Object.keys(firmwareSchema.fields).map((name) => [name, fieldValue(part, name)]));
        let input;
        try {
          input = parseWith(firmwareSchema, fields);
          if (await versionTaken(db, input.model, input.version)) throw duplicateVersion();
        } catch (error) {
          await discard(part);
          throw error;
        }
        // The file is written under a temporary name and flushed, its row committed, and only then is
        // it renamed to its storage name: a crash at any point leaves nothing the start sweep cannot settle.
        const file = await store.receive(part.file).catch(rethrowMultipart);
        if (file.truncated)
          throw new BizError(ErrorCode.UploadRejected, 'error.firmwareTooLarge', null, { mb: mb(config.firmwareMaxBytes) });
        if (file.size === 0) {
          await store.discard(file.key);
          throw new BizError(ErrorCode.UploadRejected, 'error.firmwareEmpty');
        }
        const fileName = (part.filename || `${input.model}-${input.version}.bin`).slice(0, 200);
        let id: number;
        try {
          id = await insertFirmware(db, {
            deviceType: input.deviceType,
            customer: input.customer,
            model: input.model,
            version: input.version,
            versionType: input.versionType,
            enabled: input.enabled,
            updateInfo: input.updateInfo ?? null,
            fileName,
            fileSize: file.size,
            sha256: file.sha256,
            storageKey: file.key,
            uploadedBy: request.user.id,
          });
        } catch (error) {
          await store.discard(file.key);
          if (isUniqueViolation(error)) throw duplicateVersion();
          throw error;
        }
        try {
          await store.keep(file.key);
        } catch (error) {
          // Its temporary file is gone (another replica's start sweep took it for a crash's leftover): no row without its file.
          await deleteFirmwareRow(db, id);
          throw error;
        }
        return ok(publicFirmware((await findFirmware(db, id))!));
      },
    );

    app.post(
      '/firmware/update',
      {
        config: { levels: ADMIN },
        schema: {
          tags,
          summary: 'Change customer, version type, enabled and update info (file, type, model and version stay)',
          querystring: tokenOnly,
          body: {
            type: 'object',
            properties: {
              id: { type: 'integer' },
              customer: { type: 'string' },
              versionType: { type: 'string' },
              enabled: { type: 'boolean' },
              updateInfo: { type: ['string', 'null'] },
            },
          },
          response: envelope(firmwareObject),
        },
      },
      async (request) => {
        const input = parseWith(updateFirmwareSchema, request.body);
        const found = await updateFirmware(db, {
          id: input.id,
          customer: input.customer,
          versionType: input.versionType,
          enabled: input.enabled,
          updateInfo: input.updateInfo ?? null,
        });
        if (!found) throw noSuchFirmware();
        return ok(publicFirmware((await findFirmware(db, input.id))!));
      },
    );

    app.post(
      '/firmware/setEnabled',
      {
        config: { levels: ADMIN },
        schema: {
          tags,
          summary: 'Enable or disable a package (a disabled one is offered to no device; its queued devices wait)',
          querystring: tokenOnly,
          body: { type: 'object', properties: { id: { type: 'integer' }, enabled: { type: 'boolean' } } },
          response: envelope(firmwareObject),
        },
      },
      async (request) => {
        const input = parseWith(setFirmwareEnabledSchema, request.body);
        if (!(await setFirmwareEnabled(db, input.id, input.enabled))) throw noSuchFirmware();
        return ok(publicFirmware((await findFirmware(db, input.id))!));
      },
    );

    app.delete(
      '/firmware/deleteById',
      {
        config: { levels: ADMIN },
        schema: { tags, summary: 'Delete a package, its rollouts and its file', querystring: idQuery, response: envelope() },
      },
      async (request) => {
        // The file is moved aside inside the transaction that deletes its row, and removed after the
        // commit: a crash in between leaves a temporary file that the start sweep settles.
        let retired: string | undefined;
        const key = await deleteFirmware(db, request.query.id, (storageKey) => store.retire((retired = storageKey))).catch(
          async (error: unknown) => {
            if (retired) await store.restore(retired); // the delete did not commit: the file keeps its name
            throw error;
          },
        );
        if (!key) throw noSuchFirmware();
        await store.drop(key);
        return ok(null);
      },
    );
  };
}
