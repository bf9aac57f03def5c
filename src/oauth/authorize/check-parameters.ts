// Steps 4–10 of an authorization request, once the redirect URI is trusted: an OAuthError
// here goes back to the application (RFC 6749 §4.1.2.1), or is held back on a page
// (SECURITY.md, error-answers.ts: answerError).
import { pkceRequiredOf } from '../client-policy.ts';
import type { OAuthContext } from '../context.ts';
import { invalidRequest, OAuthError } from '../errors.ts';
import { readCodeChallenge } from '../pkce.ts';
import { checkResources, readResourceParameter } from '../resources.ts';
import { formatScopes, parseScopeParameter } from '../scopes.ts';
import type { ClientRecord } from '../storage.ts';
import type { SafeToRedirect } from './check-client.ts';
import { isSelfRegistered } from './error-answers.ts';
import { authorizationParameters, single, type AuthorizationRequest, type PromptValue, type RawParameters } from './request.ts';
import { readTeamSlug, teamScopesOf } from './team.ts';

const promptValues: readonly string[] = ['none', 'login', 'consent'] satisfies PromptValue[];

/** `state` to echo back in a redirect (RFC 6749 §4.1.2.1); a repeated one is not echoed. */
export function readState(raw: RawParameters): string | undefined {
  const stateValue = single(raw, 'state');
  return stateValue === 'repeated' ? undefined : stateValue;
}

/** The parameters read, each at most once (RFC 6749 §3.1: none may be included more than once). */
function readParameters(raw: RawParameters, clientId: string, redirectUri: string): Record<string, string> {
  const params: Record<string, string> = { client_id: clientId, redirect_uri: redirectUri };
  for (const name of authorizationParameters) {
    const value = single(raw, name);
    if (value === 'repeated') throw invalidRequest(`${name} was sent more than once`);
    if (value !== undefined) params[name] = value;
  }
  return params;
}

/** Step 4, response_type: only code (RFC 6749 §3.1.1, §4.1.2.1 unsupported_response_type). */
function checkResponseType(params: Record<string, string>): void {
  const responseType = params.response_type;
  if (responseType !== undefined && responseType !== 'code') {
    throw new OAuthError('unsupported_response_type', `response_type "${responseType}" is not supported: use code`);
  }
}

/**
 * Step 5, scope (RFC 6749 §3.3, §4.1.2.1 invalid_scope). docs/rules.md#authorization-request: scope is required and
 * must be a subset of the client's enabled scopes. docs/rules.md#legacy-clients: a legacy client's scope
 * parameter is ignored (scopes null).
 *
 * RFC 6749 §3.3: a request that omits scope is either given a pre-defined default or failed
 * "indicating an invalid scope". A developer's client has no default (it registered scopes to
 * choose from, not a set to be granted unasked), so it fails with invalid_scope, naming the
 * scopes it may ask for.
 *
 * docs/rules.md#agent-clients: a self-registered client (a metadata document, RFC 7591) may leave scope out,
 * as MCP clients do when the resource names none, and gets the RFC 6749 §3.3 default: the
 * scopes its door allows. That is the client's own scopes: a document client's are
 * CIMD_SCOPES as set now (metadata-documents.ts keeps them so); one registered under
 * DCR_POLICY=open holds what it registered within DCR_SCOPES (DCR_SCOPES when it asked for
 * none); under DCR_POLICY=review, what it registered and an admin approved.
 */
function checkScope(client: ClientRecord, params: Record<string, string>, selfRegistered: boolean): string[] | null {
  if (client.scopes === null) return null;
  if (params.scope === undefined && selfRegistered) return [...client.scopes];
  if (params.scope === undefined) {
    throw new OAuthError('invalid_scope', `scope is required: send scope with the scopes the application needs, separated by spaces, among those enabled for it: ${formatScopes(client.scopes)}`);
  }
  const scopes = parseScopeParameter(params.scope);
  const enabled = new Set(client.scopes);
  const outside = scopes.filter((s) => !enabled.has(s));
  if (outside.length > 0) {
    throw new OAuthError('invalid_scope', `scope not enabled for this application: ${outside.join(', ')}`);
  }
  return scopes;
}

/**
 * Step 6, PKCE (RFC 7636 §4.3, RFC 9700 §2.1.1): S256, required of a public client, and of a
 * client of the FAPI 2.0 profile (docs/rules.md#fapi2), confidential as it is.
 */
function checkPkce(client: ClientRecord, params: Record<string, string>): string | null {
  const requiredOf = pkceRequiredOf(client);
  return readCodeChallenge(params.code_challenge, params.code_challenge_method, requiredOf !== null, requiredOf ?? undefined);
}

/** Step 7, prompt (OpenID Connect Core §3.1.2.1): a space-delimited list; none stands alone. */
function readPrompt(value: string | undefined): Set<PromptValue> {
  const values = new Set((value ?? '').split(' ').filter((v) => v !== ''));
  for (const v of values) {
    if (!promptValues.includes(v)) throw invalidRequest(`prompt value "${v}" is not supported: use none, login or consent`);
  }
  if (values.has('none') && values.size > 1) throw invalidRequest('prompt=none cannot be combined with other values: it asks for no page at all');
  return values as Set<PromptValue>;
}

/** Step 9, dpop_jkt (RFC 9449 §10): a SHA-256 JWK thumbprint is 43 base64url characters. */
function readDpopJkt(value: string | undefined): string | null {
  if (value !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(value)) {
    throw invalidRequest('dpop_jkt must be the base64url SHA-256 JWK thumbprint (RFC 7638) of the DPoP key: 43 characters');
  }
  return value ?? null;
}

/** OpenID Connect Core §3.1.2.1 nonce: carried into the ID token as sent; bounded, as every value kept is. */
export const MAX_NONCE_LENGTH = 512;

function readNonce(value: string | undefined): string | null {
  if (value !== undefined && value.length > MAX_NONCE_LENGTH) throw invalidRequest(`nonce is longer than ${MAX_NONCE_LENGTH} characters`);
  return value ?? null;
}

/** OpenID Connect Core §3.1.2.1 max_age: a whole number of seconds, 0 or more. */
function readMaxAge(value: string | undefined): number | null {
  if (value === undefined) return null;
  if (!/^\d{1,10}$/.test(value)) throw invalidRequest('max_age must be a whole number of seconds, 0 or more');
  return Number(value);
}

/** Steps 4 onwards, once the redirect URI is trusted: the request, or an OAuthError for the application. */
export async function checkParameters(ctx: OAuthContext, trusted: SafeToRedirect): Promise<AuthorizationRequest> {
  const { clientId, client, redirectUri, raw } = trusted;
  const state = readState(raw);
  const params = readParameters(raw, clientId, redirectUri);
  // Asked only when it matters: a request without scope (SECURITY.md).
  const selfRegistered = params.scope === undefined && (await isSelfRegistered(ctx, client));
  checkResponseType(params);
  const hadScope = params.scope !== undefined;
  const scopes = checkScope(client, params, selfRegistered);
  const codeChallenge = checkPkce(client, params);
  // Step 7, prompt (docs/rules.md#silent-authorization).
  const prompt = readPrompt(params.prompt);
  // Step 8, resource (RFC 8707 §2, docs/rules.md#resource-indicators): repeatable, each one of ours.
  const resources = checkResources(ctx.resources, readResourceParameter(raw));
  const dpopJkt = readDpopJkt(params.dpop_jkt);
  // Step 10, team_slug (docs/rules.md#team-authorization).
  const teamSlug = readTeamSlug(params.team_slug);
  const granted = teamSlug === null ? scopes : teamScopesOf(scopes);
  // Step 11, OpenID Connect Core §3.1.2.1: nonce and max_age.
  const nonce = readNonce(params.nonce);
  const maxAge = readMaxAge(params.max_age);
  return { client, redirectUri, state, scopes: granted, hadScope, codeChallenge, prompt, resources, dpopJkt, teamSlug, nonce, maxAge, params };
}
