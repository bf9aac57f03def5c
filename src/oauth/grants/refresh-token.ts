// refresh_token grant: RFC 6749 §6 with rotation and reuse detection (RFC 9700 §4.14.2,
// docs/rules.md#refresh-rotation, docs/rules.md#refresh-scope).
import type { OAuthContext } from '../context.ts';
import { invalidGrant, invalidScope, OAuthError } from '../errors.ts';
import { reportingTransaction, reportingWrite } from '../events.ts';
import { optional, required } from '../params.ts';
import { narrowResources } from '../resources.ts';
import { formatScopes, parseScopeParameter } from '../scopes.ts';
import type { OAuthStore, RefreshTokenRecord } from '../storage.ts';
import { rotatesRefreshTokens } from '../client-policy.ts';
import { openSuccessor, sealSuccessor } from '../successor-box.ts';
import { hashToken, isWellFormed } from '../token-format.ts';
import { mintAccessToken, mintPair, pairKeys, storePair, tokenResponse, type TokenResponse } from '../token-response.ts';
import type { GrantHandler, GrantRequest } from './types.ts';

export const refreshTokenGrant: GrantHandler = {
  grantType: 'refresh_token',
  parameters: ['refresh_token', 'scope'],

  async handle(ctx: OAuthContext, { params, client, resources, dpopJkt }: GrantRequest): Promise<TokenResponse> {
    const presented = required(params, 'refresh_token');
    const scope = optional(params, 'scope');
    if (!isWellFormed('refreshToken', presented)) throw invalidGrant('refresh_token is not a valid refresh token');
    const hash = hashToken(presented);
    const now = ctx.clock();

    const rotated = await rotateAtOnce(ctx, { client, resources, dpopJkt }, presented, hash, scope, now);
    if (rotated !== undefined) return rotated;

    const outcome = await reportingTransaction(ctx, async (tx) => {
      const record = await tx.findRefreshToken(hash);
      if (record === undefined) return invalidGrant('refresh_token is not valid');
      const refused = refusal(record, client, dpopJkt, scope);
      if (refused !== undefined) return refused;
      if (record.spentAt === null) {
        if (record.expiresAt <= now) return invalidGrant('refresh_token has expired after a long time unused: authorize again');
        const audience = narrowResources(ctx.resources, record.resources, resources); // RFC 8707 §2.2
        if (audience instanceof OAuthError) return audience;
        // docs/rules.md#fapi2: the profile's clients (confidential, their refresh tokens bound to
        // their authentication) keep their refresh token: FAPI 2.0 §5.3.2.1 rotates none.
        if (!rotatesRefreshTokens(client)) return keepRefreshToken(ctx, tx, presented, record, mintAccessToken(ctx, binding(record), audience, pairKeys(client, dpopJkt).access), now);
        const pair = mintPair(ctx, binding(record), record.id, audience, pairKeys(client, dpopJkt));
        if (await tx.spendRefreshToken(record.id, now, sealSuccessor(presented, pair))) {
          await storePair(tx, pair, { type: 'token.refreshed', clientId: client.id, userId: record.userId, data: { grantId: record.grantId } }, now);
          return tokenResponse(ctx, pair, record.scopes);
        }
        // Lost a race: another request spent it first, or a revocation ended it. Read
        // what the other transaction committed.
        const winner = await tx.findRefreshToken(hash);
        if (winner === undefined || winner.revokedAt !== null) return invalidGrant('refresh_token has been revoked');
        return replay(ctx, tx, presented, winner, now);
      }
      return replay(ctx, tx, presented, record, now);
    });
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  },
};

/**
 * What refuses this token to this request whatever happens next: each of these is decided by
 * what the token was issued with, or by a revocation, which is final.
 */
function refusal(record: RefreshTokenRecord, client: GrantRequest['client'], dpopJkt: string | null, scope: string | undefined): OAuthError | undefined {
  if (record.clientId !== client.id) return invalidGrant('refresh_token was issued to another client');
  if (record.revokedAt !== null) return invalidGrant('refresh_token has been revoked');
  // RFC 9449 §5: a public client's refresh token is bound to its key; only a proof of that key refreshes it.
  if (record.dpopJkt != null && record.dpopJkt !== dpopJkt) {
    return invalidGrant(dpopJkt === null ? 'refresh_token is bound to a DPoP key: send a DPoP proof of that key' : 'refresh_token is bound to another DPoP key than the proof\'s');
  }
  // docs/rules.md#refresh-scope: scopes are not sent on refresh; a different set is refused.
  if (scope !== undefined && !sameScopes(scope, record.scopes)) {
    return invalidScope('scope differs from the original grant: refreshing keeps the granted scopes, omit scope');
  }
  return undefined;
}

/**
 * The usual refresh, a rotating client's unspent token, without a transaction of its own: the
 * token is read, and then spent with its successor pair and audit event stored in one atomic
 * write (OAuthStore.rotateRefreshToken: one statement on PostgreSQL), which spends it only if
 * it is still unspent, unrevoked and unexpired. Undefined when that is not the case (a spent
 * token, a client that keeps its token, a lost race): the transaction of `handle` then decides
 * from what it reads, as it always did. What a crash may lose is unchanged: the spend and the
 * pair commit together or not at all.
 */
async function rotateAtOnce(
  ctx: OAuthContext,
  { client, resources, dpopJkt }: Pick<GrantRequest, 'client' | 'resources' | 'dpopJkt'>,
  presented: string,
  hash: string,
  scope: string | undefined,
  now: number,
): Promise<TokenResponse | undefined> {
  if (!rotatesRefreshTokens(client)) return undefined;
  const record = await ctx.store.findRefreshToken(hash);
  if (record === undefined) throw invalidGrant('refresh_token is not valid');
  const refused = refusal(record, client, dpopJkt, scope);
  if (refused !== undefined) throw refused;
  if (record.spentAt !== null) return undefined;
  if (record.expiresAt <= now) throw invalidGrant('refresh_token has expired after a long time unused: authorize again');
  const audience = narrowResources(ctx.resources, record.resources, resources); // RFC 8707 §2.2
  if (audience instanceof OAuthError) throw audience;
  const pair = mintPair(ctx, binding(record), record.id, audience, pairKeys(client, dpopJkt));
  const event = { type: 'token.refreshed', clientId: client.id, userId: record.userId, data: { grantId: record.grantId } } as const;
  const done = await reportingWrite(ctx, event.type, () => ctx.store.rotateRefreshToken(record.id, now, sealSuccessor(presented, pair), pair.accessRow, pair.refreshRow, event));
  return done ? tokenResponse(ctx, pair, record.scopes) : undefined;
}

/** A new access token on the same refresh token, whose idle expiry starts again. */
async function keepRefreshToken(
  ctx: OAuthContext,
  tx: OAuthStore,
  presented: string,
  record: RefreshTokenRecord,
  access: ReturnType<typeof mintAccessToken>,
  now: number,
): Promise<TokenResponse | OAuthError> {
  if (!(await tx.keepRefreshToken(record.id, now + ctx.ttl.refreshIdle * 1000))) return invalidGrant('refresh_token has been revoked');
  await tx.createAccessToken(access.accessRow);
  await tx.audit.append({ type: 'token.refreshed', clientId: record.clientId, userId: record.userId, data: { grantId: record.grantId } }, now);
  return tokenResponse(ctx, { accessToken: access.accessToken, refreshToken: presented, dpopJkt: access.accessRow.dpopJkt ?? null }, record.scopes);
}

function binding(record: RefreshTokenRecord) {
  return { grantId: record.grantId, codeHash: record.codeHash, clientId: record.clientId, userId: record.userId, scopes: record.scopes, resources: record.resources };
}

function sameScopes(requested: string, granted: string[] | null): boolean {
  try {
    return formatScopes(parseScopeParameter(requested)) === formatScopes(granted);
  } catch {
    return false;
  }
}

/**
 * A spent token presented again. Within the window it is a race between the
 * application's own requests: answer with the same successor. After it, the token has
 * leaked: revoke the whole grant (RFC 9700 §4.14.2).
 */
async function replay(
  ctx: OAuthContext,
  tx: OAuthStore,
  presented: string,
  record: RefreshTokenRecord,
  now: number,
): Promise<TokenResponse | OAuthError> {
  const withinWindow = record.spentAt !== null && now - record.spentAt <= ctx.ttl.refreshReuseWindow * 1000;
  if (withinWindow && record.successorBox !== null) {
    const pair = openSuccessor(presented, record.successorBox);
    if (pair !== undefined) return tokenResponse(ctx, pair, record.scopes);
  }
  await tx.revokeGrant(record.grantId, now);
  await tx.audit.append({ type: 'refresh_token.reused', clientId: record.clientId, userId: record.userId, data: { grantId: record.grantId } }, now);
  // docs/rules.md#client-events: the application hears of it at once, not from its next failing call.
  await tx.notifyClient(record.clientId, 'grant.revoked_reuse', { userId: record.userId, grantIds: [record.grantId] }, now);
  return invalidGrant('refresh_token has already been used; every token of this grant is revoked');
}
