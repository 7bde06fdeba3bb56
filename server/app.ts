import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import compress from '@fastify/compress';
import etag from '@fastify/etag';
import type { ServerConfig } from './config';
import type { Db } from './db/connection';
import { linkPartsOf, type ServerContext } from './context';
import { installErrorHandling } from './http/errors';
import { installEdgeValidation } from './http/edgeValidation';
import { installSecurityHeaders } from './http/securityHeaders';
import { installSessionGuard } from './auth/guard';
import { installPermissionGuard } from './auth/permissionGuard';
import { DeviceCache } from './auth/deviceCache';
import { SessionCache } from './auth/sessionCache';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import { auditModule, installAuditLog } from './modules/audit';
import { ok } from './http/envelope';
import type { ApiModule } from './http/api';
import { usersModule } from './modules/users';
import { devicesModule } from './modules/devices';
import { monitoringModule } from './modules/monitoring';
import { vesselModule } from './modules/vessel';
import { historyModule } from './modules/history';
import { supportModule } from './modules/support';
import { reportsModule } from './reports/reportRoutes';
import { notifierOptionsOf, startNotifier } from './notify/notifier';
import { firmwareModule } from './modules/firmware';
import { mqttAuthRoutes } from './link/mqttAuthRoutes';
import { dataPlansModule } from './modules/dataPlans';
import { commandsModule } from './modules/commands';
import { IMAGE_MAX_BYTES } from '../src/domain/constants';
import { createIngestWriter } from './modules/monitoring/ingestWriter';
import { noDeviceLink, type DeviceLink, type LinkParts } from './link/deviceLink';
import { liveRoutes } from './modules/live/liveRoutes';
import { notificationsModule } from './modules/notifications';
import { declaredResources } from './resources/declaredResources';
import { tableRoutes } from './resources/tableRoutes';
import { installMetrics, installOps } from './ops';
import { backupService } from './ops/backup/backupService';

/**
 * The API modules, each mounted under /cz/{segment}/{prefix}: a module folder's index.ts
 * (docs/architecture.md, "Module shape"), and the live routes and the MQTT broker's auth hooks.
 */
const MODULES: readonly { prefix: string; modules: readonly ApiModule[] }[] = [
  { prefix: 'users', modules: [usersModule] },
  {
    prefix: 'deviceModule',
    modules: [
      devicesModule,
      monitoringModule,
      vesselModule,
      historyModule,
      firmwareModule,
      liveRoutes,
      commandsModule,
      dataPlansModule,
      mqttAuthRoutes,
    ],
  },
  { prefix: 'supportModule', modules: [supportModule, auditModule, notificationsModule, reportsModule] },
];

const redactToken = (url: string) => url.replace(/([?&]token=)[^&]*/g, '$1***').replace(/([?&]password=)[^&]*/g, '$1***');

export interface AppOptions {
  /**
   * Opens the device link (the MQTT broker) once the ingest writer exists; without it commands stay
   * queued (tests that need no devices). It is closed with the app.
   */
  openLink?: (parts: LinkParts) => Promise<DeviceLink>;
  /** Where the log lines go (default stdout); tests read them. */
  logStream?: { write(line: string): void };
}

/** Builds the server (tests call app.inject on it); main.ts adds the console and listens. */
export async function buildApp(config: ServerConfig, db: Db, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            serializers: { req: (req) => ({ method: req.method, url: redactToken(req.url) }) },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    bodyLimit: 1024 * 1024,
    ajv: {
      customOptions: {
        coerceTypes: true,
        removeAdditional: false,
        useDefaults: true,
        allErrors: true,
        strictNumbers: true,
        allowUnionTypes: true,
      },
    },
  });
  // Response schemas document the API; replies are written as they are, envelope errors included.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Prometheus metrics when the settings turn them on: the hook that times every answer comes before every route.
  const metrics = installMetrics(app, config, db);
  installErrorHandling(app);
  installEdgeValidation(app);
  // Security headers on every answer: API, console, files, exports, errors, the live stream (docs/architecture.md).
  await installSecurityHeaders(app, config);
  // Bytes are dear at sea. Every answer gets an ETag, and a GET whose answer has not changed is a
  // bodiless 304 (the polls of the bell, the status counts and the dashboard panels); then answers
  // over 1 KB are compressed by what the client accepts. Files the build precompressed, and
  // types that are compressed already (xlsx, firmware images), are sent as they are.
  await app.register(etag, { weak: true });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 10 } });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Fleet console /cz API',
        version: '1.0.0',
        description: 'Every response is { code, msg, data }; code 0 is success. See docs/api.md.',
      },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'query', name: 'token' } } },
      security: [{ token: [] }],
    },
  });

  const ingest = createIngestWriter(db, metrics ? { onGroup: metrics.group } : {});
  const devices = await DeviceCache.open(db);
  app.addHook('onClose', () => devices.close());
  const measured = metrics ? { metrics } : {};
  const link = options.openLink ? await options.openLink(linkPartsOf({ db, config, ingest, devices, ...measured })) : noDeviceLink();
  app.addHook('onClose', () => link.close());
  const backups = backupService(db, config);
  const context: ServerContext = { db, config, ingest, devices, link, backups, ...measured };
  const base = `/cz/${config.apiSegment}`;
  // Sessions and permission groups checked in the last few seconds cost no query (docs/architecture.md).
  const authCache = await SessionCache.open(db);
  app.addHook('onClose', () => authCache.close());
  await app.register(
    async (api) => {
      installSessionGuard(api, db, config.sessionIdleMinutes, authCache);
      installPermissionGuard(api, db, authCache);
      installAuditLog(api, db);
      // A browser keeps API answers privately and revalidates each by its ETag before using it.
      api.addHook('onSend', async (request, reply) => {
        if (request.method === 'GET' && !reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
      });
      api.get('/ping', { config: { public: true }, schema: { tags: ['system'], summary: 'Liveness; no database access' } }, async () =>
        ok({ time: new Date().toISOString() }),
      );
      for (const module of MODULES) {
        await api.register(
          async (scope) => {
            // Request types come from the route schemas (docs/architecture.md, "Module shape"); types only, no runtime change.
            for (const register of module.modules) await register(scope.withTypeProvider<JsonSchemaToTsProvider>(), context);
          },
          { prefix: `/${module.prefix}` },
        );
      }
      // The resources declared as data (docs/extending.md), each at its declared path.
      for (const declared of await declaredResources()) {
        const routes = tableRoutes(declared);
        await api.register(async (scope) => routes(scope.withTypeProvider<JsonSchemaToTsProvider>(), context), {
          prefix: declared.resource.path,
        });
      }
    },
    { prefix: base },
  );
  app.get(`${base}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  // GET /health, /ready and /metrics, outside /cz (docs/api.md, "Health and metrics").
  await installOps(app, { db, config, ingest, link, metrics, backups });
  if (config.notifyWorker) {
    // Alarm notifications: every replica works the outbox and the delivery log (docs/architecture.md, "Notification delivery").
    const notifier = await startNotifier(
      db,
      { ...notifierOptionsOf(config), ...(metrics ? { onDelivered: metrics.delivered } : {}) },
      (message) => app.log.warn(message),
    );
    app.addHook('onClose', () => notifier.stop());
  }
  return app;
}
