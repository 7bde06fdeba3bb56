import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config';

/**
 * Security headers on every answer (docs/architecture.md, "Security headers"): helmet's set
 * (nosniff, Referrer-Policy no-referrer, HSTS, Cross-Origin-Opener/Resource-Policy same-origin...)
 * and, for everything but the console page, a Content-Security-Policy that allows nothing: an API
 * answer, a file, an export or an error is never a page that loads anything. The console page
 * gets its own policy from consolePolicy (serveConsole.ts).
 */
export async function installSecurityHeaders(app: FastifyInstance, config: ServerConfig): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: sources(config.frameAncestors), baseUri: ["'none'"], formAction: ["'none'"] },
    },
    // frame-ancestors decides; the older header can only say DENY or SAMEORIGIN, so it is sent only when nobody may frame.
    xFrameOptions: framedByNobody(config) ? { action: 'deny' } : false,
    referrerPolicy: { policy: 'no-referrer' },
  });
}

const sources = (list: string) => list.split(/\s+/).filter(Boolean);
const framedByNobody = (config: ServerConfig) => config.frameAncestors === "'none'";

/**
 * The origin of a URL ('' for a relative or broken one): what a CSP source list names. A tile
 * template's placeholder in the host's first label (`https://{s}.tile.example.org/...`: Leaflet
 * spreads tiles over a, b, c) becomes a wildcard subdomain, `https://*.tile.example.org`.
 */
export function originOf(url: string): string {
  const m = /^(https?:\/\/)([^/?#]+)/i.exec(url);
  if (!m) return '';
  const [first, ...rest] = m[2]!.split('.');
  const host = first!.includes('{') && rest.length >= 2 ? ['*', ...rest].join('.') : m[2]!;
  try {
    const origin = new URL(`${m[1]}${host.replace(/\*/g, 'a').replace(/\{[a-z]\}/gi, 'a')}`).origin;
    return host.startsWith('*.') ? origin.replace('//a.', '//*.') : origin;
  } catch {
    return '';
  }
}

/**
 * The console page's Content-Security-Policy: exactly what the console needs.
 * - scripts: its own files only (the runtime config is a JSON data block, not a script);
 * - styles: its own files and inline styles (MUI/emotion write <style> elements at run time);
 * - images: its own, data: and blob: (pictures, Leaflet), the map tile server of `mapTileUrl`,
 *   and the camera sources (an MJPEG stream is an <img>);
 * - connections: its own origin, the API origin of `baseURL`, and the camera sources (hls.js
 *   fetches playlists and segments); media: blob: (hls.js feeds the <video> through
 *   MediaSource) and the camera sources; workers: blob: (hls.js's worker);
 * - no plugins, no <base>, forms only to itself, frames only by `frameAncestors`.
 */
export function consolePolicy(config: ServerConfig, runtime: { baseURL?: unknown; mapTileUrl?: unknown }): string {
  const api = typeof runtime.baseURL === 'string' ? originOf(runtime.baseURL) : '';
  const tiles = typeof runtime.mapTileUrl === 'string' ? originOf(runtime.mapTileUrl) : '';
  const cameras = sources(config.cameraSources);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', tiles, ...cameras],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", api, ...cameras],
    'media-src': ["'self'", 'blob:', ...cameras],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': sources(config.frameAncestors),
  };
  return Object.entries(directives)
    .map(([name, list]) => [name, ...new Set(list.filter(Boolean))].join(' '))
    .join('; ');
}
