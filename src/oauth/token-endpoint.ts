// POST /v2/auth/oauth2/token as named steps (RFC 6749 §3.2, §4.1.3, §6; SPEC §2 item 6).
// The HTTP layer hands in the parsed body and the Authorization header; this module
// knows no framework.
import { authenticateClient, readClientCredentials, type ClientAuthLimits } from './client-auth.ts';
import type { OAuthContext } from './context.ts';
import { OAuthError } from './errors.ts';
import { grantHandlers } from './grants/index.ts';
import type { GrantHandler } from './grants/types.ts';
import { readParams, required, type Params } from './params.ts';
import { readResourceParameter } from './resources.ts';
import type { TokenResponse } from './token-response.ts';

export interface TokenRequestInput {
  body: unknown;
  authorization: string | undefined;
  /** SPEC §2 item 18: the limits of the HTTP layer around client authentication. */
  limits?: ClientAuthLimits;
}

/**
 * The endpoint, step by step (HTTP parses the body and marks every answer no-store):
 * reject repeated parameters, pick the grant, authenticate the client, hand the grant only
 * the parameters it takes.
 */
export async function handleTokenRequest(ctx: OAuthContext, input: TokenRequestInput): Promise<TokenResponse> {
  const params = readParams(input.body, ['resource']); // RFC 6749 §3.1: a repeated parameter is refused
  const resources = readResourceParameter(input.body); // RFC 8707 §2: resource alone may repeat
  const grant = selectGrant(params);
  const credentials = readClientCredentials(params, input.authorization);
  const client = await authenticateClient(ctx, credentials, input.limits); // §3.2.1, then approval (SPEC §2 item 1)
  return grant.handle(ctx, { params: parametersOf(grant, params), client, resources });
}

/** RFC 6749 §5.2: a grant_type not in the registry is unsupported_grant_type. */
function selectGrant(params: Params): GrantHandler {
  const grantType = required(params, 'grant_type');
  const grant = grantHandlers.get(grantType);
  if (grant === undefined) {
    throw new OAuthError('unsupported_grant_type', `grant_type "${grantType}" is not supported: use authorization_code or refresh_token`);
  }
  return grant;
}

/** RFC 6749 §3.2: parameters the grant does not take are ignored, so it never sees them. */
function parametersOf(grant: GrantHandler, params: Params): Params {
  const taken: Params = {};
  for (const name of grant.parameters) if (params[name] !== undefined) taken[name] = params[name];
  return taken;
}
