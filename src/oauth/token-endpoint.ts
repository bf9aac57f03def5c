// POST /v2/auth/oauth2/token as named steps (RFC 6749 §3.2, §4.1.3, §6; docs/rules.md#token-errors).
// The HTTP layer hands in the parsed body and the Authorization header; this module
// knows no framework.
import { readClientCredentials, requireApproved, verifyClient } from './client-auth.ts';
import { proofRequiredBecause } from './client-policy.ts';
import { unlimitedRequests, type ClientRequestLimit, type FailedAuthenticationLimit, type RequestCount } from './client-limits.ts';
import type { OAuthContext } from './context.ts';
import { checkProof, singleProofHeader, spendProof, type DpopFailure } from './dpop.ts';
import { invalidRequest, OAuthError, rateLimited } from './errors.ts';
import { grantHandlers, SUPPORTED_GRANT_TYPES } from './grants/index.ts';
import type { GrantHandler } from './grants/types.ts';
import { readParams, required, type Params } from './params.ts';
import { readResourceParameter } from './resources.ts';
import type { ClientRecord } from './storage.ts';
import type { AccessTokenResponse, TokenResponse } from './token-response.ts';

export interface TokenRequestInput {
  body: unknown;
  authorization: string | undefined;
  /** RFC 9449 §5: the request's DPoP header(s), as HTTP read them; absent without one. */
  dpop?: string | string[];
  /** Failed client authentications (client-limits.ts); absent: not limited. */
  failedAuthentications?: FailedAuthenticationLimit;
  /** Requests per authenticated client (client-limits.ts); absent: not counted. */
  tokenRequests?: ClientRequestLimit;
}

/** The token response, and the client's request count for the HTTP layer to tell it. */
export interface TokenAnswer {
  body: TokenResponse | AccessTokenResponse;
  rateLimit?: RequestCount;
}

/**
 * The endpoint, step by step (HTTP parses the body and marks every answer no-store):
 * reject repeated parameters, pick the grant, authenticate the client, count its request,
 * check it is approved, hand the grant only the parameters it takes.
 */
export async function handleTokenRequest(ctx: OAuthContext, input: TokenRequestInput): Promise<TokenAnswer> {
  const params = readParams(input.body, ['resource']); // RFC 6749 §3.1: a repeated parameter is refused
  const resources = readResourceParameter(input.body); // RFC 8707 §2: resource alone may repeat
  const grant = selectGrant(params);
  const credentials = readClientCredentials(params, input.authorization);
  const client = await verifyClient(ctx, credentials, input.failedAuthentications); // §3.2.1
  const rateLimit = await countTokenRequest(client, input.tokenRequests);
  try {
    requireApproved(client); // docs/rules.md#client-states
    const dpopJkt = await proofOfPossession(ctx, client, input.dpop);
    return { body: await grant.handle(ctx, { params: parametersOf(grant, params), client, resources, dpopJkt }), rateLimit };
  } catch (error) {
    // The request was counted: its refusal tells the count as a success would.
    if (error instanceof OAuthError) error.rateLimit ??= rateLimit;
    throw error;
  }
}

/** RFC 6749 §5.2: a grant_type not in the registry is unsupported_grant_type. */
function selectGrant(params: Params): GrantHandler {
  const grantType = required(params, 'grant_type');
  const grant = grantHandlers.get(grantType);
  if (grant === undefined) {
    throw new OAuthError('unsupported_grant_type', `grant_type "${grantType}" is not supported: use ${SUPPORTED_GRANT_TYPES.join(' or ')}`);
  }
  return grant;
}

/**
 * docs/operating.md: a request counts toward the client's limit once the client has
 * authenticated, approved or not, so nobody else can spend it; past the limit, 429 with
 * `temporarily_unavailable` (RFC 6749 §5.2, RFC 6585 §4).
 */
async function countTokenRequest(client: ClientRecord, limit: ClientRequestLimit = unlimitedRequests): Promise<RequestCount | undefined> {
  const counted = await limit.count(client);
  if (!counted.allowed) {
    const exhausted = { limit: counted.limit, remaining: 0, resetSeconds: counted.retryAfter };
    throw rateLimited(`too many token requests for this client: at most ${counted.limit} per minute; retry in ${counted.retryAfter} seconds`, counted.retryAfter, exhausted);
  }
  return counted.count ?? undefined;
}

/**
 * RFC 9449 §5 (docs/rules.md#dpop): the thumbprint of the key of the request's proof, which
 * the issued tokens are bound to; null without a DPoP header, which a client registered with
 * dpop_bound_access_tokens may not omit (§5.2). The token endpoint always requires a fresh
 * nonce of ours (§8): a proof without one gets use_dpop_nonce and the nonce to use. A proof
 * is spent here, before the grant runs, so it is used once whatever the grant answers.
 */
async function proofOfPossession(ctx: OAuthContext, client: ClientRecord, header: string | string[] | undefined): Promise<string | null> {
  const proof = singleProofHeader(header);
  if (proof === undefined) {
    const why = proofRequiredBecause(client);
    if (why !== null) {
      throw invalidRequest(`this application must send a DPoP proof with every token request (${why}): add the DPoP header (RFC 9449 §4)`);
    }
    return null;
  }
  if (typeof proof !== 'string') throw dpopError(proof);
  const checked = await checkProof(proof, { method: 'POST', url: ctx.dpop.tokenEndpoint, nonceRequired: true }, ctx.clock(), ctx.dpop.nonces);
  if (!checked.ok) throw dpopError(checked);
  const replayed = await spendProof(ctx.dpop.proofs, checked);
  if (replayed !== undefined) throw dpopError(replayed);
  return checked.jkt;
}

const dpopError = (failure: DpopFailure) => new OAuthError(failure.error, failure.description);

/** RFC 6749 §3.2: parameters the grant does not take are ignored, so it never sees them. */
function parametersOf(grant: GrantHandler, params: Params): Params {
  const taken: Params = {};
  for (const name of grant.parameters) if (params[name] !== undefined) taken[name] = params[name];
  return taken;
}
