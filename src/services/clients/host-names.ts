// The host a trust decision about client metadata documents names
// (docs/integrating.md#connect-an-ai-agent-mcp): a host, not an origin, so a decision covers every port and every spelling of it.
// One function gives the host of a document URL, of what an admin or the operator typed,
// and of the decisions stored before this rule (migration 011); they are compared as equal
// strings. The WHATWG URL parser already lowers the case, turns an IDN into its A-label
// (IDNA, UTS #46) and writes an IPv4 address given in another numeric form (127.1, 0x7f.0.0.1,
// 2130706433) as four decimals; what is left is a trailing dot (an absolute DNS name, RFC
// 1034 §3.1) and an IPv4 address written as an IPv4-mapped IPv6 address (RFC 4291 §2.5.5.2).
import ipaddr from 'ipaddr.js';
import { validation } from '../errors.ts';

/** A hostname as WHATWG URL gives it, as decisions name it. */
function canonicalHostname(hostname: string): string {
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (!name.startsWith('[')) return name;
  const address = ipaddr.IPv6.parse(name.slice(1, -1));
  return address.isIPv4MappedAddress() ? address.toIPv4Address().toString() : `[${address.toString()}]`;
}

/** The host a decision about this document URL is about: no port, one spelling. */
export const documentHost = (clientId: string): string => canonicalHostname(new URL(clientId).hostname);

/**
 * A host as typed by an admin or the operator, in any spelling, with or without a port (a
 * decision covers every port, so the port is dropped), as decisions name it. Anything more
 * than a host (a scheme, a path, a user name) is refused with the form to use.
 */
export function checkHost(value: string): string {
  const given = value.trim();
  const notHost = (words: string) => validation(`"${given.slice(0, 100)}" is not a host name: give it as agent.example.com${words}`, 'host');
  let parsed: URL;
  try {
    parsed = new URL(`https://${given}/`);
  } catch {
    throw notHost('');
  }
  if (given === '' || parsed.username !== '' || parsed.password !== '' || parsed.pathname !== '/' || parsed.search !== '' || parsed.hash !== '' || /[/?#@\\]/.test(given)) {
    throw notHost(', without a scheme or path');
  }
  const name = canonicalHostname(parsed.hostname);
  // The URL parser takes "-" or a 300-character name; DNS does not (RFC 1035 §2.3.4).
  const isAddress = name.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(name);
  if (!isAddress && (name.length > 253 || !name.split('.').every((label) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(label)))) {
    throw notHost(' (labels of letters, digits and inner hyphens, at most 253 characters)');
  }
  return name;
}
