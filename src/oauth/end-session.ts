// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) at end_session_endpoint: what
// the browser gets, decided here and rendered by src/web/end-session.ts, which ends the
// session. A valid id_token_hint (an ID token we signed, for the logged-in user) is the
// application asking for its user: the session ends at once. Without one the user is asked.
// Either way the browser goes back only to a post_logout_redirect_uri the client registered,
// exactly (§3.1), never anywhere else.
import { createLocalJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { OAuthContext } from './context.ts';
import { buildRedirect } from './redirect-uri.ts';
import { ID_TOKEN_ALGORITHMS } from './signing-keys.ts';

/** The parameters end_session_endpoint reads (§2); others are ignored. */
export const endSessionParameters = ['id_token_hint', 'post_logout_redirect_uri', 'state', 'client_id'] as const;

export type EndSessionDecision =
  /** The hint names the session's user (or nobody is logged in): end it, then go to `location` or the logged-out page. */
  | { kind: 'end'; location: string | undefined; clientName: string | undefined }
  /** Ask the user: the confirmation form carries `carried` back to this endpoint, whose answer then goes to `location`. */
  | { kind: 'confirm'; carried: Record<string, string>; location: string | undefined; clientName: string | undefined };

/** One value of a parameter; a repeated or non-text one counts as absent. */
function single(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The hint's claims when it is an ID token we signed (with a key still published), issued by
 * us; expired ones count (§2: the hint may be an expired token, it only names the session).
 */
async function hintClaims(ctx: OAuthContext, hint: string): Promise<JWTPayload | undefined> {
  const jwks = createLocalJWKSet({ keys: await ctx.signingKeys.published() });
  try {
    return (await jwtVerify(hint, jwks, { issuer: ctx.issuer, algorithms: [...ID_TOKEN_ALGORITHMS] })).payload;
  } catch (error) {
    // The signature was checked before the claims: an expired token's payload is ours.
    if (error instanceof errors.JWTExpired && error.payload.iss === ctx.issuer) return error.payload;
    return undefined;
  }
}

/** Where logout returns: the URI when the client registered it exactly, with state (§3). */
async function returnAddress(ctx: OAuthContext, clientId: string | undefined, uri: string | undefined, state: string | undefined): Promise<{ location: string | undefined; clientName: string | undefined }> {
  if (clientId === undefined) return { location: undefined, clientName: undefined };
  const client = await ctx.store.findClient(clientId);
  if (client === undefined || client.state !== 'approved') return { location: undefined, clientName: undefined };
  const registered = uri !== undefined && (client.postLogoutRedirectUris ?? []).includes(uri);
  return { location: registered ? buildRedirect(uri, { state }) : undefined, clientName: client.name };
}

/**
 * A logout request (GET or POST, §2). `sessionUserId`: who is logged in; `confirmed`: the
 * user answered the confirmation form (POST, CSRF-checked by the page layer).
 */
export async function decideEndSession(ctx: OAuthContext, raw: Record<string, unknown>, sessionUserId: string | undefined, confirmed: boolean): Promise<EndSessionDecision> {
  const hint = single(raw, 'id_token_hint');
  const uri = single(raw, 'post_logout_redirect_uri');
  const state = single(raw, 'state');
  const clientIdParam = single(raw, 'client_id');
  const claims = hint === undefined ? undefined : await hintClaims(ctx, hint);
  const audience = typeof claims?.aud === 'string' ? claims.aud : undefined;
  // §2: a client_id that is not the hint's audience makes the hint not this client's.
  const hinted = claims !== undefined && audience !== undefined && (clientIdParam === undefined || clientIdParam === audience) && (sessionUserId === undefined || claims.sub === sessionUserId);
  const clientId = hinted ? audience : clientIdParam;
  if (hinted || confirmed) return { kind: 'end', ...(await returnAddress(ctx, clientId, uri, state)) };
  const carried: Record<string, string> = {};
  for (const [name, value] of [['post_logout_redirect_uri', uri], ['state', state], ['client_id', clientId]] as const) if (value !== undefined) carried[name] = value;
  return { kind: 'confirm', carried, ...(await returnAddress(ctx, clientId, uri, state)) };
}
