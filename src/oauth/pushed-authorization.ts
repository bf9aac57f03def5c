// POST /v2/auth/oauth2/par — RFC 9126 pushed authorization requests, as named steps. The
// client authenticates as at the token endpoint (§2: the same methods), the parameters are
// checked by the authorization endpoint's own steps (authorize/validate.ts), and the answer is a
// one-time reference to them (§2.2). docs/rules.md#pushed-authorization.
import { randomBytes } from 'node:crypto';
import { REQUEST_URI_PREFIX, validatePushedParameters } from './authorize/index.ts';
import { readClientCredentials, requireApproved, verifyClient } from './client-auth.ts';
import type { FailedAuthenticationLimit } from './client-limits.ts';
import type { OAuthContext } from './context.ts';
import { invalidRequest } from './errors.ts';
import { readParams } from './params.ts';
import { hashToken } from './token-format.ts';

/** RFC 9126 §2.2: a short life; the example's 60 seconds. */
export const PUSHED_REQUEST_LIFETIME_SECONDS = 60;

export interface PushedAuthorizationInput {
  body: unknown;
  authorization: string | undefined;
  /** Failed client authentications (client-limits.ts), shared with the token endpoint; absent: not limited. */
  failedAuthentications?: FailedAuthenticationLimit;
}

/** RFC 9126 §2.2: the 201 answer. */
export interface PushedAuthorizationResponse {
  request_uri: string;
  expires_in: number;
}

/**
 * The endpoint, step by step: refuse repeated parameters, authenticate the client (§2),
 * check it is approved, refuse a request_uri (§2.1), check the parameters as the
 * authorization endpoint would, store them under the reference's hash.
 */
export async function handlePushedAuthorizationRequest(ctx: OAuthContext, input: PushedAuthorizationInput): Promise<PushedAuthorizationResponse> {
  const params = readParams(input.body, ['resource']); // RFC 6749 §3.1: a repeated parameter is refused
  const client = requireApproved(await verifyClient(ctx, readClientCredentials(params, input.authorization), input.failedAuthentications));
  // §2.1: a pushed request cannot itself point at another one.
  if (params.request_uri !== undefined) throw invalidRequest('request_uri must not be sent to the pushed authorization request endpoint: push the parameters themselves');
  const raw: Record<string, unknown> = { ...(input.body as Record<string, unknown>), client_id: client.id };
  const checked = await validatePushedParameters(ctx, raw);
  // §2.3: the authorization endpoint's errors, as JSON; a page's refusal (unknown redirect
  // URI, say) is invalid_request with the same words.
  if (checked.kind !== 'valid') throw checked.kind === 'error_page' ? invalidRequest(checked.error.description) : checked.error;
  const { request } = checked;
  const now = ctx.clock();
  // §2.2, §7.1: the reference is a bearer secret that cannot be guessed; only its hash is kept.
  const requestUri = `${REQUEST_URI_PREFIX}${randomBytes(32).toString('base64url')}`;
  await ctx.store.createPushedRequest({
    hash: hashToken(requestUri),
    clientId: client.id,
    parameters: request.params,
    resources: request.resources,
    createdAt: now,
    expiresAt: now + PUSHED_REQUEST_LIFETIME_SECONDS * 1000,
    consumedAt: null,
  });
  return { request_uri: requestUri, expires_in: PUSHED_REQUEST_LIFETIME_SECONDS };
}
