// POST /v2/auth/oauth2/revoke (RFC 7009).
import type { FastifyInstance } from 'fastify';
import { handleRevocation } from '../../oauth/revocation.ts';
import type { AppContext } from '../../context.ts';
import type { RateLimits } from '../rate-limits.ts';
import { failedAuthenticationLimit } from './client-limits.ts';
import { REVOKE_PATH } from './paths.ts';

export function revocationRoute(app: FastifyInstance, ctx: AppContext, limits: RateLimits): void {
  // RFC 7009 §2.2: 200 whether or not the token was known; the body is ignored by the
  // client. It is an empty JSON object rather than nothing, because common clients
  // (simple-oauth2 among them) refuse any answer that is not JSON.
  app.post(REVOKE_PATH, { bodyLimit: 16 * 1024 }, async (request, reply) => {
    await handleRevocation(ctx.oauth, { body: request.body, authorization: request.headers.authorization, failedAuthentications: failedAuthenticationLimit(limits, request.ip) });
    return reply.status(200).send({});
  });
}
