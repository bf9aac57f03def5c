// POST /v2/auth/oauth2/token as named steps (RFC 6749 §3.2, §4.1.3, §6; SPEC §2 item 6).
// The HTTP layer hands in the parsed body and the Authorization header; this module
// knows no framework.
import { authenticateClient, readClientCredentials, type ClientAuthLimits } from './client-auth.ts';
import type { OAuthContext } from './context.ts';
import { OAuthError } from './errors.ts';
import { grantHandlers } from './grants/index.ts';
import { readParams, required } from './params.ts';
import type { TokenResponse } from './token-response.ts';

export interface TokenRequestInput {
  body: unknown;
  authorization: string | undefined;
  /** SPEC §2 item 18: the limits of the HTTP layer around client authentication. */
  limits?: ClientAuthLimits;
}

export async function handleTokenRequest(ctx: OAuthContext, input: TokenRequestInput): Promise<TokenResponse> {
  const params = readParams(input.body); // rejects repeated parameters (§3.1)
  const grantType = required(params, 'grant_type');
  const handler = grantHandlers.get(grantType);
  if (handler === undefined) {
    throw new OAuthError(
      'unsupported_grant_type',
      `grant_type "${grantType}" is not supported: use authorization_code or refresh_token`,
    );
  }
  const credentials = readClientCredentials(params, input.authorization);
  const client = await authenticateClient(ctx, credentials, input.limits); // §3.2.1, then approval (SPEC §2 item 1)
  return handler.handle(ctx, { params, client });
}
