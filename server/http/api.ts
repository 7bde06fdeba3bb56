import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { ServerContext } from '../context';

/**
 * A Fastify scope whose request types (query, body, params) come from each route's JSON schema
 * (json-schema-to-ts), so a route never casts `request.query` (docs/architecture.md, "Module shape").
 */
export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  JsonSchemaToTsProvider
>;

/** What a module's index.ts exports and app.ts registers: it adds the module's routes to a scope. */
export type ApiModule = (app: Api, context: ServerContext) => Promise<void>;
