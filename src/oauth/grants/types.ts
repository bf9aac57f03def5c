// The shape every grant handler shares (ARCHITECTURE.md#one-module-per-grant).
import type { OAuthContext } from '../context.ts';
import type { Params } from '../params.ts';
import type { ClientRecord } from '../storage.ts';
import type { AccessTokenResponse, TokenResponse } from '../token-response.ts';

export interface GrantRequest {
  /** Only the parameters the grant declared in `parameters`. */
  params: Params;
  /** The authenticated, approved client. */
  client: ClientRecord;
  /** RFC 8707 §2.2: the resources the access token should be bound to; empty when none was sent. */
  resources: readonly string[];
  /** RFC 9449 §5: the thumbprint of the key of the request's verified DPoP proof; null without one. */
  dpopJkt: string | null;
}

export interface GrantHandler {
  grantType: string;
  /**
   * Parameters this grant takes: the token endpoint hands it these and no others, so the
   * rest of the request is ignored (RFC 6749 §3.2).
   */
  parameters: readonly string[];
  handle(ctx: OAuthContext, request: GrantRequest): Promise<TokenResponse | AccessTokenResponse>;
}
