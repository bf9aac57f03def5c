// Validation of what a developer submits for a client (docs/rules.md#client-record).
import type { JSONWebKeySet } from 'jose';
import { checkPublicJwks, MAX_JWKS_LENGTH } from '../../oauth/client-assertion.ts';
import { MAX_REDIRECT_URIS, redirectUriProblem } from '../../oauth/redirect-uri.ts';
import { TOKEN_ENDPOINT_AUTH_METHODS, type ClientKind, type TokenEndpointAuthMethod } from '../../oauth/storage.ts';
import { isKnownScope, OFFLINE_ACCESS, sortScopes, unknownScopes } from '../../oauth/scopes.ts';
import { ID_TOKEN_ALGORITHMS, isIdTokenAlgorithm, type IdTokenAlgorithm } from '../../oauth/signing-keys.ts';
import { validation } from '../errors.ts';
import { refuseHiddenCharacters, uriControlProblem } from '../names.ts';

/**
 * The one check of a client's name: the developer form, the CLI, dynamic registration and
 * metadata documents all come through here.
 */
export function checkName(name: string): string {
  const trimmed = name.trim();
  refuseHiddenCharacters(trimmed);
  if (trimmed === '') throw validation('name is required', 'name');
  if (trimmed.length > 100) throw validation('name must be at most 100 characters', 'name');
  return trimmed;
}

export function checkDescription(description: string | undefined): string {
  const trimmed = (description ?? '').trim();
  if (trimmed.length > 1000) throw validation('description must be at most 1000 characters', 'description');
  return trimmed;
}

function httpUrl(value: string, field: string, httpsOnly: boolean): string {
  const control = uriControlProblem(value, field);
  if (control !== undefined) throw validation(control, field);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validation(`${field} must be an absolute URL such as https://example.com`, field);
  }
  if (httpsOnly ? url.protocol !== 'https:' : !/^https?:$/.test(url.protocol)) {
    throw validation(`${field} must use ${httpsOnly ? 'https' : 'http or https'}`, field);
  }
  if (value.length > 2000) throw validation(`${field} must be at most 2000 characters`, field);
  return value;
}

export function checkHomepage(value: string | undefined): string {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? '' : httpUrl(trimmed, 'homepage_url', false);
}

export function checkLogo(value: string | undefined): string | null {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? null : httpUrl(trimmed, 'logo_url', true);
}

export function checkRedirectUris(uris: readonly string[]): string[] {
  const list = uris.map((u) => u.trim()).filter((u) => u !== '');
  if (list.length === 0) throw validation('at least one redirect URI is required', 'redirect_uris');
  if (list.length > MAX_REDIRECT_URIS) {
    throw validation(`at most ${MAX_REDIRECT_URIS} redirect URIs per client (got ${list.length})`, 'redirect_uris');
  }
  const seen = new Set<string>();
  for (const [index, uri] of list.entries()) {
    // Before the URI is quoted in any message: the URL parser drops a newline and encodes an
    // escape, but the string kept is the one given (docs/rules.md#redirect-uris).
    const control = uriControlProblem(uri, `redirect URI ${index + 1}`);
    if (control !== undefined) throw validation(control, 'redirect_uris');
    const problem = redirectUriProblem(uri);
    if (problem) throw validation(problem, 'redirect_uris');
    if (seen.has(uri)) throw validation(`redirect URI "${uri}" is listed twice`, 'redirect_uris');
    seen.add(uri);
  }
  return list;
}

export function checkScopes(scopes: readonly string[]): string[] {
  // offline_access is no scope to register: any client may send it, and it changes nothing (oauth/scopes.ts).
  const list = scopes.flatMap((s) => s.split(/[\s,]+/)).filter((s) => s !== '' && s !== OFFLINE_ACCESS);
  if (list.length === 0) throw validation('choose at least one scope', 'scopes');
  const unknown = list.filter((s) => !isKnownScope(s));
  if (unknown.length > 0) throw validation(unknownScopes(unknown), 'scopes');
  return sortScopes(list);
}

/**
 * OpenID Connect Registration §2 id_token_signed_response_alg: one Gatehouse signs with; ''
 * is the default (null). A FAPI 2.0 client's RS256 is refused when the profile is known.
 */
export function checkIdTokenAlg(value: string, fapi2 = false): IdTokenAlgorithm | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (!isIdTokenAlgorithm(trimmed)) throw validation(`id_token_signed_response_alg must be one of ${ID_TOKEN_ALGORITHMS.join(', ')}`, 'id_token_signed_response_alg');
  if (fapi2 && trimmed === 'RS256') throw validation('a client of the FAPI 2.0 Security Profile cannot use RS256: choose PS256, ES256 or EdDSA', 'id_token_signed_response_alg');
  return trimmed;
}

/**
 * OpenID Connect RP-Initiated Logout §3.1 post_logout_redirect_uris: each a redirect URI as
 * the rules of redirect URIs have it, on the origin of one of the client's redirect URIs, so
 * that logout returns only where the application already receives its users (and nothing
 * new needs a review).
 */
export function checkPostLogoutRedirectUris(uris: readonly string[], redirectUris: readonly string[]): string[] {
  const list = uris.map((u) => u.trim()).filter((u) => u !== '');
  const field = 'post_logout_redirect_uris';
  if (list.length > MAX_REDIRECT_URIS) throw validation(`at most ${MAX_REDIRECT_URIS} post-logout redirect URIs per client (got ${list.length})`, field);
  const origins = new Set(redirectUris.map(originOf));
  const seen = new Set<string>();
  for (const [index, uri] of list.entries()) {
    const control = uriControlProblem(uri, `post-logout redirect URI ${index + 1}`);
    if (control !== undefined) throw validation(control, field);
    const problem = redirectUriProblem(uri);
    if (problem) throw validation(problem.replace(/^redirect URI/, 'post-logout redirect URI'), field);
    if (!origins.has(originOf(uri))) throw validation(`post-logout redirect URI "${uri}" must be on the origin of one of the client's redirect URIs`, field);
    if (seen.has(uri)) throw validation(`post-logout redirect URI "${uri}" is listed twice`, field);
    seen.add(uri);
  }
  return list;
}

function originOf(uri: string): string {
  try {
    const url = new URL(uri);
    // A custom scheme (a native app) has no origin: the scheme stands for it.
    return url.origin === 'null' ? `${url.protocol}` : url.origin;
  } catch {
    return 'null';
  }
}

/** docs/rules.md#fapi2: the FAPI 2.0 Security Profile supports confidential clients only (§5.3.2.1). */
export function fapi2NeedsConfidential() {
  return validation('the FAPI 2.0 Security Profile is for confidential clients: a public client cannot follow it', 'fapi2');
}

/** RFC 7591 §2 `token_endpoint_auth_method`: one Gatehouse supports. */
export function checkAuthMethod(value: string): TokenEndpointAuthMethod {
  if (!(TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(value)) {
    throw validation(`token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}`, 'token_endpoint_auth_method');
  }
  return value as TokenEndpointAuthMethod;
}

/**
 * RFC 7591 §2 `jwks` (docs/rules.md#client-authentication): a JWK Set of public keys, as JSON
 * text (the form, the CLI's file) or already parsed (registration); null removes the keys.
 */
export function checkJwks(value: unknown): JSONWebKeySet | null {
  if (value === null) return null;
  let parsed = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    if (value.length > MAX_JWKS_LENGTH) throw validation(`jwks must be at most ${MAX_JWKS_LENGTH} characters`, 'jwks');
    try {
      parsed = JSON.parse(value);
    } catch {
      throw validation('the public keys must be JSON: a JWK Set such as {"keys":[{"kty":"EC","crv":"P-256","x":"…","y":"…"}]}', 'jwks');
    }
  } else if (JSON.stringify(value).length > MAX_JWKS_LENGTH) {
    throw validation(`jwks must be at most ${MAX_JWKS_LENGTH} characters`, 'jwks');
  }
  const checked = checkPublicJwks(parsed);
  if (typeof checked === 'string') throw validation(checked, 'jwks');
  return checked;
}

/**
 * How a client authenticates, as a whole (docs/rules.md#client-authentication, docs/rules.md#fapi2):
 * none is for public clients and every other method for confidential ones; private_key_jwt
 * needs keys; the FAPI 2.0 profile needs private_key_jwt (FAPI 2.0 §5.3.2.1). Checked on the
 * client as it would be after a registration or an edit.
 */
export function checkAuthentication(c: { kind: ClientKind; tokenEndpointAuthMethod: TokenEndpointAuthMethod | null; jwks: JSONWebKeySet | null; fapi2: boolean }): void {
  const method = c.tokenEndpointAuthMethod;
  if (c.kind === 'public' && method !== null && method !== 'none') {
    throw validation(`a public client has no credentials: token_endpoint_auth_method must be none, not ${method}`, 'token_endpoint_auth_method');
  }
  if (c.kind === 'confidential' && method === 'none') {
    throw validation('a confidential client must authenticate: choose client_secret_basic, client_secret_post or private_key_jwt', 'token_endpoint_auth_method');
  }
  if (method === 'private_key_jwt' && c.jwks === null) {
    throw validation('the method private_key_jwt needs the client\'s public keys: give jwks, a JWK Set of the keys it signs with', 'jwks');
  }
  if (c.fapi2 && method !== 'private_key_jwt') {
    throw validation('the FAPI 2.0 Security Profile requires private_key_jwt client authentication: give jwks (the public keys) and token_endpoint_auth_method private_key_jwt', 'fapi2');
  }
}
