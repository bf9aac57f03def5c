// What an organization's identity providers granted (docs/integrating.md#enterprise-managed-agents):
// which agents got tokens for which member, as the organization's owner sees it, and its end:
// by the owner, one agent's access to one member at a time, or for every agent at once when
// the member leaves the organization or is removed from it.
import { sortScopes } from '../../oauth/scopes.ts';
import type { Actor } from '../actors.ts';
import type { ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { ServiceStores } from '../stores.ts';
import type { IdentityProviderGrant, RevokedGrant } from './store.ts';

/**
 * One agent's access to one member through one identity provider: the provider makes a grant
 * per set of scopes, and the agent holds the tokens of all of them, so they are one access.
 */
export interface AgentAccess {
  /** The newest of its grants: the id the owner's Revoke names it by. */
  grantId: string;
  grantIds: string[];
  clientId: string;
  clientName: string;
  userId: string;
  userName: string;
  userEmail: string;
  /** The union of its grants' scopes, registry order. */
  scopes: string[];
  firstGrantedAt: number;
  /** When the agent last got a token through it; null when none is still stored. */
  lastUsedAt: number | null;
}

/** The grants gathered by agent and member; the most recently used (or granted) first. */
export function gatherAgentAccess(grants: readonly IdentityProviderGrant[]): AgentAccess[] {
  const byParty = new Map<string, AgentAccess>();
  // Oldest first: the last grant seen of a party is its newest.
  for (const g of grants) {
    const key = `${g.clientId}\n${g.userId}`;
    const access = byParty.get(key);
    if (access === undefined) {
      byParty.set(key, { grantId: g.grantId, grantIds: [g.grantId], clientId: g.clientId, clientName: g.clientName, userId: g.userId, userName: g.userName, userEmail: g.userEmail, scopes: g.scopes, firstGrantedAt: g.createdAt, lastUsedAt: g.lastTokenAt });
      continue;
    }
    access.grantId = g.grantId;
    access.grantIds.unshift(g.grantId);
    access.scopes = sortScopes(new Set([...access.scopes, ...g.scopes]));
    if (g.lastTokenAt !== null) access.lastUsedAt = Math.max(access.lastUsedAt ?? 0, g.lastTokenAt);
  }
  const latest = (a: AgentAccess) => a.lastUsedAt ?? a.firstGrantedAt;
  return [...byParty.values()].sort((a, b) => latest(b) - latest(a) || a.clientName.localeCompare(b.clientName) || a.userEmail.localeCompare(b.userEmail));
}

async function requireProvider(ctx: ServiceContext, organizationId: string, identityProviderId: string): Promise<void> {
  if ((await ctx.stores.identityProviders.find(organizationId, identityProviderId)) === undefined) {
    throw notFound(`organization ${organizationId} has no identity provider ${identityProviderId}`);
  }
}

/** Which agents got tokens for whom through the organization's identity provider. */
export async function listAgentAccess(ctx: ServiceContext, organizationId: string, identityProviderId: string): Promise<AgentAccess[]> {
  await requireProvider(ctx, organizationId, identityProviderId);
  return gatherAgentAccess(await ctx.stores.identityProviders.listActiveGrants(identityProviderId));
}

/**
 * Ends one agent's access to one member through the identity provider: every active grant it
 * made for that client and member, with their tokens, in one transaction, each audited as
 * `grant.revoked` under the actor. `grantId` names any of them; a grant the provider did not
 * make, or one already ended, is not found. The provider may grant it again on the agent's
 * next ID-JAG: its own policy decides that.
 */
export async function revokeAgentAccess(ctx: ServiceContext, input: { organizationId: string; identityProviderId: string; grantId: string }, actor: Actor): Promise<{ access: AgentAccess; revoked: RevokedGrant[] }> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    await requireProvider({ ...ctx, stores: tx }, input.organizationId, input.identityProviderId);
    const access = gatherAgentAccess(await tx.identityProviders.listActiveGrants(input.identityProviderId)).find((a) => a.grantIds.includes(input.grantId));
    if (access === undefined) throw notFound('this identity provider granted no such access, or it has ended already');
    const revoked = await tx.identityProviders.revokeGrantsOf(input.identityProviderId, now, { userId: access.userId, clientId: access.clientId });
    for (const g of revoked) {
      await tx.audit.append(
        { type: 'grant.revoked', ...actor, clientId: g.clientId, userId: g.userId, data: { grantId: g.id, organizationId: input.organizationId, identityProviderId: input.identityProviderId, reason: "revoked by the organization's owner" } },
        now,
      );
    }
    return { access, revoked };
  });
}

/**
 * Within the transaction that ends the membership: the member's access through every identity
 * provider of the organization ends with it, each grant audited as `grant.revoked`. The token
 * endpoint refuses a non-member's ID-JAG already; this ends the tokens issued before.
 */
export async function revokeOnDeparture(tx: ServiceStores, organizationId: string, userId: string, now: number): Promise<RevokedGrant[]> {
  const revoked: RevokedGrant[] = [];
  for (const provider of await tx.identityProviders.listOfOrganization(organizationId)) {
    // A token request granting through it right now holds it: waited for, its grant is
    // revoked below; one that comes after finds the membership gone (grants/jwt-bearer.ts).
    if (!(await tx.identityProviders.hold(provider.id))) continue;
    for (const g of await tx.identityProviders.revokeGrantsOf(provider.id, now, { userId })) {
      await tx.audit.append({ type: 'grant.revoked', clientId: g.clientId, userId, data: { grantId: g.id, organizationId, identityProviderId: provider.id, reason: 'left the organization' } }, now);
      revoked.push(g);
    }
  }
  return revoked;
}
