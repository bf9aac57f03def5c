// POST /v2/auth/oauth2/introspect — RFC 7662. A client learns about its own tokens; a
// client an admin marked as a resource server may introspect any token (docs/rules.md#introspection).
// Anything not active, or not the caller's business, is just {"active": false} (§2.2).
// A public client cannot authenticate and is refused (docs/rules.md#introspection).
import { authenticateClient, readClientCredentials } from './client-auth.ts';
import type { FailedAuthenticationLimit } from './client-limits.ts';
import { documentClientRefusal } from './client-metadata.ts';
import type { OAuthContext } from './context.ts';
import { invalidClient } from './errors.ts';
import { readParams, required } from './params.ts';
import { resourcesOf } from './resources.ts';
import { formatScopes } from './scopes.ts';
import type { ClientRecord } from './storage.ts';
import { hashToken, isWellFormed } from './token-format.ts';

export interface IntrospectionInput {
  body: unknown;
  authorization: string | undefined;
  /** Failed client authentications (client-limits.ts); absent: not limited. */
  failedAuthentications?: FailedAuthenticationLimit;
}

export type IntrospectionResponse =
  | { active: false }
  | {
      active: true;
      scope: string;
      client_id: string;
      sub: string;
      exp: number;
      iat: number;
      token_type: 'Bearer' | 'DPoP' | 'refresh_token';
      iss: string;
      /** RFC 7662 §2.2, RFC 8707: the resources the token is bound to. */
      aud: string[];
      /** RFC 9449 §6.2: the key a DPoP-bound token is bound to. */
      cnf?: { jkt: string };
      /**
       * docs/rules.md#team-authorization: the team the token acts for (an RFC 7662 §2.2
       * extension): `sub` then names who authorized it, and the token acts for the team alone.
       * `active` does not say whether that person is still an owner or admin of the team: a
       * resource server asks that itself, as the /v2 API does at each request.
       */
      team_id?: string;
    };

const inactive: IntrospectionResponse = { active: false };

/** The caller sees its own tokens; a resource server every client's. */
function mayIntrospect(caller: ClientRecord, clientId: string): boolean {
  return clientId === caller.id || caller.resourceServer;
}

/** docs/integrating.md#connect-an-ai-agent-mcp: under CIMD_POLICY=off a URL client's tokens are not active. */
function refusedDocumentClient(ctx: OAuthContext, clientId: string): boolean {
  return documentClientRefusal(ctx.clientMetadata !== undefined, clientId) !== undefined;
}

export async function handleIntrospection(ctx: OAuthContext, input: IntrospectionInput): Promise<IntrospectionResponse> {
  const params = readParams(input.body);
  const credentials = readClientCredentials(params, input.authorization);
  const caller = await authenticateClient(ctx, credentials, input.failedAuthentications);
  // docs/rules.md#introspection: a public client has no secret, so it cannot authenticate (RFC 7662 §2.1
  // wants the caller authorized): it may revoke its tokens, not introspect them.
  if (caller.kind === 'public') {
    const error = invalidClient('a public client cannot authenticate, so it cannot introspect tokens: introspection is for confidential clients and resource servers');
    error.basicChallenge = credentials.method === 'client_secret_basic';
    throw error;
  }
  const token = required(params, 'token');
  const now = ctx.clock();

  if (isWellFormed('accessToken', token)) {
    const t = await ctx.store.findAccessToken(hashToken(token));
    if (t === undefined || !mayIntrospect(caller, t.clientId)) return inactive;
    if (t.revokedAt !== null || t.expiresAt <= now || t.clientState !== 'approved' || refusedDocumentClient(ctx, t.clientId)) return inactive;
    return active(ctx, t, t.dpopJkt ? 'DPoP' : 'Bearer');
  }
  if (isWellFormed('refreshToken', token)) {
    const t = await ctx.store.findRefreshToken(hashToken(token));
    if (t === undefined || !mayIntrospect(caller, t.clientId)) return inactive;
    if (t.revokedAt !== null || t.spentAt !== null || t.expiresAt <= now) return inactive;
    const owner = t.clientId === caller.id ? caller : await ctx.store.findClient(t.clientId);
    if (owner?.state !== 'approved' || refusedDocumentClient(ctx, t.clientId)) return inactive;
    // docs/rules.md#team-authorization: a refresh token's team is its grant's, which it does not carry.
    const teamId = (await ctx.store.findGrant(t.grantId))?.teamId;
    return active(ctx, teamId == null ? t : { ...t, teamId }, 'refresh_token');
  }
  return inactive;
}

interface TokenFacts {
  clientId: string;
  userId: string;
  scopes: string[] | null;
  resources: string[] | null;
  dpopJkt?: string | null;
  teamId?: string;
  createdAt: number;
  expiresAt: number;
}

function active(ctx: OAuthContext, t: TokenFacts, tokenType: 'Bearer' | 'DPoP' | 'refresh_token'): IntrospectionResponse {
  return {
    active: true,
    scope: formatScopes(t.scopes),
    client_id: t.clientId,
    sub: t.userId,
    exp: Math.floor(t.expiresAt / 1000),
    iat: Math.floor(t.createdAt / 1000),
    token_type: tokenType,
    iss: ctx.issuer,
    aud: resourcesOf(ctx.resources, t.resources),
    ...(t.dpopJkt ? { cnf: { jkt: t.dpopJkt } } : {}),
    ...(t.teamId === undefined ? {} : { team_id: t.teamId }),
  };
}
