// The JWT bearer grant (RFC 7523 §2.1) with an ID-JAG as its assertion
// (draft-ietf-oauth-identity-assertion-authz-grant; docs/integrating.md#enterprise-managed-agents):
// an organization's identity provider vouches for one of its people and one client, so the
// client gets an access token without a consent page. An access token only: the client asks
// its identity provider again rather than refresh (the draft's §4.1), so the organization's
// policy is asked on every renewal.
import type { OAuthContext } from '../context.ts';
import { reportingPortTransaction } from '../events.ts';
import { invalidGrant, invalidScope, OAuthError, unauthorizedClient } from '../errors.ts';
import { checkIdJag, JWT_BEARER_GRANT_TYPE, type CheckedIdJag, type IdentityAssertionStore, type TrustedIdentityProvider } from '../identity-assertion.ts';
import { required } from '../params.ts';
import { checkResources, invalidTarget } from '../resources.ts';
import { formatScopes, isKnownScope, parseScopeParameter, sortScopes } from '../scopes.ts';
import { timeOrderedId } from '../token-format.ts';
import { mintAccessToken, pairKeys, type AccessTokenResponse } from '../token-response.ts';
import type { GrantHandler, GrantRequest } from './types.ts';

export const jwtBearerGrant: GrantHandler = {
  grantType: JWT_BEARER_GRANT_TYPE,
  parameters: ['assertion', 'scope'],

  async handle(ctx: OAuthContext, { params, client, resources, dpopJkt }: GrantRequest): Promise<AccessTokenResponse> {
    const assertion = required(params, 'assertion');
    const assertions = ctx.identityAssertions;
    if (assertions === undefined) throw unauthorizedClient('enterprise-managed authorization (ID-JAG) is not enabled on this server');
    // docs/rules.md#legacy-clients: a grant of no scopes would reach everything.
    if (client.scopes === null) throw unauthorizedClient('this application has no registered scopes (a legacy client): migrate it to scopes before using enterprise-managed authorization');
    const requested = params.scope === undefined ? undefined : parseScopeParameter(params.scope);
    const now = ctx.clock();

    const checked = await checkIdJag(assertion, { issuer: ctx.issuer, clientId: client.id }, assertions, now);
    if (!checked.ok) throw checked.unavailable ? new OAuthError('temporarily_unavailable', checked.description) : invalidGrant(checked.description);
    // RFC 7523 §3 point 7: an ID-JAG is used once, on this instance or any other.
    if (!(await ctx.dpop.proofs.recordProof(checked.replayKey, checked.acceptableUntil))) {
      throw invalidGrant('the ID-JAG has already been used: ask the identity provider for a new one');
    }
    const audience = boundResources(ctx, checked.resources, resources);

    const issued = await reportingPortTransaction(ctx, assertions.store, async (tx) => {
      const found = await findUser(tx, checked, now);
      if (found instanceof OAuthError) return found;
      const { trust, userId, linked } = found;
      // SECURITY.md: the trust's removal waits for this transaction and revokes what it wrote.
      if (!(await tx.holdTrust(trust.id))) return invalidGrant(`the identity provider ${checked.issuer} is no longer trusted`);
      // Asked again under the hold: a departure from the organization holds the trust too before it
      // revokes what the trust granted the member, so it has either committed (and this sees it)
      // or waits for this grant to revoke it (docs/integrating.md#enterprise-managed-agents).
      if (!(await tx.isMember(trust.organizationId, userId))) return invalidGrant('the account linked to this subject is not a member of the organization that trusts this identity provider');
      const scopes = grantedScopes(requested, checked.scopes, trust.scopes, client.scopes!);
      if (scopes instanceof OAuthError) return scopes;
      let grant = await tx.findTrustGrant(trust.id, userId, client.id, scopes);
      if (grant === undefined) {
        grant = { id: timeOrderedId(now), userId, clientId: client.id, scopes, createdAt: now, revokedAt: null };
        await tx.createTrustGrant(grant, trust.id);
      }
      const binding = { grantId: grant.id, codeHash: null, clientId: client.id, userId, scopes, resources: audience };
      const access = mintAccessToken(ctx, binding, audience, pairKeys(client, dpopJkt).access);
      await tx.oauth.createAccessToken(access.accessRow);
      await tx.oauth.audit.append(
        { type: 'token.issued', clientId: client.id, userId, data: { grantId: grant.id, grant_type: JWT_BEARER_GRANT_TYPE, issuer: checked.issuer, jti: checked.jti, identityProviderId: trust.id, ...(linked ? { linked: true } : {}) } },
        now,
      );
      return { accessToken: access.accessToken, dpopJkt: access.accessRow.dpopJkt ?? null, scopes };
    });
    if (issued instanceof OAuthError) throw issued;
    return {
      access_token: issued.accessToken,
      token_type: issued.dpopJkt ? 'DPoP' : 'bearer',
      expires_in: ctx.ttl.accessToken,
      scope: formatScopes(issued.scopes),
    };
  },
};

/**
 * Who the ID-JAG is about (docs/integrating.md#enterprise-managed-agents): the account linked to
 * its (iss, sub), a member of an organization whose trust verified it; else, the first time,
 * the one member of such an organization whose verified e-mail is the ID-JAG's `email`, in a
 * domain that trust speaks for, linked from then on. A later e-mail change moves nothing.
 */
async function findUser(tx: IdentityAssertionStore, checked: CheckedIdJag, now: number): Promise<{ trust: TrustedIdentityProvider; userId: string; linked: boolean } | OAuthError> {
  const linkedUser = await tx.findLinkedUser(checked.issuer, checked.subject);
  if (linkedUser !== undefined) {
    for (const trust of checked.trusts) if (await tx.isMember(trust.organizationId, linkedUser)) return { trust, userId: linkedUser, linked: false };
    return invalidGrant('the account linked to this subject is not a member of the organization that trusts this identity provider');
  }
  if (checked.email === undefined) {
    return invalidGrant('unknown subject: no account is linked to it and the ID-JAG carries no email to find one by; an operator can link it (gatehouse orgs idp link)');
  }
  const domain = checked.email.slice(checked.email.lastIndexOf('@') + 1);
  const speaking = checked.trusts.filter((t) => t.domains.includes(domain));
  if (speaking.length === 0) return invalidGrant(`unknown subject: the ID-JAG's email is in ${domain}, a domain its identity provider does not speak for here`);
  for (const trust of speaking) {
    const members = await tx.findMembersByVerifiedEmail(trust.organizationId, checked.email);
    if (members.length > 1) return invalidGrant('unknown subject: several members have this verified email; an operator must link the subject by hand (gatehouse orgs idp link)');
    if (members.length === 1) {
      const userId = await tx.linkSubject(checked.issuer, checked.subject, members[0]!, now);
      // A concurrent first use linked it to someone else: judge that account as a link.
      if (userId !== members[0] && !(await tx.isMember(trust.organizationId, userId))) {
        return invalidGrant('the account linked to this subject is not a member of the organization that trusts this identity provider');
      }
      return { trust, userId, linked: true };
    }
  }
  return invalidGrant('unknown subject: no member of the organization that trusts this identity provider has this verified email; an operator can link the subject (gatehouse orgs idp link)');
}

/**
 * The token's scopes (docs/integrating.md#enterprise-managed-agents): what the request asked,
 * or without `scope` what the ID-JAG names, within the ID-JAG's, the identity provider's and the
 * client's. A scope the request names beyond them is refused, not dropped (RFC 6749 §5.2).
 */
function grantedScopes(requested: string[] | undefined, asserted: string[] | undefined, trusted: string[] | null, client: string[]): string[] | OAuthError {
  const limits: { words: string; scopes: string[] }[] = [{ words: "this application's registered scopes", scopes: client }];
  if (trusted !== null) limits.push({ words: 'the scopes the organization lets its identity provider grant', scopes: trusted });
  if (asserted !== undefined) limits.push({ words: 'the scopes the ID-JAG grants', scopes: asserted });
  if (requested !== undefined) {
    for (const limit of limits) {
      const beyond = requested.filter((s) => !limit.scopes.includes(s));
      if (beyond.length > 0) return invalidScope(`scope ${beyond.join(' ')} is beyond ${limit.words}`);
    }
    return requested;
  }
  const within = sortScopes((asserted ?? client).filter((s) => isKnownScope(s) && limits.every((l) => l.scopes.includes(s))));
  if (within.length === 0) return invalidScope('the ID-JAG grants none of the scopes this application and its organization\'s identity provider may have here');
  return within;
}

/**
 * RFC 8707 (docs/rules.md#resource-indicators): the ID-JAG's `resource`, one of this server's,
 * binds the token; a request's `resource` may narrow it, never widen it. Neither: the default.
 */
function boundResources(ctx: OAuthContext, asserted: readonly string[], requested: readonly string[]): string[] | null {
  const unknown = asserted.filter((r) => !ctx.resources.known.includes(r));
  if (unknown.length > 0) throw invalidGrant(`the ID-JAG's resource "${unknown[0]}" is not a resource of this server: its identity provider must name one of ${ctx.resources.known.join(', ')}`);
  const allowed = checkResources(ctx.resources, asserted);
  if (allowed === null) return checkResources(ctx.resources, requested);
  if (requested.length === 0) return allowed;
  const outside = requested.filter((r) => !allowed.includes(r));
  if (outside.length > 0) throw invalidTarget(`resource ${outside.map((r) => `"${r}"`).join(', ')} is not one the ID-JAG was issued for`);
  return checkResources(ctx.resources, requested);
}
