import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from './config';

/** Every file of the build, as URL paths ("/assets/index-x.js"), read once at start. */
function filesOf(root: string): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.add(`/${relative(root, full).split('\\').join('/')}`);
    }
  };
  walk(root);
  return found;
}

/**
 * Serves the built console at /: a file of the build as it is, any other non-API path as
 * index.html (so deep links work), and /config.json with the segment and environment this server
 * really uses over the file's values. Returns false when there is no build to serve.
 */
export async function serveConsole(app: FastifyInstance, config: ServerConfig): Promise<boolean> {
  const root = resolve(config.consoleDir);
  if (!existsSync(`${root}/index.html`)) return false;
  const files = filesOf(root);
  const fileConfig = files.has('/config.json') ? JSON.parse(readFileSync(`${root}/config.json`, 'utf8')) : {};
  const runtimeConfig = { ...fileConfig, apiSegment: config.apiSegment, environment: config.production ? 'production' : 'development' };
  await app.register(fastifyStatic, { root, serve: false });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const path = decodeURIComponent(request.url.split('?')[0]!);
    if (path.startsWith('/cz/')) return reply.callNotFound();
    if (path === '/config.json') return reply.send(runtimeConfig);
    if (files.has(path)) {
      const immutable = path.startsWith('/assets/');
      return reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache').sendFile(path.slice(1));
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  return true;
}
