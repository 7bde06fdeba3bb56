import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from './config';
import { LANGUAGE_COOKIE, LANGUAGES, normaliseLanguage, type Language } from '../src/domain/constants';
import { consolePolicy } from './http/securityHeaders';

/** The id of the runtime config's JSON block in index.html, as src/config.ts reads it. */
const CONFIG_ELEMENT_ID = 'fleet-config';

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

/** Files under /assets/ carry a content hash in their name: a browser may keep them for a year without asking. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, config.json, icons) is kept but revalidated by ETag on every use. */
export const REVALIDATE = 'no-cache';

/** Where the build put each language's catalogue chunk (Vite's manifest; empty when there is none). */
function catalogueChunks(root: string): Partial<Record<Language, string>> {
  const path = `${root}/.vite/manifest.json`;
  const manifest = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, { file: string }>) : {};
  return Object.fromEntries(
    LANGUAGES.flatMap((language) =>
      manifest[`src/i18n/${language}.ts`] ? [[language, `/${manifest[`src/i18n/${language}.ts`]!.file}`]] : [],
    ),
  );
}

/**
 * index.html as this server sends it, per language: with the runtime config written in (the
 * console then needs no /config.json round trip before its first screen) and the language's
 * catalogue chunk preloaded beside the entry chunks (not fetched only after they ran).
 */
function pagesByLanguage(root: string, runtimeConfig: object): Record<Language, string> {
  const template = readFileSync(`${root}/index.html`, 'utf8');
  // A JSON data block, not a script: the page's Content-Security-Policy allows no inline script (src/config.ts reads it).
  const config = `<script type="application/json" id="${CONFIG_ELEMENT_ID}">${JSON.stringify(runtimeConfig).replace(/</g, '\\u003c')}</script>`;
  const chunks = catalogueChunks(root);
  const page = (language: Language) =>
    template.replace(
      '</head>',
      `${config}${chunks[language] ? `<link rel="modulepreload" crossorigin href="${chunks[language]}">` : ''}</head>`,
    );
  return Object.fromEntries(LANGUAGES.map((language) => [language, page(language)])) as Record<Language, string>;
}

const cookieLanguage = (cookie = ''): Language => normaliseLanguage(new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`).exec(cookie)?.[1]);

/**
 * Serves the built console at /: a file of the build as it is (its brotli or gzip copy written by
 * the build when the browser accepts one), any other non-API path as index.html with the runtime
 * config in it (so deep links work), and /config.json with the segment and environment this server really uses over the
 * file's values. Returns false when there is no build to serve.
 */
export async function serveConsole(app: FastifyInstance, config: ServerConfig): Promise<boolean> {
  const root = resolve(config.consoleDir);
  if (!existsSync(`${root}/index.html`)) return false;
  const files = filesOf(root);
  const fileConfig = files.has('/config.json') ? JSON.parse(readFileSync(`${root}/config.json`, 'utf8')) : {};
  const runtimeConfig = { ...fileConfig, apiSegment: config.apiSegment, environment: config.production ? 'production' : 'development' };
  const pages = pagesByLanguage(root, runtimeConfig);
  const policy = consolePolicy(config, runtimeConfig);
  // cacheControl: false leaves the Cache-Control header to this handler (the plugin would write max-age=0).
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true, cacheControl: false });
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const path = decodeURIComponent(request.url.split('?')[0]!);
    if (path.startsWith('/cz/')) return reply.callNotFound();
    if (path === '/config.json') return reply.header('cache-control', REVALIDATE).send(runtimeConfig);
    const hashed = path.startsWith('/assets/');
    if (path !== '/index.html' && files.has(path))
      return reply.header('cache-control', hashed ? IMMUTABLE : REVALIDATE).sendFile(path.slice(1));
    // A chunk of an older build (a page open across a deploy) must fail as a missing file, not parse index.html as script.
    if (hashed) return reply.callNotFound();
    return reply
      .header('cache-control', REVALIDATE)
      .header('content-security-policy', policy)
      .type('text/html; charset=utf-8')
      .send(pages[cookieLanguage(request.headers.cookie)]);
  });
  return true;
}
