import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from './config';

/**
 * Serves the built console at / (any non-API path answers index.html, so deep links work) and its
 * runtime /config.json with the segment and environment this server really uses.
 * Returns false when there is no build to serve.
 */
export async function serveConsole(app: FastifyInstance, config: ServerConfig): Promise<boolean> {
  const consoleDir = resolve(config.consoleDir);
  if (!existsSync(`${consoleDir}/index.html`)) return false;
  const fileConfig = existsSync(`${consoleDir}/config.json`) ? JSON.parse(readFileSync(`${consoleDir}/config.json`, 'utf8')) : {};
  app.get('/config.json', async () => ({ ...fileConfig, apiSegment: config.apiSegment, environment: config.production ? 'production' : 'development' }));
  await app.register(fastifyStatic, { root: consoleDir, wildcard: false });
  app.get('/*', (request, reply) => {
    if (request.url.startsWith('/cz/')) return reply.callNotFound();
    return reply.sendFile('index.html');
  });
  return true;
}
