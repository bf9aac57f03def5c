// What an authorization leaves behind (RFC 6749 §4.1.2): the grant the user's consent is
// remembered by, and the one-time code the browser takes back to the application; or, for
// Deny, access_denied. Each in one transaction with the pushed request it spends.
import { codeLifetimeSeconds } from '../client-policy.ts';
import type { OAuthContext } from '../context.ts';
import { OAuthError } from '../errors.ts';
import { reportingTransaction } from '../events.ts';
import { buildRedirect } from '../redirect-uri.ts';
import { sortScopes } from '../scopes.ts';
import type { CodeRecord, GrantRecord, OAuthStore } from '../storage.ts';
import { generateToken, hashToken, timeOrderedId } from '../token-format.ts';
import { errorRedirect } from './error-answers.ts';
import { consumePushed } from './pushed.ts';
import type { AuthorizationRequest } from './request.ts';
import { TeamAuthorityLost } from './team.ts';

/** A user has at most this many active grants per client (docs/rules.md#bounded-growth, as Google). */
export const MAX_ACTIVE_GRANTS_PER_CLIENT = 100;

/**
 * The grant whose remembered consent covers the request, if any (docs/rules.md#consent, docs/rules.md#silent-authorization):
 * one of the user's active grants for this client holding every requested scope (a legacy
 * request: a legacy grant), the newest. Never for prompt=consent, and never for a public
 * client: another app can claim its redirect URI and would get a code without the user
 * (RFC 8252 §8.6). One indexed read of at most MAX_ACTIVE_GRANTS_PER_CLIENT rows (docs/rules.md#bounded-growth).
 */
export async function rememberedGrant(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<GrantRecord | undefined> {
  if (request.prompt.has('consent') || request.client.kind === 'public') return undefined;
  const teamId = request.team?.id ?? null;
  // docs/rules.md#team-authorization: consent given for a team is remembered for that team only.
  const grants = (await ctx.store.listActiveGrants(userId, request.client.id)).filter((g) => (g.teamId ?? null) === teamId);
  const requested = request.scopes;
  if (requested === null) return grants.find((g) => g.scopes === null);
  // A grant covers what it holds: scopes approved in separate authorizations do not add up,
  // because the code must belong to one grant that allows everything it carries.
  return grants.find((g) => g.scopes !== null && requested.every((s) => g.scopes!.includes(s)));
}

/** The one-time code of a request, under its grant (RFC 6749 §4.1.2: short-lived, bound to the client and redirect URI). */
function codeRecord(ctx: OAuthContext, request: AuthorizationRequest, userId: string, grantId: string, code: string, now: number, authTime: number): CodeRecord {
  return {
    hash: hashToken(code),
    clientId: request.client.id,
    userId,
    grantId,
    redirectUri: request.redirectUri,
    scopes: request.scopes === null ? null : sortScopes(request.scopes),
    codeChallenge: request.codeChallenge,
    resources: request.resources,
    dpopJkt: request.dpopJkt,
    createdAt: now,
    expiresAt: now + codeLifetimeSeconds(ctx, request.client) * 1000,
    consumedAt: null,
    nonce: request.nonce,
    authTime,
  };
}

/**
 * The user chose Allow: record the grant and issue a one-time code (RFC 6749 §4.1.2), in
 * one transaction. A scoped authorization revokes the user's legacy grants for the client
 * (docs/rules.md#legacy-clients); the grant past MAX_ACTIVE_GRANTS_PER_CLIENT revokes the oldest (item
 * 24). `authTime`: when the user last logged in, the ID token's auth_time. Returns the redirect location.
 */
export async function approveAuthorization(ctx: OAuthContext, request: AuthorizationRequest, userId: string, authTime = ctx.clock()): Promise<string> {
  const now = ctx.clock();
  const code = generateToken('authorizationCode');
  const grantId = timeOrderedId(now);
  const clientId = request.client.id;
  const scopes = request.scopes === null ? null : sortScopes(request.scopes);
  const teamId = request.team?.id ?? null;
  await reportingTransaction(ctx, async (tx: OAuthStore) => {
    // docs/rules.md#team-authorization: the team is held until the grant is written, so that a
    // deletion (which revokes the team's grants) or a role change waits and then sees it.
    if (teamId !== null && !(await tx.holdTeamAuthority(teamId, userId))?.mayAuthorize) throw new TeamAuthorityLost();
    await consumePushed(tx, request, now);
    await tx.lockUserGrants(userId);
    const revoke = async (g: GrantRecord, reason: string) => {
      await tx.revokeGrant(g.id, now);
      const team = g.teamId == null ? {} : { teamId: g.teamId };
      await tx.audit.append({ type: 'grant.revoked', actorId: userId, clientId, userId, data: { grantId: g.id, ...team, reason } }, now);
    };
    let active = await tx.listActiveGrants(userId, clientId);
    if (scopes !== null) {
      // A legacy grant is replaced by a scoped one that acts for the same user or team.
      for (const g of active.filter((g) => g.scopes === null && (g.teamId ?? null) === teamId)) await revoke(g, 'replaced legacy grant');
      active = active.filter((g) => !(g.scopes === null && (g.teamId ?? null) === teamId));
    }
    // Newest first: what lies past the limit, counting the grant about to be created, is oldest.
    for (const g of active.slice(MAX_ACTIVE_GRANTS_PER_CLIENT - 1)) await revoke(g, 'grant limit');
    await tx.createGrant({ id: grantId, userId, clientId, scopes, teamId, createdAt: now, revokedAt: null });
    await tx.createCode(codeRecord(ctx, request, userId, grantId, code, now, authTime));
    const team = teamId === null ? {} : { teamId };
    await tx.audit.append({ type: 'grant.created', actorId: userId, clientId, userId, data: { grantId, scopes: scopes?.join(' ') ?? 'legacy', ...team } }, now);
  });
  return buildRedirect(request.redirectUri, { code, state: request.state, iss: ctx.issuer });
}

/**
 * Remembered consent, no page shown: the code belongs to the grant that covers it, and no
 * grant is added (docs/rules.md#silent-authorization). Undefined when the grant was revoked meanwhile: the
 * caller then asks the user, as if nothing had been remembered.
 */
export async function approveSilently(ctx: OAuthContext, request: AuthorizationRequest, userId: string, grant: GrantRecord, authTime = ctx.clock()): Promise<string | undefined> {
  const now = ctx.clock();
  const code = generateToken('authorizationCode');
  const issued = await reportingTransaction(ctx, async (tx: OAuthStore) => {
    if (!(await tx.holdActiveGrant(grant.id))) return false;
    await consumePushed(tx, request, now);
    await tx.createCode(codeRecord(ctx, request, userId, grant.id, code, now, authTime));
    return true;
  });
  return issued ? buildRedirect(request.redirectUri, { code, state: request.state, iss: ctx.issuer }) : undefined;
}

/** The user chose Deny: RFC 6749 §4.1.2.1 access_denied; a pushed request is spent by it too. */
export async function denyAuthorization(ctx: OAuthContext, request: AuthorizationRequest): Promise<string> {
  if (request.pushed !== undefined) await reportingTransaction(ctx, (tx) => consumePushed(tx, request, ctx.clock()));
  return errorRedirect(ctx, request.redirectUri, new OAuthError('access_denied', 'the user denied the request'), request.state);
}
