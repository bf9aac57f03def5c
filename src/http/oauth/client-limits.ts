// docs/rules.md#rate-limits at the OAuth endpoints: the counters of the HTTP layer (rate-limits.ts)
// as the core's ports for limits around client authentication (oauth/client-limits.ts), and
// the headers that tell a client its count.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { ClientRequestLimit, FailedAuthenticationLimit, RequestCount } from '../../oauth/client-limits.ts';
import { callerKey, LimitExceeded, type RateLimits } from '../rate-limits.ts';

/**
 * A limiter key part for a client_id as authentication read it. Long ids (client-metadata
 * URLs, or junk) are hashed rather than cut, so two ids never share a key.
 */
function clientKey(clientId: string): string {
  return clientId.length <= 200 ? `id:${clientId}` : `sha256:${createHash('sha256').update(clientId).digest('base64url')}`;
}

/**
 * Failed client authentications per client (as authentication decoded it) and caller at
 * `ip`, shared by the token, revocation and introspection endpoints.
 */
export function failedAuthenticationLimit(limits: RateLimits, ip: string): FailedAuthenticationLimit {
  return {
    async reserve(credentials) {
      try {
        const settle = await limits.clientAuthFailures.reserve(`${clientKey(credentials.clientId)}|${callerKey(ip)}`);
        return { allowed: true, settle };
      } catch (error) {
        if (error instanceof LimitExceeded) return { allowed: false, retryAfter: error.retryAfter };
        throw error;
      }
    },
  };
}

/** Token requests per authenticated client, of a caller at `ip`. */
export function tokenRequestLimit(limits: RateLimits, ip: string): ClientRequestLimit {
  return {
    async count(client) {
      // A public client is named, not authenticated: anyone can send its client_id, so
      // its limit is counted per client and IP, or a stranger could spend it for every
      // device the application runs on.
      const key = client.kind === 'public' ? `client:${client.id}|${callerKey(ip)}` : `client:${client.id}`;
      try {
        return { allowed: true, count: await limits.tokenRequests.take(key) };
      } catch (error) {
        if (error instanceof LimitExceeded) return { allowed: false, retryAfter: error.retryAfter, limit: error.limit };
        throw error;
      }
    },
  };
}

/** The client's count after this request, in the headers clients and proxies commonly read. */
export function tellRequestCount(reply: FastifyReply, count: RequestCount | undefined): void {
  if (count === undefined) return;
  reply.header('x-ratelimit-limit', String(count.limit)).header('x-ratelimit-remaining', String(count.remaining)).header('x-ratelimit-reset', String(count.resetSeconds));
}
