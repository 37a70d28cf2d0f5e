/**
 * Which addresses the crawler may connect to. A feed (or a redirect, or a DNS answer) must not be
 * able to make the crawler fetch internal services. The rule is deny by default: an address is
 * allowed only when ipaddr.js classifies it as ordinary unicast (IPv4), or as global unicast inside
 * 2000::/3 (IPv6); the IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64 64:ff9b::/96) are
 * judged by that IPv4 address, and every other special form (IPv4-compatible ::a.b.c.d, SIIT
 * ::ffff:0:a.b.c.d, 6to4 2002::/16, Teredo, local-use NAT64 64:ff9b:1::/48, site-local fec0::/10,
 * unique-local, link-local, loopback, multicast, documentation, benchmarking …) is refused. The check
 * runs inside the socket's own DNS lookup, so the address checked is the address connected to (no
 * window for DNS rebinding between check and connect).
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { createError } from '../../lib/errors';

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parse('2000::');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parse('64:ff9b::');

/** The canonical text of an IP literal (URL-style brackets and zone ids removed), or null when it is not one. */
function canonicalIp(ip: string): { family: 4 | 6; text: string } | null {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 4) return { family, text: bare };
  if (family !== 6) return null;
  // WHATWG URL serialisation: ::127.0.0.1 becomes ::7f00:1 (ipaddr.js would read it as IPv4-mapped).
  return { family, text: new URL(`http://[${bare}]/`).hostname.slice(1, -1) };
}

function ipv4Allowed(addr: ipaddr.IPv4): boolean {
  return addr.range() === 'unicast';
}

function ipv6Allowed(addr: ipaddr.IPv6): boolean {
  const range = addr.range();
  if (range === 'ipv4Mapped') return ipv4Allowed(addr.toIPv4Address());
  if (range === 'rfc6052' && addr.match(NAT64_WELL_KNOWN, 96)) {
    const [a, b] = addr.parts.slice(6) as [number, number];
    return ipv4Allowed(new ipaddr.IPv4([a >> 8, a & 255, b >> 8, b & 255]));
  }
  return range === 'unicast' && addr.match(GLOBAL_UNICAST_V6, 3);
}

/** True for addresses the crawler must not connect to. Anything that is not an IP address is blocked. */
export function isBlockedAddress(ip: string): boolean {
  const canonical = canonicalIp(ip);
  if (!canonical) return true;
  try {
    return canonical.family === 4 ? !ipv4Allowed(ipaddr.IPv4.parse(canonical.text)) : !ipv6Allowed(ipaddr.IPv6.parse(canonical.text));
  } catch {
    return true;
  }
}

export function blockedError(host: string, address: string) {
  return createError(
    'FETCH_BLOCKED',
    `refusing to fetch ${host}: it resolves to ${address}, a private, loopback, link-local or reserved address`,
    { host, address, refused: 'address' },
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
 * A `lookup` for sockets that resolves and refuses blocked addresses. Every address of the answer is
 * checked (a host that resolves to one public and one private address is refused): the socket may
 * connect to any of them.
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

/** True when `hostname` (as in a URL, brackets allowed) is an IP literal. */
export function isIpLiteral(hostname: string): boolean {
  return canonicalIp(hostname) !== null;
}

/** Host names given as IP literals never reach the lookup: check them directly. */
export function assertLiteralAllowed(hostname: string, allowPrivate: boolean, policy: AddressPolicy = DEFAULT_POLICY): void {
  if (allowPrivate) return;
  const canonical = canonicalIp(hostname);
  if (canonical && policy.isBlocked(canonical.text)) throw blockedError(hostname, canonical.text);
}

const LOOKUP_TIMEOUT_MS = 5000;

/**
 * Refuses a URL (before it is stored as a feed, say) whose host is a blocked IP literal, a name that
 * can only mean this machine (localhost, *.localhost), or a name whose DNS answer holds a blocked
 * address. A name that does not resolve now is let through: the crawl checks it again at connect time.
 */
export async function assertUrlAllowed(url: URL, allowPrivate: boolean, policy: AddressPolicy = DEFAULT_POLICY): Promise<void> {
  if (allowPrivate) return;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) throw blockedError(url.hostname, 'loopback (localhost)');
  if (isIpLiteral(host)) return assertLiteralAllowed(host, false, policy);
  const answer = await new Promise<dns.LookupAddress[]>((resolve) => {
    const timer = setTimeout(() => resolve([]), LOOKUP_TIMEOUT_MS);
    policy.resolve(host, { all: true }, (err, list) => {
      clearTimeout(timer);
      resolve(err ? [] : list);
    });
  });
  const bad = answer.find((a) => policy.isBlocked(a.address));
  if (bad) throw blockedError(url.hostname, bad.address);
}
