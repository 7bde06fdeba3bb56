import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { ACTIVE_UPDATE_STATES, NEXT_UPDATE_STATES, updateReportSchema, type UpdateState } from '../../../src/domain/firmware';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope } from '../../http/schemas';
import { authenticateDevice } from '../../auth/deviceCredentials';
import type { FirmwareStore } from './storage';
import { claimUpdate, lockUpdate, updateActive, updateFile, waitingUpdate, writeUpdateState } from './rolloutQueries';

const tags = ['firmware device API'];
const deviceHeaders = {
  type: 'object',
  properties: { 'x-device-num': { type: 'string' }, 'x-device-secret': { type: 'string' } },
} as const;
const noSuchUpdate = () => new BizError(ErrorCode.NotFound, 'error.updateNotFound');
/** A queued device asks again after this long. */
export const QUEUED_RETRY_SECONDS = 30;

/** Only activated devices (with a secret) take part in updates. */
async function updatingDevice(devices: ServerContext['devices'], request: FastifyRequest) {
  const device = await authenticateDevice(devices, request);
  if (!device.activated) throw new BizError(ErrorCode.DeviceAuthFailed, 'error.deviceAuth');
  return device;
}

/** Parses a single `bytes=a-b`, `bytes=a-` or `bytes=-n` range; null when absent, 'bad' when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'bad';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'bad';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return 'bad';
  return { start, end };
}

/**
 * The device side of firmware updates (no session token: x-device-num and x-device-secret, like
 * the ingest endpoint): ask for an update, download it (Range supported), report progress.
 * A queued device gets its slot only while fewer than maxConcurrent devices of the rollout are
 * downloading, downloaded or updating.
 */
export function deviceUpdateRoutes(store: FirmwareStore) {
  return async function routes(app: Api, { db, devices }: ServerContext) {
    app.get(
      '/firmware/device/check',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Is there an update for me? null: none; state queued: ask again later; else the package to download',
          security: [],
          headers: deviceHeaders,
          response: envelope({
            type: ['object', 'null'],
            properties: {
              rolloutId: { type: 'integer' },
              state: { type: 'string' },
              progress: { type: 'integer' },
              retryAfterSeconds: { type: 'integer' },
              firmwareId: { type: 'integer' },
              version: { type: 'string' },
              deviceType: { type: 'string' },
              model: { type: 'string' },
              size: { type: 'integer' },
              sha256: { type: 'string' },
              downloadPath: { type: 'string' },
            },
          }),
        },
      },
      async (request) => {
        const device = await updatingDevice(devices, request);
        const queuedAnswer = (rolloutId: number) => ({ rolloutId, state: 'queued', progress: 0, retryAfterSeconds: QUEUED_RETRY_SECONDS });
        // Most asks during a big rollout come from queued devices while every slot is taken: answered
        // without taking the rollout's lock (a slot that looks free is then claimed under the lock).
        const waiting = await waitingUpdate(db, device.id);
        if (!waiting) return ok(null);
        if (waiting.full && !(await updateActive(db, waiting.rolloutId, device.id))) return ok(queuedAnswer(waiting.rolloutId));
        const next = await claimUpdate(db, device.id);
        if (!next) return ok(null);
        const { assignment: a, claimed } = next;
        if (!claimed) return ok(queuedAnswer(a.rolloutId));
        return ok({
          rolloutId: a.rolloutId,
          state: a.state,
          progress: a.progress,
          firmwareId: a.firmwareId,
          version: a.version,
          deviceType: a.deviceType,
          model: a.model,
          size: a.size,
          sha256: a.sha256,
          downloadPath: `/deviceModule/firmware/device/download?rolloutId=${a.rolloutId}`,
        });
      },
    );

    app.get(
      '/firmware/device/download',
      {
        config: { public: true },
        schema: {
          tags,
          summary:
            'The package file of my update (application/octet-stream; Range: bytes=a-b answers 206). Only while my update is downloading, downloaded or updating',
          security: [],
          headers: deviceHeaders,
          querystring: { type: 'object', required: ['rolloutId'], properties: { rolloutId: { type: 'integer' } } },
        },
      },
      async (request, reply) => {
        const device = await updatingDevice(devices, request);
        const row = await updateFile(db, request.query.rolloutId, device.id);
        if (!row) throw noSuchUpdate();
        if (!ACTIVE_UPDATE_STATES.includes(row.state)) throw new BizError(ErrorCode.Forbidden, 'error.updateNotStarted');
        const onDisk = await store.size(row.key);
        if (onDisk === null) throw new BizError(ErrorCode.NotFound, 'error.firmwareFileMissing');
        const range = parseRange(request.headers.range, onDisk);
        if (range === 'bad') {
          return reply
            .status(416)
            .header('content-range', `bytes */${onDisk}`)
            .send({ code: ErrorCode.BadRequest, msg: 'range not satisfiable', data: null });
        }
        reply
          .header('content-type', 'application/octet-stream')
          .header('accept-ranges', 'bytes')
          .header('etag', `"${row.sha256}"`)
          .header('x-firmware-sha256', row.sha256)
          .header('content-disposition', `attachment; filename="${row.model.replace(/[^\w.-]/g, '_')}-${row.version}.bin"`);
        if (range) {
          reply
            .status(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${onDisk}`)
            .header('content-length', range.end - range.start + 1);
          return reply.send(store.read(row.key, range));
        }
        reply.header('content-length', onDisk);
        return reply.send(store.read(row.key));
      },
    );

    app.post(
      '/firmware/device/report',
      {
        config: { public: true },
        schema: {
          tags,
          summary: 'Report my update: { rolloutId, state (downloading, downloaded, updating, updated, failed), progress 0-100, message }',
          security: [],
          headers: deviceHeaders,
          body: {
            type: 'object',
            properties: {
              rolloutId: { type: 'integer' },
              state: { type: 'string' },
              progress: { type: ['number', 'null'] },
              message: { type: ['string', 'null'] },
            },
          },
          response: envelope({ type: 'object', properties: { state: { type: 'string' }, progress: { type: 'integer' } } }),
        },
      },
      async (request) => {
        const device = await updatingDevice(devices, request);
        const input = parseWith(updateReportSchema, request.body);
        const to = input.state as UpdateState;
        return ok(
          await db.transaction(async (tx) => {
            const row = await lockUpdate(tx, input.rolloutId, device.id);
            if (!row) throw noSuchUpdate();
            if (!NEXT_UPDATE_STATES[row.state].includes(to)) {
              throw new BizError(
                ErrorCode.Validation,
                'error.updateTransition',
                [{ field: 'state', message: 'validation.updateTransition' }],
                { from: row.state, to },
              );
            }
            const given = input.progress === undefined || input.progress === null ? null : Math.round(input.progress);
            const progress =
              to === 'downloaded' || to === 'updated'
                ? 100
                : to === 'failed'
                  ? row.progress
                  : (given ?? (to === row.state ? row.progress : 0));
            const finished = to === 'updated' || to === 'failed';
            await writeUpdateState(tx, input.rolloutId, device.id, { state: to, progress, message: input.message ?? null, finished });
            return { state: to, progress };
          }),
        );
      },
    );
  };
}
