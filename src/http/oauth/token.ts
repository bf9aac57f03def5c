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
    const answer = await handleTokenRequest(ctx.oauth, {
      body: request.body,
      authorization: request.headers.authorization,
      failedAuthentications: failedAuthenticationLimit(limits, request.ip),
      tokenRequests: tokenRequestLimit(limits, request.ip),
    });
    tellRequestCount(reply, answer.rateLimit);
    return answer.body;
  });
}
