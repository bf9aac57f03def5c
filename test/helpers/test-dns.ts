// The test DNS on its own, so a unit test of outbound calls (test/services) can use it without
// importing the whole app through ./server.ts.
import { systemResolver, type ResolveHost } from '../../src/services/outbound-url.ts';

/** Answers of the test DNS for names under example.com (RFC 2606) that are not public. */
const TEST_DNS: Record<string, string[]> = {
  'private.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.215.14', '192.168.0.7'],
  'metadata.example.com': ['169.254.169.254'],
  'v6-private.example.com': ['2606:4700:4700::1111', 'fd12:3456::1'],
};

/**
 * DNS for test servers: this machine reaches no public DNS, so names under example.com get
 * a public address (or the answer of TEST_DNS); every other name goes to the system
 * resolver, which is thereby tested too (localhost, *.invalid).
 */
export const testResolver: ResolveHost = async (hostname) => {
  const listed = TEST_DNS[hostname];
  if (listed) return listed;
  if (hostname === 'example.com' || hostname.endsWith('.example.com')) return ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'];
  return systemResolver(hostname);
};
