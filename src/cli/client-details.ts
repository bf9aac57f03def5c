// What the CLI prints of a client's live configuration, written once for `clients show`
// (clients.ts), `clients update` (client-update.ts) and the review decisions (client-review.ts),
// so that every command states a setting in the same words.
import { formatScopes } from '../oauth/scopes.ts';
import type { ClientView } from '../services/clients/view.ts';

type Live = Pick<ClientView, 'legacy' | 'redirectUris' | 'scopes'>;
type Protocol = Pick<ClientView, 'kind' | 'dpopBoundAccessTokens' | 'fapi2' | 'tokenEndpointAuthMethod' | 'jwks' | 'idTokenSignedResponseAlg' | 'postLogoutRedirectUris'>;

/** The client's scopes; a legacy client has none enforced (docs/rules.md#legacy-clients). */
export function scopesOf(c: Live): string {
  return c.legacy ? '(legacy client: no scope enforcement)' : formatScopes(c.scopes);
}

/** What is live while a change waits for review (docs/rules.md#client-changes): its redirect URIs, then its scopes. */
export function liveLines(c: Live): string[] {
  return [`live redirect URIs: ${c.redirectUris.join(', ')}`, `live scopes: ${scopesOf(c)}`];
}

/** How the client authenticates (docs/rules.md#client-authentication). */
export function describeAuthentication(c: Pick<ClientView, 'kind' | 'tokenEndpointAuthMethod' | 'jwks'>): string {
  const method = c.tokenEndpointAuthMethod ?? (c.kind === 'public' ? 'none' : 'client_secret_basic');
  return c.jwks === null ? method : `${method} (${c.jwks.keys.length} public key${c.jwks.keys.length === 1 ? '' : 's'} registered)`;
}

/** DPoP (docs/rules.md#dpop), FAPI 2.0 (docs/rules.md#fapi2) and the authentication method, one line each. */
export function protocolLines(c: Protocol): string[] {
  return [
    `DPoP:          ${c.dpopBoundAccessTokens ? 'required on every token request' : 'optional'}`,
    `FAPI 2.0:      ${c.fapi2 ? 'follows the Security Profile (PAR, PKCE S256, DPoP and private_key_jwt required)' : 'no'}`,
    `authentication: ${describeAuthentication(c)}`,
    `ID tokens:     ${c.idTokenSignedResponseAlg ?? 'default algorithm'}${c.postLogoutRedirectUris.length > 0 ? `; logout returns to ${c.postLogoutRedirectUris.join(', ')}` : ''}`,
  ];
}
