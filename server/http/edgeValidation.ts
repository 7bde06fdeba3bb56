import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTROL_CHARACTERS, INTEGER_MAX, INTEGER_MIN } from '../../src/domain/constants';
import { ErrorCode } from '../../src/domain/errorCodes';
import { BizError } from './envelope';

type Schema = Record<string, unknown>;

const isIntegerType = (type: unknown) => type === 'integer' || (Array.isArray(type) && type.includes('integer'));

/**
 * A copy of a route's JSON schema where every integer is bounded to PostgreSQL's integer range:
 * `id=99999999999999999999` or `{"id":1e308}` is a validation error at the edge, not a database
 * error inside the handler. Bounds a route declares itself are kept when they are tighter.
 */
export function boundIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundIntegers);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    out[key] =
      key === 'properties' || key === 'patternProperties'
        ? Object.fromEntries(Object.entries(value as Schema).map(([name, s]) => [name, boundIntegers(s)]))
        : key === 'items' || key === 'additionalProperties' || key === 'anyOf' || key === 'oneOf' || key === 'allOf'
          ? boundIntegers(value)
          : value;
  }
  if (isIntegerType(out.type)) {
    out.minimum = typeof out.minimum === 'number' ? Math.max(out.minimum, INTEGER_MIN) : INTEGER_MIN;
    out.maximum = typeof out.maximum === 'number' ? Math.min(out.maximum, INTEGER_MAX) : INTEGER_MAX;
  }
  return out;
}

/** The path of the first value in a parsed query or body that `bad` refuses (keys included). */
function findBad(value: unknown, bad: (leaf: unknown) => boolean, path = '', depth = 0): string | null {
  if (bad(value)) return path;
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return null;
  if (depth >= MAX_DEPTH) throw new BizError(ErrorCode.Validation, 'error.validation', [{ field: path, message: 'validation.invalid' }]);
  for (const [key, item] of Object.entries(value)) {
    // Named as the domain's validation names fields: satellite.name, reports[0].lat.
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    const found = bad(key) ? at : findBad(item, bad, at, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** No request the API takes nests deeper; a deeper one is refused before anything walks it. */
const MAX_DEPTH = 32;

/** The edge's nesting rule for a body that did not come through HTTP (an MQTT report): a validation error past MAX_DEPTH. */
export function refuseDeepNesting(value: unknown): void {
  findBad(value, () => false);
}

const hasControlCharacter = (v: unknown) => typeof v === 'string' && CONTROL_CHARACTERS.test(v);
/** JSON cannot carry Infinity or NaN; ajv's type coercion turns the text "Infinity" into one without checking its bounds. */
const isNonFinite = (v: unknown) => typeof v === 'number' && !Number.isFinite(v);

/**
 * Validation at the edge, once for every route: integers bounded in each route's schema, and
 * control characters refused in every query and JSON or form body, and no Infinity reaches a handler.
 * Must be installed before the routes are registered.
 */
export function installEdgeValidation(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Schema | undefined;
    if (!schema) return;
    route.schema = {
      ...schema,
      ...(schema.querystring ? { querystring: boundIntegers(schema.querystring) } : {}),
      ...(schema.params ? { params: boundIntegers(schema.params) } : {}),
      ...(schema.body ? { body: boundIntegers(schema.body) } : {}),
      ...(schema.headers ? { headers: boundIntegers(schema.headers) } : {}),
    };
  });
  const check = (request: FastifyRequest, bad: (v: unknown) => boolean, message: string) => {
    const field = findBad(request.query, bad) ?? (request.isMultipart() ? null : findBad(request.body, bad));
    if (field !== null) throw new BizError(ErrorCode.Validation, 'error.validation', [{ field, message }]);
  };
  app.addHook('preValidation', async (request) => check(request, hasControlCharacter, 'validation.controlCharacter'));
  app.addHook('preHandler', async (request) => check(request, isNonFinite, 'validation.outOfRange'));
}
