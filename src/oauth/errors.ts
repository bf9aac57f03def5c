// One OAuth error type for the whole protocol core (RFC 6749 §4.1.2.1 and §5.2).
// The description is public and names the field to fix; the cause is for the log only.
import type { RequestCount } from './client-limits.ts';

export type OAuthErrorCode =
  // RFC 6749 §5.2 (token endpoint)
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  // RFC 6749 §4.1.2.1 (authorization endpoint, redirected)
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error'
  // OpenID Connect Core §3.1.2.6: prompt=none could not be answered without a page
  // (docs/rules.md#silent-authorization).
  | 'login_required'
  | 'consent_required'
  // RFC 6749 §4.1.2.1 "temporarily unable to handle the request": 503 with Retry-After
  // when the database is unavailable; 429 with Retry-After when a rate limit applies
  // (docs/rules.md#rate-limits, `rateLimited`).
  | 'temporarily_unavailable'
  // RFC 8707 §2: a resource indicator names no resource of this server, or one the
  // grant does not cover (docs/rules.md#resource-indicators).
  | 'invalid_target'
  // RFC 7591 §3.2.2: dynamic client registration (docs/rules.md#dynamic-registration).
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  // RFC 9449 §5, §8 (docs/rules.md#dpop): a DPoP proof that fails its checks; a proof without
  // the server's fresh nonce, answered with one in DPoP-Nonce.
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce';

const statusOf: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  access_denied: 400,
  unsupported_response_type: 400,
  server_error: 500,
  login_required: 400,
  consent_required: 400,
  temporarily_unavailable: 503,
  invalid_target: 400,
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  invalid_dpop_proof: 400,
  use_dpop_nonce: 400,
};

export class OAuthError extends Error {
  readonly status: number;
  /** Set when the client authenticated with HTTP Basic: RFC 6749 §5.2 wants a challenge back. */
  basicChallenge = false;
  /** Past a rate limit: the seconds before trying again is any use (Retry-After, RFC 9110 §10.2.3). */
  retryAfter?: number;
  /** The client's request limit as this request left it (client-limits.ts), on any answer to a counted request. */
  rateLimit?: RequestCount;

  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    /** Private detail for the log; never sent to the caller. */
    readonly internalCause?: string,
    status: number = statusOf[code],
  ) {
    super(`${code}: ${description}`);
    this.name = 'OAuthError';
    this.status = status;
  }

  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

export const invalidRequest = (d: string) => new OAuthError('invalid_request', d);
export const invalidClient = (d: string, cause?: string) => new OAuthError('invalid_client', d, cause);
export const invalidGrant = (d: string, cause?: string) => new OAuthError('invalid_grant', d, cause);
export const invalidScope = (d: string) => new OAuthError('invalid_scope', d);
/** docs/rules.md#rate-limits: past a rate limit, 429 (RFC 6585 §4) with the RFC 6749 code for "try later". */
export function rateLimited(d: string, retryAfter: number, rateLimit?: RequestCount): OAuthError {
  const error = new OAuthError('temporarily_unavailable', d, undefined, 429);
  error.retryAfter = retryAfter;
  error.rateLimit = rateLimit;
  return error;
}
export const unauthorizedClient = (d: string) => new OAuthError('unauthorized_client', d);
