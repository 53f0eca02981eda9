import dns from 'node:dns';
import net from 'node:net';

/**
 * Where a webhook may be delivered. By default only https, and only public addresses: never loopback, private
 * ranges, link-local (169.254.0.0/16, with the cloud metadata address) or their IPv6 kin, checked on the URL's
 * text when a subscription is saved and on every resolved address when a delivery connects (the connection uses
 * the address that was checked, so a name that re-resolves to a private address meanwhile gains nothing).
 * `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE_TARGETS) lifts both rules, for a local receiver.
 */
const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, 169.254.169.254 the metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(addr, prefix, 'ipv4');
for (const [addr, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64 (an IPv4 address in disguise)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(addr, prefix, 'ipv6');

/** True when an IP address is not a public one (see the ranges above; IPv4-mapped IPv6 as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '');
  const family = net.isIP(ip);
  if (family === 0) return true;
  if (family === 4) return blocked.check(ip, 'ipv4');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  if (/^::ffff:/i.test(ip)) return true; // a mapped address in hex form: refused rather than decoded
  return blocked.check(ip, 'ipv6');
}

/** Why a target URL is refused (a sentence for the 400), or null when it may be saved. */
export function targetProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    return allowPrivate ? 'url must be http or https' : 'url must be https';
  if (url.username || url.password) return 'url must not carry a user name or password';
  if (allowPrivate) return null;
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host.endsWith('.internal')
  )
    return 'url must be a public address (not loopback, private or link-local)';
  if (net.isIP(host) !== 0 && isPrivateAddress(host))
    return 'url must be a public address (not loopback, private or link-local)';
  // A number the URL parser did not normalise (e.g. a bare integer host) is not a name to resolve.
  if (/^[\d.]+$/.test(host) && net.isIP(host) === 0) return 'url must be a public address';
  return null;
}

export class RefusedTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedTargetError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http(s).request that resolves every address of the name and refuses the connection when any
 * of them is private (unless allowed); the socket then connects to an address that was checked.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as dns.LookupAddress[];
      if (!allowPrivate) {
        const bad = list.find((a) => isPrivateAddress(a.address));
        if (bad || list.length === 0)
          return callback(
            new RefusedTargetError(
              `${hostname} resolves to a private address (${bad?.address ?? 'none'}); refused`,
            ),
            '',
          );
      }
      if (options.all) return callback(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
