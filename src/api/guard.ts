// The one preHandler-stage check of every /v2 resource route (seed §5 rules 1, 5, 6;
// SPEC §2 item 17, §6): bearer token, scope and membership, decided by the protocol core
// from a single storage read. It runs at onRequest, so a missing or bad token is 401 before
// the body is even parsed, and a refused request costs nothing beyond that read.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authorizeApiRequest, type AccessGranted, type ApiAccessStore } from './access-check.ts';
import type { AccessDenial } from './membership.ts';
import type { ApiRoute } from './route-table.ts';
import { ApiError, sendApiError } from './envelope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the guard established: principal and the path's team/organization facts. */
    apiAccess?: AccessGranted;
  }
}

const REALM = 'Bearer realm="gatehouse"';

/** The WWW-Authenticate header of a refusal (RFC 6750 §3, §3.1), if it has one. */
function challenge(denial: AccessDenial): Record<string, string> {
  switch (denial.code) {
    case 'unauthorized':
      // RFC 6750 §3.1: no credentials, no error code.
      return { 'www-authenticate': REALM };
    case 'invalid_token':
      return { 'www-authenticate': `${REALM}, error="invalid_token"` };
    case 'insufficient_scope':
      return { 'www-authenticate': `Bearer error="insufficient_scope", scope="${denial.scope}"` };
    default:
      return {};
  }
}

/** A refusal decided inside a handler, answered exactly as the guard answers its own. */
export function accessError(denial: AccessDenial): ApiError {
  return new ApiError(denial.status, denial.code, denial.message, challenge(denial));
}

export function apiGuard(route: Pick<ApiRoute, 'scope' | 'membership'>, store: ApiAccessStore, clock: () => number) {
  return async function guard(request: FastifyRequest, reply: FastifyReply) {
    const params = request.params as { teamId?: string; orgId?: string };
    const result = await authorizeApiRequest(store, clock, route, request.headers.authorization, params);
    if ('ok' in result) {
      request.apiAccess = result;
      return undefined;
    }
    return sendApiError(reply.headers(challenge(result)), result.status, result.code, result.message);
  };
}
