import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connection';
import { ErrorCode } from '../../../src/domain/errorCodes';
import { Level } from '../../../src/domain/levels';
import { INTEGER_MAX } from '../../../src/domain/constants';
import { insertAuditEntry, readAuditedRow } from './auditQueries';

/**
 * The audit log's recorder: every successful change made through the API (a POST or DELETE of a
 * logged-in user) is written to audit_log with who, when, from where, the entity and its id, and
 * the fields before and after. The entity and action come from the route
 * (`/deviceModule/voyage/update` is voyage / update); entities with a table of their own have
 * their row read before and after the change, the others record what was sent.
 */

/** Routes that change nothing an operator would audit (sessions, device traffic, the polling query). */
const NOT_AUDITED =
  /\/(users\/login|users\/logout|ingest\/report|deviceGroup\/getAllDeviceUploadDataWithCondition|firmware\/device\/[^/]+)$/;

/** Entities whose row is read before and after: table, and the request field that names the row (declared resources name theirs in their route config). */
const ENTITY_ROWS: Record<string, { table: string; key?: string; param?: string }> = {
  user: { table: 'users' },
  device: { table: 'devices' },
  activation: { table: 'devices' },
  deviceGroup: { table: 'device_groups' },
  deviceAuth: { table: 'device_auth_grants' },
  manualPosition: { table: 'device_manual_positions', key: 'device_id', param: 'deviceId' },
  extraLink: { table: 'extra_links', key: 'user_id', param: 'userId' },
  firmware: { table: 'firmware_packages' },
  rollout: { table: 'firmware_rollouts' },
  command: { table: 'device_commands' },
  faultClearing: { table: 'fault_clearing_records' },
  afterSales: { table: 'after_sales_reports' },
  permissionGroup: { table: 'permission_groups' },
};

/** Never recorded, whatever the entity: credentials and file contents. */
const SECRET_FIELD = /password|secret|token|hash|salt|content/i;

/** `/users/addEditUserExtraLink` -> extraLink; `/deviceModule/device/update` -> device; the last segment is the action. */
export function entityOf(route: string): { entity: string; action: string } {
  const parts = route.split('/').filter(Boolean);
  const action = parts.at(-1) ?? '';
  let entity = parts.at(-2) ?? '';
  if (entity === 'users') entity = /ExtraLink/.test(action) ? 'extraLink' : /File|Picture/.test(action) ? 'picture' : 'user';
  return { entity, action };
}

/** A row or a request without what must never be stored; Buffers and nested secrets dropped. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return undefined;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !SECRET_FIELD.test(k))
      .map(([k, v]) => [k, withoutSecrets(v)])
      .filter(([, v]) => v !== undefined),
  );
}

/** Only the fields that changed, on both sides; a create or a delete keeps its whole row. */
function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null) {
  if (!before || !after) return { before, after };
  const keys = Object.keys({ ...before, ...after }).filter(
    (k) => k !== 'updated_at' && JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  return { before: Object.fromEntries(keys.map((k) => [k, before[k]])), after: Object.fromEntries(keys.map((k) => [k, after[k]])) };
}

interface Pending {
  entity: string;
  action: string;
  id: string | null;
  rowSpec?: (typeof ENTITY_ROWS)[string];
  before: Record<string, unknown> | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    audit: Pending | null;
  }
  interface FastifyContextConfig {
    /** The entity a route changes and its table, when the route says so itself (resources declared as data). */
    audit?: { entity: string; table: string };
  }
}

const idFrom = (request: FastifyRequest, param = 'id'): string | null => {
  const query = request.query as Record<string, unknown>;
  const body = (request.isMultipart() ? null : request.body) as Record<string, unknown> | null;
  const value = (body && typeof body === 'object' ? body[param] : undefined) ?? query[param];
  return typeof value === 'number' || (typeof value === 'string' && value !== '') ? String(value) : null;
};

async function readRow(db: Db, spec: Pending['rowSpec'], id: string | null): Promise<Record<string, unknown> | null> {
  // Read before the handler validates: an id that is not a PostgreSQL integer names no row.
  if (!spec || id === null || !/^\d{1,10}$/.test(id) || Number(id) > INTEGER_MAX) return null;
  const row = await readAuditedRow(db, spec.table, spec.key ?? 'id', Number(id));
  return row ? (withoutSecrets(row) as Record<string, unknown>) : null;
}

/** What was sent, for changes without a row of their own (moves, pins, grants, settings). */
function sent(request: FastifyRequest): Record<string, unknown> {
  const { token: _t, lang: _l, ...query } = request.query as Record<string, unknown>;
  const body = request.isMultipart() ? {} : (request.body ?? {});
  return withoutSecrets({ ...query, ...(typeof body === 'object' ? body : { body }) }) as Record<string, unknown>;
}

/** Installs the recorder on the API scope, after the session guard (it needs request.user). */
export function installAuditLog(app: FastifyInstance, db: Db) {
  app.decorateRequest('audit', null);
  app.addHook('preHandler', async (request) => {
    if ((request.method !== 'POST' && request.method !== 'DELETE') || !request.user || NOT_AUDITED.test(request.routeOptions.url ?? ''))
      return;
    const declared = request.routeOptions.config.audit;
    const named = entityOf(request.routeOptions.url ?? '');
    const entity = declared?.entity ?? named.entity;
    const action = named.action;
    const rowSpec = declared ? { table: declared.table } : ENTITY_ROWS[entity];
    const id = idFrom(request, rowSpec?.param);
    request.audit = { entity, action, id, rowSpec, before: await readRow(db, rowSpec, id) };
  });
  app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
    const pending = request.audit;
    const answer = payload as { code?: number; data?: unknown } | null;
    if (!pending || answer?.code !== ErrorCode.Ok) return payload;
    request.audit = null;
    const createdId =
      answer.data && typeof answer.data === 'object' && 'id' in answer.data ? String((answer.data as { id: unknown }).id) : null;
    const id = pending.id ?? createdId;
    try {
      const after = pending.rowSpec ? await readRow(db, pending.rowSpec, id) : null;
      const change = pending.rowSpec && (pending.before || after) ? diff(pending.before, after) : { before: null, after: sent(request) };
      await record(request, pending, id, change);
    } catch (error) {
      // The change is committed: its answer stands. A lost entry is logged, not turned into an error.
      request.log.error({ err: error, route: request.routeOptions.url, entity: pending.entity, id }, 'audit entry not written');
    }
    return payload;
  });

  async function record(request: FastifyRequest, pending: Pending, id: string | null, change: { before: unknown; after: unknown }) {
    const user = request.user;
    const enterpriseId =
      user.permissionLevel === Level.Enterprise ? user.id : user.permissionLevel === Level.SubUser ? user.parentId : null;
    await insertAuditEntry(db, {
      userId: user.id,
      userName: user.name,
      userLevel: user.permissionLevel,
      enterpriseId,
      address: request.ip,
      method: request.method,
      route: (request.routeOptions.url ?? '').replace(/^\/cz\/[^/]+/, ''),
      entity: pending.entity,
      entityId: id,
      action: pending.action,
      before: change.before,
      after: change.after,
    });
  }
}
