// Minting the access/refresh pair and the token response of docs/rules.md#token-response.
import type { OAuthContext } from './context.ts';
import { formatScopes } from './scopes.ts';
import type { AuditEvent, OAuthStore, RefreshTokenRecord } from './storage.ts';
import type { TokenPair } from './successor-box.ts';
import { generateToken, hashToken, timeOrderedId } from './token-format.ts';

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  /** RFC 9449 §5: `DPoP` for a token bound to a key, else `bearer` (RFC 6750). */
  token_type: 'bearer' | 'DPoP';
  expires_in: number;
  scope: string;
  /** OpenID Connect Core §3.1.3.3: when the code's request held openid. */
  id_token?: string;
}

/**
 * An access token without a refresh token (RFC 6749 §5.1 makes it optional): what a grant
 * answers whose client must ask its identity provider again rather than refresh
 * (docs/integrating.md#enterprise-managed-agents).
 */
export type AccessTokenResponse = Omit<TokenResponse, 'refresh_token'>;

export interface GrantBinding {
  grantId: string;
  /** The code the pair descends from (docs/rules.md#code-replay): kept through every rotation. */
  codeHash: string | null;
  clientId: string;
  userId: string;
  scopes: string[] | null;
  /** The grant's resources (RFC 8707), kept by the refresh token through every rotation. */
  resources: string[] | null;
}

export interface MintedPair extends TokenPair {
  /** Rows to write; minting itself touches no storage. */
  accessRow: Parameters<OAuthStore['createAccessToken']>[0];
  refreshRow: RefreshTokenRecord;
}

/**
 * `audience` is what the access token is bound to: the grant's resources or, when the
 * token request narrowed them (RFC 8707 §2.2), fewer; the refresh token keeps the grant's.
 */
/**
 * What the pair is bound to (RFC 9449): the access token to the proof's key; the refresh
 * token only for a public client (§5), confidential clients' being bound by their secret.
 */
export interface PairKeys {
  access: string | null;
  refresh: string | null;
}

const UNBOUND: PairKeys = { access: null, refresh: null };

/** The keys of a pair issued to this client on a request whose proof was of `jkt` (RFC 9449 §5). */
export function pairKeys(client: { kind: 'confidential' | 'public' }, jkt: string | null): PairKeys {
  return { access: jkt, refresh: client.kind === 'public' ? jkt : null };
}

/** An access token alone, bound as mintPair binds one: what a refresh that keeps its token issues (docs/rules.md#fapi2). */
export function mintAccessToken(ctx: OAuthContext, binding: GrantBinding, audience: string[] | null, key: string | null): { accessToken: string; accessRow: MintedPair['accessRow'] } {
  const now = ctx.clock();
  const accessToken = generateToken('accessToken');
  return {
    accessToken,
    accessRow: {
      hash: hashToken(accessToken),
      ...binding,
      resources: audience,
      dpopJkt: key,
      createdAt: now,
      expiresAt: now + ctx.ttl.accessToken * 1000,
      revokedAt: null,
    },
  };
}

export function mintPair(ctx: OAuthContext, binding: GrantBinding, parentId: string | null, audience: string[] | null = binding.resources, keys: PairKeys = UNBOUND): MintedPair {
  const now = ctx.clock();
  const refreshToken = generateToken('refreshToken');
  return {
    ...mintAccessToken(ctx, binding, audience, keys.access),
    refreshToken,
    dpopJkt: keys.access,
    refreshRow: {
      id: timeOrderedId(now),
      hash: hashToken(refreshToken),
      ...binding,
      dpopJkt: keys.refresh,
      parentId,
      createdAt: now,
      expiresAt: now + ctx.ttl.refreshIdle * 1000,
      spentAt: null,
      successorBox: null,
      revokedAt: null,
    },
  };
}

/** Stores the pair with the audit event that records its issue (token.issued or token.refreshed). */
export async function storePair(tx: OAuthStore, pair: MintedPair, issued: AuditEvent, at: number): Promise<void> {
  await tx.createTokenPair(pair.accessRow, pair.refreshRow, issued, at);
}

export function tokenResponse(ctx: OAuthContext, pair: TokenPair, scopes: string[] | null): TokenResponse {
  return {
    access_token: pair.accessToken,
    refresh_token: pair.refreshToken,
    token_type: pair.dpopJkt ? 'DPoP' : 'bearer',
    expires_in: ctx.ttl.accessToken,
    scope: formatScopes(scopes),
  };
}
