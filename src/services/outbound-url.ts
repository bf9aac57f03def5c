// Addresses Gatehouse is asked to call: webhook subscribers and calendar feeds (checked when
// registered), application logos and client metadata documents
// (docs/rules.md#outbound-urls). Unless the operator allows private addresses, a
// URL must be https and its host must be public: a literal address is judged as written, a
// name by every address DNS gives for it, so that nobody can make the service call its own
// network, a neighbour or a cloud metadata endpoint (server-side request forgery).
// Registration checks it; whoever then connects checks again at connection time and connects
// only to the `addresses` returned (outbound-request.ts), because DNS answers can change
// between the two.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Every address a host name resolves to (A and AAAA). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

export interface OutboundPolicy {
  /** OUTBOUND_ALLOW_PRIVATE=1, for development and tests: any address, and http too. */
  allowPrivate: boolean;
  resolve: ResolveHost;
}

export type OutboundCheck =
  /** `addresses`: what the host was judged by; empty when private addresses are allowed (no lookup). */
  | { ok: true; url: URL; addresses: string[] }
  /** Says what is wrong, for the caller to fix; never the addresses a name resolved to. */
  | { ok: false; problem: string };

/** The operating system's resolver (getaddrinfo: hosts file, then DNS). */
export const systemResolver: ResolveHost = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** A resolver that has not answered by then is treated as one that could not. */
const RESOLVE_TIMEOUT_MS = 5_000;

const rangeWords: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
};

/**
 * The kind of a non-public address ("loopback", "private", ...), or null for a public one.
 * Public means ipaddr.js's `unicast` and, for IPv6, inside 2000::/3 (global unicast, RFC
 * 4291 §2.4), which leaves out the IPv4-compatible ::/96 and every other special block; an
 * IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it carries.
 */
export function nonPublicKind(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range !== 'unicast') return rangeWords[range] ?? 'reserved';
  if (ip.kind() === 'ipv6' && (ip.toByteArray()[0]! & 0xe0) !== 0x20) return 'reserved';
  return null;
}

/** RFC 6761 §6.3: localhost and every name under it are this machine, whatever DNS says. */
const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

async function resolveWithin(resolve: ResolveHost, host: string): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), RESOLVE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([resolve(host), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Checks an address Gatehouse is asked to call; `value` as the caller sent it. */
export async function checkOutboundUrl(value: string, policy: OutboundPolicy): Promise<OutboundCheck> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, problem: 'must be an absolute URL' };
  }
  // docs/rules.md#webhooks: deliveries are HTTPS; plain http only where private addresses are allowed.
  const schemes = policy.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return { ok: false, problem: `must use ${schemes.map((s) => s.slice(0, -1)).join(' or ')}` };
  if (url.username !== '' || url.password !== '') return { ok: false, problem: 'must not carry a user name or password' };
  if (policy.allowPrivate) return { ok: true, url, addresses: [] };

  // The URL parser has already normalized the host: lower case, IPv4 in dotted form
  // (2130706433 and 0x7f.1 become 127.0.0.1), IPv6 in brackets.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  const refuse = (what: string) => ({ ok: false as const, problem: `${what}: webhooks and calendar feeds must be on a public address` });
  if (isIP(host) !== 0) {
    const kind = nonPublicKind(host);
    return kind === null ? { ok: true, url, addresses: [host] } : refuse(`${host} is a${/^[aeiou]/.test(kind) ? 'n' : ''} ${kind} address`);
  }
  if (isLocalhostName(host)) return refuse(`${host} is this machine (loopback)`);
  let addresses: string[];
  try {
    addresses = await resolveWithin(policy.resolve, host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { ok: false, problem: `could not resolve the host ${host}: check the name` };
  // Any one non-public answer is enough: a client may connect to whichever address it likes.
  if (addresses.some((a) => nonPublicKind(a) !== null)) return refuse(`${host} resolves to a non-public address`);
  return { ok: true, url, addresses };
}
