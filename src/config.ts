/**
 * Runtime configuration, read when the console starts (from index.html when our server serves it,
 * else from /config.json), so one build can be pointed at any server that speaks the /cz API. Imports nothing of ours (a leaf like domain/).
 */
export interface RuntimeConfig {
  /** Origin (or path prefix) of the API server; empty means the console's own origin. */
  baseURL: string;
  /** The /cz/{apiSegment}/ path segment: v1 in production, test otherwise. */
  apiSegment: string;
  /** Seconds between two polls of the alarm bell. */
  warnRefreshSeconds: number;
  /** 'production' hides the red test badge. */
  environment: string;
  /**
   * An online tile layer for the maps ({z}/{x}/{y} URL template, e.g. OpenStreetMap's). Empty:
   * only the base map shipped with the app (Natural Earth land), which works on a closed network.
   */
  mapTileUrl: string;
}

export const DEFAULT_CONFIG: RuntimeConfig = {
  baseURL: '',
  apiSegment: 'test',
  warnRefreshSeconds: 30,
  environment: 'development',
  mapTileUrl: '',
};

let current: RuntimeConfig = DEFAULT_CONFIG;

export const getConfig = (): RuntimeConfig => current;

export function setConfig(next: Partial<RuntimeConfig>): RuntimeConfig {
  current = { ...DEFAULT_CONFIG, ...next };
  return current;
}

export const isProduction = (config: RuntimeConfig = current): boolean => config.environment === 'production';

/** The id of the JSON data block a serving server writes into index.html (server/serveConsole.ts writes the same id). */
export const CONFIG_ELEMENT_ID = 'fleet-config';

/** The runtime config the serving server wrote into index.html (saves a round trip), if any. */
function configInPage(): Partial<RuntimeConfig> | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById(CONFIG_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Partial<RuntimeConfig>) : null;
  } catch {
    return null;
  }
}

/**
 * The runtime config: the one the serving server wrote into index.html (a JSON block, not a
 * script, so the page's Content-Security-Policy needs no inline script), else /config.json (a
 * console hosted anywhere else); a missing or broken file leaves the defaults in place.
 */
export async function loadConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const inPage = configInPage();
  if (inPage) return setConfig(parseConfig(inPage));
  try {
    const response = await fetchImpl('/config.json', { credentials: 'omit' });
    if (!response.ok) return setConfig({});
    return setConfig(parseConfig((await response.json()) as Partial<RuntimeConfig>));
  } catch {
    return setConfig({});
  }
}

function parseConfig(raw: Partial<RuntimeConfig>): Partial<RuntimeConfig> {
  const seconds = Number(raw.warnRefreshSeconds);
  return {
    baseURL: typeof raw.baseURL === 'string' ? raw.baseURL.replace(/\/+$/, '') : DEFAULT_CONFIG.baseURL,
    apiSegment: typeof raw.apiSegment === 'string' && raw.apiSegment ? raw.apiSegment : DEFAULT_CONFIG.apiSegment,
    warnRefreshSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_CONFIG.warnRefreshSeconds,
    environment: typeof raw.environment === 'string' ? raw.environment : DEFAULT_CONFIG.environment,
    mapTileUrl: typeof raw.mapTileUrl === 'string' ? raw.mapTileUrl : DEFAULT_CONFIG.mapTileUrl,
  };
}
