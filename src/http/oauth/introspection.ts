// POST /v2/auth/oauth2/introspect (RFC 7662).
import type { FastifyInstance } from 'fastify';
import { handleIntrospection } from '../../oauth/introspection.ts';
import type { AppContext } from '../../context.ts';
import type { RateLimits } from '../rate-limits.ts';
import { failedAuthenticationLimit } from './client-limits.ts';
import { INTROSPECT_PATH } from './paths.ts';

export function introspectionRoute(app: FastifyInstance, ctx: AppContext, limits: RateLimits): void {
  app.post(INTROSPECT_PATH, { bodyLimit: 16 * 1024 }, (request) =>
    handleIntrospection(ctx.oauth, {
      body: request.body,
      authorization: request.headers.authorization,
      failedAuthentications: failedAuthenticationLimit(limits, request.ip),
    }),
  );
}
