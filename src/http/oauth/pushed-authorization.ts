// POST /v2/auth/oauth2/par (RFC 9126 §2). The steps are the core's
// (src/oauth/pushed-authorization.ts); this adapts them to HTTP.
import type { FastifyInstance } from 'fastify';
import { handlePushedAuthorizationRequest } from '../../oauth/pushed-authorization.ts';
import type { AppContext } from '../../context.ts';
import type { RateLimits } from '../rate-limits.ts';
import { failedAuthenticationLimit } from './client-limits.ts';
import { PAR_PATH } from './paths.ts';

export function pushedAuthorizationRoute(app: FastifyInstance, ctx: AppContext, limits: RateLimits): void {
  // §2.2: 201 Created; the scope marks it no-store (oauth/index.ts).
  app.post(PAR_PATH, { bodyLimit: 16 * 1024 }, async (request, reply) => {
    const answer = await handlePushedAuthorizationRequest(ctx.oauth, {
      body: request.body,
      authorization: request.headers.authorization,
      failedAuthentications: failedAuthenticationLimit(limits, request.ip),
    });
    return reply.status(201).send(answer);
  });
}
