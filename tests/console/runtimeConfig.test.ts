import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config';

/** The serving server writes the runtime config as a JSON block (server/serveConsole.ts), which the page's CSP never runs. */
describe('runtime config in the page', () => {
  afterEach(() => document.getElementById('fleet-config')?.remove());

  const writePage = (text: string) => {
    const block = document.createElement('script');
    block.type = 'application/json';
    block.id = 'fleet-config';
    block.textContent = text;
    document.head.append(block);
  };

  it('reads the JSON block and asks for no /config.json', async () => {
    writePage('{"apiSegment":"v1","environment":"production","baseURL":"https://api.example.com/","note":"\\u003c/script>"}');
    const fetchImpl = vi.fn();
    const config = await loadConfig(fetchImpl as unknown as typeof fetch);
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(config).toMatchObject({ apiSegment: 'v1', environment: 'production', baseURL: 'https://api.example.com' });
  });

  it('falls back to /config.json without a block, or with a broken one', async () => {
    writePage('{not json');
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ apiSegment: 'test', warnRefreshSeconds: 12 })));
    expect((await loadConfig(fetchImpl as unknown as typeof fetch)).warnRefreshSeconds).toBe(12);
    expect(fetchImpl).toHaveBeenCalledWith('/config.json', { credentials: 'omit' });
  });
});
