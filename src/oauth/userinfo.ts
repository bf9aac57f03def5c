// The UserInfo endpoint (OpenID Connect Core §5.3): the claims of the identity scopes an access
// token holds, for the token's user. The token is checked as every resource checks one
// (bearer.ts: RFC 6750 §2.1, RFC 9449 §7 for a DPoP-bound one), at whichever of our resources
// it was issued for: UserInfo is the authorization server's own endpoint, which every token of
// an openid grant may call.
import { checkAccessRecord, checkSender, parseBearer, type PresentedProof, type TokenScheme } from './bearer.ts';
import type { OAuthContext } from './context.ts';
import { identityClaims, OPENID } from './id-token.ts';
import { resourcesOf } from './resources.ts';
import { hashToken } from './token-format.ts';

export type UserInfoAnswer =
  | { ok: true; claims: Record<string, unknown> }
  | {
      ok: false;
      /** RFC 6750 §3.1: 401 for a token that is missing or not valid, 403 for one without openid. */
      status: 401 | 403;
      /** RFC 6750 §3.1 and RFC 9449 §7.1; undefined: no credentials at all, so no error code. */
      error: 'invalid_token' | 'insufficient_scope' | 'invalid_dpop_proof' | 'use_dpop_nonce' | undefined;
      description: string;
      /** The challenge's scheme: DPoP for a token presented as DPoP (RFC 9449 §7.1). */
      scheme: TokenScheme;
      /** RFC 9449 §9: the nonce the next proof must carry. */
      nonce?: string;
    };

export async function answerUserInfo(ctx: OAuthContext, authorization: string | undefined, proof: PresentedProof): Promise<UserInfoAnswer> {
  const parsed = parseBearer(authorization);
  if (!parsed.ok) return { ok: false, status: 401, error: parsed.reason === 'missing' ? undefined : 'invalid_token', description: parsed.description, scheme: 'Bearer' };
  const record = await ctx.store.findAccessToken(hashToken(parsed.token));
  const audience = {
    resources: ctx.resources,
    resource: record === undefined ? ctx.resources.default : resourcesOf(ctx.resources, record.resources)[0]!,
    documentsServed: ctx.clientMetadata !== undefined,
    dpop: ctx.dpop,
  };
  const checked = checkAccessRecord(ctx.clock, record, audience);
  if (!checked.ok) return { ok: false, status: 401, error: 'invalid_token', description: checked.description, scheme: parsed.scheme };
  const refused = await checkSender(audience, ctx.clock(), parsed, record!.dpopJkt, proof);
  if (refused !== undefined) return { ok: false, status: 401, error: refused.error, description: refused.description, scheme: parsed.scheme, ...(refused.nonce === undefined ? {} : { nonce: refused.nonce }) };
  const scopes = checked.principal.scopes;
  if (scopes === null || !scopes.includes(OPENID)) {
    return { ok: false, status: 403, error: 'insufficient_scope', description: 'UserInfo needs an access token of an authorization that asked for the openid scope', scheme: parsed.scheme };
  }
  const identity = await ctx.store.findIdentity(checked.principal.userId);
  // The user is gone: the token names nobody any more.
  if (identity === undefined) return { ok: false, status: 401, error: 'invalid_token', description: 'the access token is not valid', scheme: parsed.scheme };
  // §5.3.2: sub always; the other claims of the granted scopes only.
  return { ok: true, claims: { sub: checked.principal.userId, ...identityClaims(scopes, identity) } };
}
