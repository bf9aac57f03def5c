// The scope guard of every protected /v2 route (seed §5 rules 1 and 5, SPEC §2 item 17).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticateBearer, type AccessPrincipal } from '../oauth/bearer.ts';
import type { OAuthContext } from '../oauth/context.ts';
import { grantSatisfies } from '../oauth/scopes.ts';
import { sendApiError } from './envelope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: AccessPrincipal;
  }
}

const REALM = 'Bearer realm="gatehouse"';

/** A preHandler that admits a request only with a valid token carrying `scope`. */
export function requireScope(ctx: OAuthContext, scope: string) {
  return async function scopeGuard(request: FastifyRequest, reply: FastifyReply) {
    const result = await authenticateBearer(ctx, request.headers.authorization);
    if (!result.ok) {
      if (result.reason === 'missing') {
        // RFC 6750 §3.1: no credentials, no error code.
        reply.header('www-authenticate', REALM);
        return sendApiError(reply, 401, 'unauthorized', result.description);
      }
      reply.header('www-authenticate', `${REALM}, error="invalid_token"`);
      return sendApiError(reply, 401, 'invalid_token', result.description);
    }
    if (!grantSatisfies(result.principal.scopes, scope)) {
      reply.header('www-authenticate', `Bearer error="insufficient_scope", scope="${scope}"`);
      return sendApiError(reply, 403, 'insufficient_scope', `this endpoint needs the ${scope} scope, which the token was not granted`);
    }
    request.principal = result.principal;
    return undefined;
  };
}
