// POST /v2/auth/oauth2/token (RFC 6749 §3.2). The steps of the endpoint are the core's
// (src/oauth/token-endpoint.ts); this adapts it to HTTP.
import type { FastifyInstance } from 'fastify';
import { handleTokenRequest } from '../../oauth/token-endpoint.ts';
import type { AppContext } from '../../context.ts';
import type { RateLimits } from '../rate-limits.ts';
import { failedAuthenticationLimit, tellRequestCount, tokenRequestLimit } from './client-limits.ts';
import { TOKEN_PATH } from './paths.ts';

export function tokenRoute(app: FastifyInstance, ctx: AppContext, limits: RateLimits): void {
  app.post(TOKEN_PATH, { bodyLimit: 16 * 1024 }, async (request, reply) => {
    const dpop = request.headers.dpop;
    // RFC 9449 §8: a request with a proof hears the nonce its next proof must carry, on any
    // answer: use_dpop_nonce and every other error (the error handler keeps the header), and success.
    if (dpop !== undefined) reply.header('dpop-nonce', ctx.oauth.dpop.nonces.issue(ctx.oauth.clock()));
    const answer = await handleTokenRequest(ctx.oauth, {
      body: request.body,
      authorization: request.headers.authorization,
      dpop,
      failedAuthentications: failedAuthenticationLimit(limits, request.ip),
      tokenRequests: tokenRequestLimit(limits, request.ip),
    });
    tellRequestCount(reply, answer.rateLimit);
    return answer.body;
  });
}
