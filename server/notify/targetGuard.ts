import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where the server may send a notification (docs/api.md, "Notifications"): an http(s) URL whose
 * host does not resolve to this machine, a link-local address or a private network, unless the
 * operator allows private targets (NOTIFY_ALLOW_PRIVATE_TARGETS=1, for robots and webhooks inside
 * the company network; the tests turn it on). Answers the reason, or null when the URL may be used.
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::1', 128],
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

const isPrivate = (address: string) => {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
};

export async function refusedTarget(target: string, { allowPrivate }: { allowPrivate: boolean }): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not http(s)';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (!addresses.length) return 'does not resolve';
  return addresses.some(isPrivate) ? 'a private or local address' : null;
}
