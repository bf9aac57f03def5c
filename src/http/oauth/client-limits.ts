// SPEC §2 item 18 at the OAuth endpoints: the rate limits of the HTTP layer, handed to the
// core's client authentication as hooks (ClientAuthLimits).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientAuthLimits } from '../../oauth/client-auth.ts';
import { OAuthError, rateLimited } from '../../oauth/errors.ts';
import { callerKey, FailureLimit, LimitExceeded, type RateLimits } from '../rate-limits.ts';

/**
 * A limiter key part for a client_id as authentication read it. Long ids (client-metadata
 * URLs, or junk) are hashed rather than cut, so two ids never share a key.
 */
function clientKey(clientId: string): string {
  return clientId.length <= 200 ? `id:${clientId}` : `sha256:${createHash('sha256').update(clientId).digest('base64url')}`;
}

/**
 * SPEC §2 item 18 around the client authentication of the core: failed authentications
 * per client (as authentication decoded it) and IP, each counted before its secret is
 * checked; and, at the token endpoint, requests per client counted only once the client
 * has authenticated, so that nobody else can spend them. Past a limit: 429 with
 * Retry-After and an RFC 6749 §5.2 body (`temporarily_unavailable`).
 */
export function clientAuthLimits(limits: RateLimits, request: FastifyRequest, reply: FastifyReply, countTokenRequests: boolean): ClientAuthLimits {
  return {
    async checkingSecret(credentials, check) {
      const key = `${clientKey(credentials.clientId)}|${callerKey(request.ip)}`;
      const isFailure = (error: unknown) => error instanceof OAuthError && error.code === 'invalid_client';
      try {
        return await FailureLimit.guard([[limits.clientAuthFailures, key]], check, isFailure);
      } catch (error) {
        if (!(error instanceof LimitExceeded)) throw error;
        reply.header('retry-after', String(error.retryAfter));
        throw rateLimited(`too many failed client authentications: retry in ${error.retryAfter} seconds`);
      }
    },
    async authenticated(client) {
      if (!countTokenRequests) return;
      try {
        // A public client is named, not authenticated: anyone can send its client_id, so
        // its limit is counted per client and IP, or a stranger could spend it for every
        // device the application runs on.
        const key = client.kind === 'public' ? `client:${client.id}|${callerKey(request.ip)}` : `client:${client.id}`;
        const count = await limits.tokenRequests.take(key);
        if (count !== null) {
          reply.header('x-ratelimit-limit', String(count.limit)).header('x-ratelimit-remaining', String(count.remaining)).header('x-ratelimit-reset', String(count.resetSeconds));
        }
      } catch (error) {
        if (!(error instanceof LimitExceeded)) throw error;
        reply
          .header('x-ratelimit-limit', String(error.limit))
          .header('x-ratelimit-remaining', '0')
          .header('x-ratelimit-reset', String(error.retryAfter))
          .header('retry-after', String(error.retryAfter));
        throw rateLimited(`too many token requests for this client: at most ${error.limit} per minute; retry in ${error.retryAfter} seconds`);
      }
    },
  };
}
