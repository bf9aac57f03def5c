// The identity providers an organization trusts (docs/integrating.md#enterprise-managed-agents):
// registered by its owner or the operator, each with its issuer, its keys' address, the e-mail
// domains it speaks for and the scopes it may grant; removed in one place, which ends
// everything it granted. The links of its subjects to accounts, which the operator may also
// make and undo by hand.
import { randomId } from '../../oauth/token-format.ts';
import { isKnownScope, sortScopes, unknownScopes } from '../../oauth/scopes.ts';
import type { Actor } from '../actors.ts';
import type { ServiceContext } from '../context.ts';
import { conflict, notFound, validation } from '../errors.ts';
import type { IdentityLink, IdentityProvider } from './store.ts';

export type { IdentityLink, IdentityProvider } from './store.ts';

/** An organization trusts a handful of identity providers, not a directory of them. */
export const MAX_IDENTITY_PROVIDERS = 20;
export const MAX_DOMAINS = 50;

export interface NewIdentityProvider {
  organizationId: string;
  issuer: string;
  jwksUri: string;
  domains: string[];
  /** Absent or empty: whatever the client and the request allow. */
  scopes?: string[];
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** An https URL without user info or fragment: what an issuer and a jwks_uri must be. */
function httpsUrl(value: string, field: string, words: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validation(`${field} must be an absolute https URL: ${words}`, field);
  }
  if (url.protocol !== 'https:') throw validation(`${field} must use https: ${words}`, field);
  if (url.username !== '' || url.password !== '') throw validation(`${field} must not carry a user name or password`, field);
  if (url.hash !== '') throw validation(`${field} must not have a fragment`, field);
  return value;
}

/** The issuer identifier, as the identity provider's ID-JAGs carry it in iss. */
export const checkIssuer = (value: string): string => httpsUrl(value.trim(), 'issuer', 'the identity provider\'s issuer identifier, as its ID-JAGs carry it in iss');

/** Where the identity provider publishes its signing keys. */
export const checkJwksUri = (value: string): string => httpsUrl(value.trim(), 'jwks_uri', 'where the identity provider publishes its signing keys');

/** The e-mail domains it speaks for: lower case, without a leading @, each once. */
export function checkDomains(values: readonly string[]): string[] {
  if (values.length === 0) throw validation('name at least one e-mail domain the identity provider speaks for, like example.com', 'domains');
  if (values.length > MAX_DOMAINS) throw validation(`at most ${MAX_DOMAINS} domains`, 'domains');
  const domains = values.map((d) => d.trim().toLowerCase().replace(/^@/, ''));
  const bad = domains.find((d) => !DOMAIN.test(d));
  if (bad !== undefined) throw validation(`"${bad}" is not an e-mail domain: give a name like example.com`, 'domains');
  return [...new Set(domains)];
}

/** The scopes it may grant, registry order; none named: null, whatever the client and the request allow. */
export function checkScopes(values: readonly string[] | undefined): string[] | null {
  if (values === undefined || values.length === 0) return null;
  const unknown = values.filter((s) => !isKnownScope(s));
  if (unknown.length > 0) throw validation(unknownScopes(unknown), 'scopes');
  return sortScopes(values);
}

async function requireOrganization(ctx: ServiceContext, organizationId: string): Promise<void> {
  if ((await ctx.stores.teams.findOrganization(organizationId)) === undefined) throw notFound(`organization ${organizationId} not found`);
}

async function requireProvider(ctx: ServiceContext, organizationId: string, id: string): Promise<IdentityProvider> {
  const provider = await ctx.stores.identityProviders.find(organizationId, id);
  if (provider === undefined) throw notFound(`organization ${organizationId} has no identity provider ${id}`);
  return provider;
}

/** Registers the identity provider, audited as `identity_provider.added`. */
export async function addIdentityProvider(ctx: ServiceContext, input: NewIdentityProvider, actor: Actor): Promise<IdentityProvider> {
  const issuer = checkIssuer(input.issuer);
  const jwksUri = checkJwksUri(input.jwksUri);
  const domains = checkDomains(input.domains);
  const scopes = checkScopes(input.scopes);
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    await requireOrganization({ ...ctx, stores: tx }, input.organizationId);
    if ((await tx.identityProviders.listOfOrganization(input.organizationId)).length >= MAX_IDENTITY_PROVIDERS) {
      throw conflict(`organization ${input.organizationId} already trusts ${MAX_IDENTITY_PROVIDERS} identity providers: remove one first`);
    }
    const provider: IdentityProvider = { id: randomId(12), organizationId: input.organizationId, issuer, jwksUri, domains, scopes, createdAt: now, createdBy: actor.actorId };
    if (!(await tx.identityProviders.insert(provider))) throw conflict(`organization ${input.organizationId} already trusts the issuer ${issuer}`, 'issuer');
    await tx.audit.append({ type: 'identity_provider.added', ...actor, data: { organizationId: provider.organizationId, identityProviderId: provider.id, issuer } }, now);
    return provider;
  });
}

export async function listIdentityProviders(ctx: ServiceContext, organizationId: string): Promise<IdentityProvider[]> {
  await requireOrganization(ctx, organizationId);
  return ctx.stores.identityProviders.listOfOrganization(organizationId);
}

/**
 * Removes the identity provider and, in the same transaction, revokes every grant it made and
 * their tokens, audited as `identity_provider.removed` with how many grants ended.
 */
export async function removeIdentityProvider(ctx: ServiceContext, organizationId: string, id: string, actor: Actor): Promise<{ provider: IdentityProvider; grantsRevoked: number }> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const provider = await requireProvider({ ...ctx, stores: tx }, organizationId, id);
    // Deleted first: a token request holding the row (IdentityAssertionStore.holdTrust) is
    // waited for, so its grant is there to revoke; one that comes after finds no trust.
    if (!(await tx.identityProviders.delete(id))) throw notFound(`organization ${organizationId} has no identity provider ${id}`);
    const grantsRevoked = (await tx.identityProviders.revokeGrantsOf(id, now)).length;
    await tx.audit.append({ type: 'identity_provider.removed', ...actor, data: { organizationId, identityProviderId: id, issuer: provider.issuer, grantsRevoked } }, now);
    return { provider, grantsRevoked };
  });
}

/**
 * The operator links the identity provider's subject to a member of its organization by hand,
 * audited as `identity_link.created`. A subject already linked is refused: unlink it first.
 */
export async function linkSubject(ctx: ServiceContext, input: { organizationId: string; identityProviderId: string; subject: string; userId: string }, actor: Actor): Promise<IdentityLink> {
  const subject = input.subject;
  if (subject === '' || subject.length > 255) throw validation('the subject must be 1 to 255 characters, as the identity provider\'s sub claim', 'subject');
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const provider = await requireProvider({ ...ctx, stores: tx }, input.organizationId, input.identityProviderId);
    if ((await tx.teams.findMembershipOfUser({ organizationId: input.organizationId }, input.userId)) === undefined) {
      throw validation(`that user is not a member of organization ${input.organizationId}: add them first`, 'user');
    }
    const link: IdentityLink = { issuer: provider.issuer, subject, userId: input.userId, createdAt: now, createdBy: actor.actorId };
    if (!(await tx.identityProviders.insertLink(link))) throw conflict(`the subject ${subject} of ${provider.issuer} is linked already: unlink it first`, 'subject');
    await tx.audit.append({ type: 'identity_link.created', ...actor, userId: input.userId, data: { organizationId: input.organizationId, identityProviderId: provider.id, issuer: provider.issuer, subject } }, now);
    return link;
  });
}

/**
 * The operator undoes a subject's link, audited as `identity_link.removed`; the grants the
 * identity provider made for that account end with it, in the same transaction. The next
 * ID-JAG for the subject links it again by its e-mail, if a member has that verified e-mail.
 */
export async function unlinkSubject(ctx: ServiceContext, input: { organizationId: string; identityProviderId: string; subject: string }, actor: Actor): Promise<{ link: IdentityLink; grantsRevoked: number }> {
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    const provider = await requireProvider({ ...ctx, stores: tx }, input.organizationId, input.identityProviderId);
    const link = await tx.identityProviders.findLink(provider.issuer, input.subject);
    if (link === undefined || !(await tx.identityProviders.deleteLink(provider.issuer, input.subject))) {
      throw notFound(`the subject ${input.subject} of ${provider.issuer} is not linked`);
    }
    const grantsRevoked = (await tx.identityProviders.revokeGrantsOf(provider.id, now, { userId: link.userId })).length;
    await tx.audit.append({ type: 'identity_link.removed', ...actor, userId: link.userId, data: { organizationId: input.organizationId, identityProviderId: provider.id, issuer: provider.issuer, subject: input.subject, grantsRevoked } }, now);
    return { link, grantsRevoked };
  });
}
