// One OAuth error type for the whole protocol core (RFC 6749 §4.1.2.1 and §5.2).
// The description is public and names the field to fix; the cause is for the log only.

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
  // (SPEC §2 item 25).
  | 'login_required'
  | 'consent_required'
  // RFC 6749 §4.1.2.1 "temporarily unable to handle the request": sent with 429 and
  // Retry-After when a rate limit applies (SPEC §2 item 18).
  | 'temporarily_unavailable';

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
  temporarily_unavailable: 429,
};

export class OAuthError extends Error {
  readonly status: number;
  /** Set when the client authenticated with HTTP Basic: RFC 6749 §5.2 wants a challenge back. */
  basicChallenge = false;

  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    /** Private detail for the log; never sent to the caller. */
    readonly internalCause?: string,
  ) {
    super(`${code}: ${description}`);
    this.name = 'OAuthError';
    this.status = statusOf[code];
  }

  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

export const invalidRequest = (d: string) => new OAuthError('invalid_request', d);
export const invalidClient = (d: string, cause?: string) => new OAuthError('invalid_client', d, cause);
export const invalidGrant = (d: string, cause?: string) => new OAuthError('invalid_grant', d, cause);
export const invalidScope = (d: string) => new OAuthError('invalid_scope', d);
export const unauthorizedClient = (d: string) => new OAuthError('unauthorized_client', d);
