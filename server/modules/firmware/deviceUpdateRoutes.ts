import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api';
import type { ServerContext } from '../../context';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { ACTIVE_UPDATE_STATES, NEXT_UPDATE_STATES, ROLLOUT_STALL_MINUTES, updateReportSchema, type UpdateState } from '../../../src/domain/firmware';
import { BizError, ok } from '../../http/envelope';
import { parseWith } from '../../http/validation';
import { envelope } from '../../http/schemas';
import { authenticateDevice } from '../../auth/deviceCredentials';
import type { FirmwareStore } from './storage';
import { ACTIVE_SQL, UNFINISHED_SQL, expireStalled } from './rolloutQueries';

const tags = ['firmware device API'];
const deviceHeaders = { type: 'object', properties: { 'x-device-num': { type: 'string' }, 'x-device-secret': { type: 'string' } } } as const;
const noSuchUpdate = () => new BizError(ErrorCode.NotFound, 'error.updateNotFound');
/** A queued device asks again after this long. */
export const QUEUED_RETRY_SECONDS = 30;

/** Only activated devices (with a secret) take part in updates. */
async function updatingDevice(devices: ServerContext['devices'], request: FastifyRequest) {
  const device = await authenticateDevice(devices, request);
  if (!device.activated) throw new BizError(ErrorCode.DeviceAuthFailed, 'error.deviceAuth');
  return device;
}

interface Assignment {
  rolloutId: number;
  state: UpdateState;
  progress: number;
  maxConcurrent: number;
  firmwareId: number;
  version: string;
  deviceType: string;
  model: string;
  size: number;
  sha256: string;
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
    app.get('/firmware/device/check', {
      config: { public: true },
      schema: {
        tags, summary: 'Is there an update for me? null: none; state queued: ask again later; else the package to download', security: [], headers: deviceHeaders,
        response: envelope({
          type: ['object', 'null'],
          properties: {
            rolloutId: { type: 'integer' }, state: { type: 'string' }, progress: { type: 'integer' }, retryAfterSeconds: { type: 'integer' },
            firmwareId: { type: 'integer' }, version: { type: 'string' }, deviceType: { type: 'string' }, model: { type: 'string' },
            size: { type: 'integer' }, sha256: { type: 'string' }, downloadPath: { type: 'string' },
          },
        }),
      },
    }, async (request) => {
      const device = await updatingDevice(devices, request);
      const queuedAnswer = (rolloutId: number) => ({ rolloutId, state: 'queued', progress: 0, retryAfterSeconds: QUEUED_RETRY_SECONDS });
      // Most asks during a big rollout come from queued devices while every slot is taken: answered
      // without taking the rollout's lock (a slot that looks free is then claimed under the lock).
      const [waiting] = await db.query<{ rolloutId: number; full: boolean }>(
        `SELECT t.rollout_id AS "rolloutId",
                (SELECT count(*) FROM firmware_rollout_targets a WHERE a.rollout_id = t.rollout_id AND a.state IN ${ACTIVE_SQL}
                   AND a.updated_at >= now() - make_interval(mins => $2)) >= r.max_concurrent AS full
           FROM firmware_rollout_targets t JOIN firmware_rollouts r ON r.id = t.rollout_id JOIN firmware_packages f ON f.id = r.firmware_id
          WHERE t.device_id = $1 AND t.state IN ${UNFINISHED_SQL} AND f.enabled
          ORDER BY (t.state = 'queued'), r.id LIMIT 1`, [device.id, ROLLOUT_STALL_MINUTES]);
      if (!waiting) return ok(null);
      if (waiting.full) {
        const [active] = await db.query(`SELECT 1 FROM firmware_rollout_targets WHERE rollout_id = $1 AND device_id = $2 AND state IN ${ACTIVE_SQL}`, [waiting.rolloutId, device.id]);
        if (!active) return ok(queuedAnswer(waiting.rolloutId));
      }
      return ok(await db.transaction(async (tx) => {
        const [a] = await tx.query<Assignment>(
          `SELECT t.rollout_id AS "rolloutId", t.state, t.progress, r.max_concurrent AS "maxConcurrent", f.id AS "firmwareId", f.version,
                  f.device_type AS "deviceType", f.model, f.file_size::float8 AS size, f.sha256
             FROM firmware_rollout_targets t JOIN firmware_rollouts r ON r.id = t.rollout_id JOIN firmware_packages f ON f.id = r.firmware_id
            WHERE t.device_id = $1 AND t.state IN ${UNFINISHED_SQL} AND f.enabled
            ORDER BY (t.state = 'queued'), r.id LIMIT 1`, [device.id]);
        if (!a) return null;
        let state = a.state;
        let progress = a.progress;
        if (state === 'queued') {
          // One claimer at a time per rollout, so the slot count holds under concurrent checks.
          await tx.query('SELECT id FROM firmware_rollouts WHERE id = $1 FOR UPDATE', [a.rolloutId]);
          await expireStalled(tx, a.rolloutId);
          const claimed = await tx.query(
            `UPDATE firmware_rollout_targets SET state = 'downloading', progress = 0, started_at = now(), updated_at = now()
              WHERE rollout_id = $1 AND device_id = $2 AND state = 'queued'
                AND (SELECT count(*) FROM firmware_rollout_targets WHERE rollout_id = $1 AND state IN ${ACTIVE_SQL}) < $3 RETURNING device_id`,
            [a.rolloutId, device.id, a.maxConcurrent]);
          if (!claimed.length) return queuedAnswer(a.rolloutId);
          state = 'downloading';
          progress = 0;
        }
        return {
          rolloutId: a.rolloutId, state, progress, firmwareId: a.firmwareId, version: a.version, deviceType: a.deviceType, model: a.model,
          size: a.size, sha256: a.sha256, downloadPath: `/deviceModule/firmware/device/download?rolloutId=${a.rolloutId}`,
        };
      }));
    });

    app.get('/firmware/device/download', {
      config: { public: true },
      schema: {
        tags, summary: 'The package file of my update (application/octet-stream; Range: bytes=a-b answers 206). Only while my update is downloading, downloaded or updating',
        security: [], headers: deviceHeaders,
        querystring: { type: 'object', required: ['rolloutId'], properties: { rolloutId: { type: 'integer' } } },
      },
    }, async (request, reply) => {
      const device = await updatingDevice(devices, request);
      const [row] = await db.query<{ state: UpdateState; key: string; size: number; sha256: string; version: string; model: string }>(
        `SELECT t.state, f.storage_key AS key, f.file_size::float8 AS size, f.sha256, f.version, f.model
           FROM firmware_rollout_targets t JOIN firmware_rollouts r ON r.id = t.rollout_id JOIN firmware_packages f ON f.id = r.firmware_id
          WHERE t.rollout_id = $1 AND t.device_id = $2`, [request.query.rolloutId, device.id]);
      if (!row) throw noSuchUpdate();
      if (!ACTIVE_UPDATE_STATES.includes(row.state)) throw new BizError(ErrorCode.Forbidden, 'error.updateNotStarted');
      const onDisk = await store.size(row.key);
      if (onDisk === null) throw new BizError(ErrorCode.NotFound, 'error.firmwareFileMissing');
      const range = parseRange(request.headers.range, onDisk);
      if (range === 'bad') {
        return reply.status(416).header('content-range', `bytes */${onDisk}`).send({ code: ErrorCode.BadRequest, msg: 'range not satisfiable', data: null });
      }
      reply.header('content-type', 'application/octet-stream')
        .header('accept-ranges', 'bytes')
        .header('etag', `"${row.sha256}"`)
        .header('x-firmware-sha256', row.sha256)
        .header('content-disposition', `attachment; filename="${row.model.replace(/[^\w.-]/g, '_')}-${row.version}.bin"`);
      if (range) {
        reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${onDisk}`).header('content-length', range.end - range.start + 1);
        return reply.send(store.read(row.key, range));
      }
      reply.header('content-length', onDisk);
      return reply.send(store.read(row.key));
    });

    app.post('/firmware/device/report', {
      config: { public: true },
      schema: {
        tags, summary: 'Report my update: { rolloutId, state (downloading, downloaded, updating, updated, failed), progress 0-100, message }',
        security: [], headers: deviceHeaders,
        body: { type: 'object', properties: { rolloutId: { type: 'integer' }, state: { type: 'string' }, progress: { type: ['number', 'null'] }, message: { type: ['string', 'null'] } } },
        response: envelope({ type: 'object', properties: { state: { type: 'string' }, progress: { type: 'integer' } } }),
      },
    }, async (request) => {
      const device = await updatingDevice(devices, request);
      const input = parseWith(updateReportSchema, request.body);
      const to = input.state as UpdateState;
      return ok(await db.transaction(async (tx) => {
        const [row] = await tx.query<{ state: UpdateState; progress: number }>(
          'SELECT state, progress FROM firmware_rollout_targets WHERE rollout_id = $1 AND device_id = $2 FOR UPDATE', [input.rolloutId, device.id]);
        if (!row) throw noSuchUpdate();
        if (!NEXT_UPDATE_STATES[row.state].includes(to)) {
          throw new BizError(ErrorCode.Validation, 'error.updateTransition', [{ field: 'state', message: 'validation.updateTransition' }], { from: row.state, to });
        }
        const given = input.progress === undefined || input.progress === null ? null : Math.round(input.progress);
        const progress = to === 'downloaded' || to === 'updated' ? 100 : to === 'failed' ? row.progress : (given ?? (to === row.state ? row.progress : 0));
        const finished = to === 'updated' || to === 'failed';
        await tx.query(
          `UPDATE firmware_rollout_targets SET state = $3, progress = $4, message = $5, updated_at = now(),
                  finished_at = CASE WHEN $6::boolean THEN now() ELSE finished_at END
            WHERE rollout_id = $1 AND device_id = $2`,
          [input.rolloutId, device.id, to, progress, input.message ?? null, finished]);
        return { state: to, progress };
      }));
    });
  };
}
