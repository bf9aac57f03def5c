// The authorization endpoint's protocol logic (RFC 6749 §4.1.1–§4.1.2, SPEC §2 items 5,
// 11, 12, 13, 14). Checks run in the order SPEC §2 item 12 fixes: first what makes a
// redirect unsafe (client, redirect URI, approval) — shown as a page, never redirected —
// then what may be redirected back to the client.
import type { OAuthContext } from './context.ts';
import { invalidRequest, OAuthError } from './errors.ts';
import { readCodeChallenge } from './pkce.ts';
import { buildRedirect, isRegisteredRedirectUri } from './redirect-uri.ts';
import { parseScopeParameter, sortScopes } from './scopes.ts';
import type { ClientRecord, OAuthStore } from './storage.ts';
import { generateToken, hashToken, randomId } from './token-format.ts';

/** The parameters the authorization endpoint reads; others are ignored (RFC 6749 §3.1). */
export const authorizationParameters = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'prompt',
] as const;

export interface AuthorizationRequest {
  client: ClientRecord;
  redirectUri: string;
  state: string | undefined;
  /** Requested scopes in registry order; null for a legacy client (scope ignored). */
  scopes: string[] | null;
  /** Whether the request carried `scope` at all (for the legacy-migration warning). */
  hadScope: boolean;
  codeChallenge: string | null;
  forceConsent: boolean;
  /** The validated parameters, to carry through login and the consent form. */
  params: Record<string, string>;
}

export type AuthorizationValidation =
  | { kind: 'fatal'; error: OAuthError }
  | { kind: 'redirect'; location: string; error: OAuthError }
  | { kind: 'valid'; request: AuthorizationRequest };

type RawQuery = Record<string, unknown>;

function single(raw: RawQuery, name: string): string | undefined | 'repeated' {
  const value = raw[name];
  if (Array.isArray(value)) return 'repeated';
  if (typeof value !== 'string' || value === '') return undefined;
  return value;
}

export async function validateAuthorizationRequest(
  ctx: OAuthContext,
  raw: RawQuery,
): Promise<AuthorizationValidation> {
  // 1. Client. Without a trustworthy client and redirect URI nothing may be redirected.
  const clientId = single(raw, 'client_id');
  if (clientId === 'repeated') return fatal('client_id was sent more than once');
  if (clientId === undefined) return fatal('client_id is missing: the application must say who it is');
  if (clientId.length > 200) return fatal('client_id is not a known application');
  const client = await ctx.store.findClient(clientId);
  if (client === undefined) return fatal(`client_id "${clientId}" is not a known application`);

  // 2. Redirect URI: exact match with a registered one (seed §4.1, RFC 9700 §2.1).
  const redirectUri = single(raw, 'redirect_uri');
  if (redirectUri === 'repeated') return fatal('redirect_uri was sent more than once');
  if (redirectUri === undefined) return fatal('redirect_uri is missing: it must equal one of the registered redirect URIs');
  if (!isRegisteredRedirectUri(client.redirectUris, redirectUri)) {
    return fatal(`redirect_uri "${redirectUri}" is not registered for this application`);
  }

  // 3. Approval (seed §3: a pending client cannot be used; SPEC §2 item 1).
  if (client.state !== 'approved') {
    return fatal(`this application is ${client.state} and cannot be authorized until a platform admin approves it`);
  }

  // From here on errors go back to the application with state and iss (RFC 9207).
  const stateValue = single(raw, 'state');
  const state = stateValue === 'repeated' ? undefined : stateValue;
  const back = (error: OAuthError): AuthorizationValidation => ({
    kind: 'redirect',
    error,
    location: errorRedirect(ctx, redirectUri, error, state),
  });
  try {
    const params: Record<string, string> = { client_id: clientId, redirect_uri: redirectUri };
    for (const name of authorizationParameters) {
      const value = single(raw, name);
      if (value === 'repeated') throw invalidRequest(`${name} was sent more than once`);
      if (value !== undefined) params[name] = value;
    }
    const responseType = params.response_type;
    if (responseType !== undefined && responseType !== 'code') {
      throw new OAuthError('unsupported_response_type', `response_type "${responseType}" is not supported: use code`);
    }
    let scopes: string[] | null = null;
    const hadScope = params.scope !== undefined;
    if (client.scopes !== null) {
      // Seed §4.1: scope is required and must be a subset of the client's enabled scopes.
      if (params.scope === undefined) throw invalidRequest('scope is required: name the scopes the application needs');
      scopes = parseScopeParameter(params.scope);
      const enabled = new Set(client.scopes);
      const outside = scopes.filter((s) => !enabled.has(s));
      if (outside.length > 0) {
        throw new OAuthError('invalid_scope', `scope not enabled for this application: ${outside.join(', ')}`);
      }
    }
    // SPEC §2 item 14: a legacy client's scope parameter is ignored.
    const codeChallenge = readCodeChallenge(params.code_challenge, params.code_challenge_method, client.kind === 'public');
    return {
      kind: 'valid',
      request: {
        client,
        redirectUri,
        state,
        scopes,
        hadScope,
        codeChallenge,
        forceConsent: (params.prompt ?? '').split(' ').includes('consent'),
        params,
      },
    };
  } catch (error) {
    if (error instanceof OAuthError) return back(error);
    throw error;
  }
}

function fatal(description: string): AuthorizationValidation {
  return { kind: 'fatal', error: invalidRequest(description) };
}

export function errorRedirect(ctx: OAuthContext, redirectUri: string, error: OAuthError, state: string | undefined): string {
  return buildRedirect(redirectUri, {
    error: error.code,
    error_description: error.description,
    state,
    iss: ctx.issuer,
  });
}

/**
 * SPEC §2 item 13: a user who already granted this client every requested scope is not
 * asked again (unless prompt=consent). For a legacy client, any active legacy grant counts.
 */
export async function hasCoveringConsent(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<boolean> {
  if (request.forceConsent) return false;
  const grants = await ctx.store.listActiveGrants(userId, request.client.id);
  if (request.scopes === null) return grants.some((g) => g.scopes === null);
  // Scopes approved across separate authorizations count together.
  const granted = new Set(grants.flatMap((g) => g.scopes ?? []));
  return request.scopes.every((s) => granted.has(s));
}

/** Records what a logged-in user was asked (SPEC §5 authorization_requests). */
export async function recordAuthorizationRequest(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<void> {
  await ctx.store.recordAuthorizationRequest(request.client.id, userId, request.hadScope, ctx.clock());
}

/**
 * The user chose Allow (or had consented before): record the grant and issue a one-time
 * code (RFC 6749 §4.1.2), in one transaction. A scoped authorization revokes the user's
 * legacy grants for the client (SPEC §2 item 14). Returns the redirect location.
 */
export async function approveAuthorization(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<string> {
  const now = ctx.clock();
  const code = generateToken('authorizationCode');
  const grantId = randomId();
  const clientId = request.client.id;
  const scopes = request.scopes === null ? null : sortScopes(request.scopes);
  await ctx.store.transaction(async (tx: OAuthStore) => {
    if (scopes !== null) {
      for (const g of await tx.listActiveGrants(userId, clientId)) {
        if (g.scopes !== null) continue;
        await tx.revokeGrant(g.id, now);
        await tx.audit({ type: 'grant.revoked', actorId: userId, clientId, userId, data: { grantId: g.id, reason: 'replaced legacy grant' } }, now);
      }
    }
    await tx.createGrant({ id: grantId, userId, clientId, scopes, createdAt: now, revokedAt: null });
    await tx.createCode({
      hash: hashToken(code),
      clientId,
      userId,
      grantId,
      redirectUri: request.redirectUri,
      scopes,
      codeChallenge: request.codeChallenge,
      createdAt: now,
      expiresAt: now + ctx.ttl.authCode * 1000,
      consumedAt: null,
    });
    await tx.audit({ type: 'grant.created', actorId: userId, clientId, userId, data: { grantId, scopes: scopes?.join(' ') ?? 'legacy' } }, now);
  });
  return buildRedirect(request.redirectUri, { code, state: request.state, iss: ctx.issuer });
}

/** The user chose Deny: RFC 6749 §4.1.2.1 access_denied. */
export function denyAuthorization(ctx: OAuthContext, request: AuthorizationRequest): string {
  return errorRedirect(ctx, request.redirectUri, new OAuthError('access_denied', 'the user denied the request'), request.state);
}
