// The one preHandler-stage check of every /v2 resource route (docs/rules.md#api-envelope, docs/rules.md#scope-checks, docs/rules.md#public-booking;
// docs/rules.md#membership-rules): bearer token, scope and membership, decided by the protocol core
// from a single storage read. It runs at onRequest, so a missing or bad token is 401 before
// the body is even parsed, and a refused request costs nothing beyond that read.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformDeps } from './deps.ts';
import { type API_RESOURCE_PATH, type Audience, DPOP_ALGORITHMS, failure, type MCP_PATH, Refusal, resourceMetadataUrl } from './authorization-server.ts';
import { authorizeApiRequest, type AccessGranted, type ApiAccessStore, type PresentedCredentials } from './access-check.ts';
import type { AccessDenial } from './membership.ts';
import type { ApiRoute } from './route-table.ts';
import { sendFailure } from './envelope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the guard established: principal and the path's team/organization facts. */
    apiAccess?: AccessGranted;
  }
}

const REALM = 'Bearer realm="gatehouse"';

/** A protected resource as its guard sees it: what tokens must be bound to, and where it is described. */
export interface GuardedResource extends Audience {
  /** RFC 9728 §5.1: named in every 401's challenge so a client can discover how to get a token. */
  metadataUrl: string;
  /** BASE_URL: a DPoP proof's htu is it and the request's path (RFC 9449 §4.3 point 9). */
  baseUrl: string;
}

const presented = new WeakMap<FastifyRequest, PresentedCredentials>();

/**
 * The request's credentials, one object per request, so that its DPoP proof is checked and
 * spent once however many access checks the request runs (access-check.ts: PresentedCredentials).
 */
export function credentialsOf(request: FastifyRequest, resource: Pick<GuardedResource, 'baseUrl'>): PresentedCredentials {
  let credentials = presented.get(request);
  if (credentials === undefined) {
    const path = request.url.split('?', 1)[0]!;
    credentials = { authorization: request.headers.authorization, proof: { header: request.headers.dpop, method: request.method, url: `${resource.baseUrl}${path}` } };
    presented.set(request, credentials);
  }
  return credentials;
}

/** One of the platform's protected resources (docs/rules.md#resource-indicators, docs/rules.md#protected-resource-metadata): the /v2 API or the MCP server, by its path. */
export function guardedResource(ctx: PlatformDeps, resourcePath: typeof API_RESOURCE_PATH | typeof MCP_PATH): GuardedResource {
  return {
    ...ctx.tokens,
    resource: `${ctx.config.baseUrl}${resourcePath}`,
    metadataUrl: resourceMetadataUrl(ctx.config.baseUrl, resourcePath),
    baseUrl: ctx.config.baseUrl,
  };
}

/**
 * The WWW-Authenticate header of a refusal (RFC 6750 §3, §3.1), if it has one. A 401 also
 * names the resource's metadata (RFC 9728 §5.1, docs/rules.md#protected-resource-metadata) and, when `scopeHint` is given,
 * the scopes a client should ask for (RFC 6750 §3 `scope`; the MCP authorization
 * specification's scope selection reads it first).
 */
export function challenge(denial: AccessDenial, metadataUrl: string, scopeHint?: readonly string[]): Record<string, string> {
  const metadata = `resource_metadata="${metadataUrl}"${scopeHint === undefined || scopeHint.length === 0 ? '' : `, scope="${scopeHint.join(' ')}"`}`;
  switch (denial.code) {
    case 'unauthorized':
      // RFC 6750 §3.1: no credentials, no error code. RFC 9449 §7.1: the resource takes DPoP
      // tokens too, so a second challenge names the algorithms its proofs may use.
      return { 'www-authenticate': `${REALM}, ${metadata}, DPoP algs="${DPOP_ALGORITHMS.join(' ')}"` };
    case 'invalid_token':
      // RFC 9449 §7.1: a DPoP token's refusal is a DPoP challenge naming the algorithms, with
      // the nonce a new proof must carry when that is the reason (§9).
      if (denial.dpop !== undefined) {
        const dpop = { 'www-authenticate': `DPoP error="${denial.dpop.error}", algs="${DPOP_ALGORITHMS.join(' ')}", ${metadata}` };
        return denial.dpop.nonce === undefined ? dpop : { ...dpop, 'dpop-nonce': denial.dpop.nonce };
      }
      return { 'www-authenticate': `${REALM}, error="invalid_token", ${metadata}` };
    case 'insufficient_scope':
      return { 'www-authenticate': `Bearer error="insufficient_scope", scope="${denial.scope}"` };
    default:
      return {};
  }
}

/** A refusal decided inside a handler, answered exactly as the guard answers its own. */
export function accessError(denial: AccessDenial, resource: GuardedResource): Refusal {
  return new Refusal(denial.code, denial.message, challenge(denial, resource.metadataUrl));
}

export function apiGuard(route: Pick<ApiRoute, 'scope' | 'membership' | 'alsoNeeds' | 'teamTokens'>, store: ApiAccessStore, clock: () => number, resource: GuardedResource) {
  return async function guard(request: FastifyRequest, reply: FastifyReply) {
    const params = request.params as { teamId?: string; orgId?: string };
    const result = await authorizeApiRequest(store, clock, route, credentialsOf(request, resource), params, resource);
    if ('ok' in result) {
      request.apiAccess = result;
      return undefined;
    }
    return sendFailure(reply, failure(result.code, result.message, { headers: challenge(result, resource.metadataUrl) }));
  };
}
