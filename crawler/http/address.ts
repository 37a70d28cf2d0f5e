/**
 * Which addresses the crawler may connect to. A feed (or a redirect, or a DNS answer) must not be
 * able to make the crawler fetch internal services: private, loopback, link-local (cloud metadata at
 * 169.254.169.254), carrier-grade NAT (Alibaba's metadata at 100.100.100.200), multicast and
 * reserved ranges are refused. The check runs inside the socket's own DNS lookup, so the address
 * checked is the address connected to (no window for DNS rebinding between check and connect).
 */
import dns from 'node:dns';
import net from 'node:net';
import { createError } from '../../lib/errors';

const BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(prefix, bits, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) or compatible form. */
function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** True for addresses the crawler must not connect to. Anything that is not an IP address is blocked. */
export function isBlockedAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 4) return BLOCKED.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4) return BLOCKED.check(v4, 'ipv4');
    return BLOCKED.check(bare, 'ipv6');
  }
  return true;
}

export function blockedError(host: string, address: string) {
  return createError(
    'FETCH_BLOCKED',
    `refusing to fetch ${host}: it resolves to ${address}, a private, loopback, link-local or reserved address`,
    {
      host,
      address,
    },
  );
}

export interface AddressPolicy {
  /** The resolver (dns.lookup; tests substitute one to play DNS-rebinding tricks). */
  resolve: (
    hostname: string,
    options: dns.LookupAllOptions,
    cb: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
  ) => void;
  isBlocked: (ip: string) => boolean;
}

export const DEFAULT_POLICY: AddressPolicy = { resolve: (h, o, cb) => dns.lookup(h, o, cb), isBlocked: isBlockedAddress };

/**
 * A `lookup` for net/http/https that resolves and refuses blocked addresses. Every address of the
 * answer is checked (a host that resolves to one public and one private address is refused): the
 * socket may connect to any of them.
 */
export function guardedLookup(allowPrivate: boolean, policy: AddressPolicy = DEFAULT_POLICY): net.LookupFunction {
  return (hostname, options, callback) => {
    policy.resolve(hostname, { ...(options as dns.LookupOptions), all: true }, (err, list) => {
      if (err) return callback(err, '', 0);
      if (!allowPrivate) {
        const bad = list.find((a) => policy.isBlocked(a.address));
        if (bad) return callback(blockedError(hostname, bad.address) as unknown as NodeJS.ErrnoException, '', 0);
      }
      if (list.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** Host names given as IP literals never reach the lookup: check them directly. */
export function assertLiteralAllowed(hostname: string, allowPrivate: boolean, policy: AddressPolicy = DEFAULT_POLICY): void {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && net.isIP(bare) && policy.isBlocked(bare)) throw blockedError(hostname, bare);
}
