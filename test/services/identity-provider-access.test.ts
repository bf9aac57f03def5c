// What an organization's identity providers granted (src/services/identity-providers/agent-access.ts,
// docs/integrating.md#enterprise-managed-agents), called in process over SQLite :memory: through
// the real adapters: the owner's view of which agents got tokens for whom, the owner's revoke,
// and the end of that access when the member leaves the organization or is removed from it.
// The grants are written as the JWT bearer grant writes them (IdentityAssertionStore), each with
// a live access token; the exchange itself is test/oauth/grants/jwt-bearer.test.ts's.
import { expect, test } from 'vitest';
import type { GrantRecord } from '../../src/oauth/storage.ts';
import type { OAuthContext } from '../../src/oauth/context.ts';
import { hashToken, timeOrderedId } from '../../src/oauth/token-format.ts';
import { mintAccessToken } from '../../src/oauth/token-response.ts';
import { CLI_OPERATOR } from '../../src/services/actors.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { listAuthorizedApps, revokeAuthorizedApp } from '../../src/services/clients/authorized-apps.ts';
import { listAgentAccess, revokeAgentAccess } from '../../src/services/identity-providers/agent-access.ts';
import { addIdentityProvider, type IdentityProvider } from '../../src/services/identity-providers/identity-providers.ts';
import { deleteOrganizationUser } from '../../src/services/teams/organization-accounts.ts';
import { addMember, createOrganization, createTeam, leave, organizationOwnedBy, removeMemberByEmail } from '../../src/services/teams/teams.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrator.ts';
import { createIdentityAssertionStore } from '../../src/storage/stores/identity-assertions.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { createOAuthStore } from '../../src/storage/stores/oauth.ts';
import { userRecord } from '../storage/seed.ts';

const T0 = 1_700_000_000_000;

interface Enterprise {
  ctx: ServiceContext;
  oauth: ReturnType<typeof createOAuthStore>;
  assertions: ReturnType<typeof createIdentityAssertionStore>;
  advance(ms: number): void;
  owner: string;
  organizationId: string;
  provider: IdentityProvider;
  ada: string;
  bob: string;
  agent: string;
  user(name: string): Promise<string>;
  client(name: string): Promise<string>;
  /** A grant the provider made for the user and client, with a live access token issued now; returns the grant and the token. */
  grant(provider: IdentityProvider, userId: string, clientId: string, scopes: string[]): Promise<{ grant: GrantRecord; token: string }>;
}

const it = test.extend<{ e: Enterprise }>({
  // Vitest reads a fixture's dependencies from its first parameter's pattern: this one has none.
  e: async ({}, use) => {
    const handle = openDatabase('sqlite::memory:');
    await migrateToLatest(handle);
    let now = T0;
    const ctx = createServiceContext(handle.db, () => now, { passwordHashing: 'owasp' });
    const oauth = createOAuthStore(handle.db);
    const assertions = createIdentityAssertionStore(handle.db);
    const user = async (name: string) => {
      const u = userRecord({ name, email: `${name.toLowerCase()}@acme.example`, createdAt: now, updatedAt: now });
      expect(await ctx.stores.users.insert(u)).toBe(true);
      return u.id;
    };
    const client = async (name: string) => {
      const id = `client-${name.toLowerCase()}`;
      await ctx.stores.clients.insert({ id, name, description: '', homepageUrl: 'https://agent.example', logoUrl: null, ownerId: owner, kind: 'confidential', state: 'approved', redirectUris: ['https://agent.example/cb'], scopes: ['PROFILE_READ', 'BOOKING_READ'], createdAt: now });
      return id;
    };
    const grant: Enterprise['grant'] = async (provider, userId, clientId, scopes) => {
      const record: GrantRecord = { id: timeOrderedId(now), userId, clientId, scopes, createdAt: now, revokedAt: null };
      await assertions.createTrustGrant(record, provider.id);
      const core = { clock: () => now, ttl: { accessToken: 3600 } } as unknown as OAuthContext;
      const access = mintAccessToken(core, { grantId: record.id, codeHash: null, clientId, userId, scopes, resources: null }, null, null);
      await oauth.createAccessToken(access.accessRow);
      return { grant: record, token: access.accessToken };
    };
    const owner = await user('Olive');
    const org = await createOrganization(ctx, { name: 'Acme', ownerId: owner });
    const ada = await user('Ada');
    const bob = await user('Bob');
    await addMember(ctx, { organizationId: org.id }, ada, 'member');
    await addMember(ctx, { organizationId: org.id }, bob, 'member');
    const provider = await addIdentityProvider(ctx, { organizationId: org.id, issuer: 'https://idp.acme.example', jwksUri: 'https://idp.acme.example/keys', domains: ['acme.example'] }, { actorId: owner });
    const agent = await client('Agent');
    await use({ ctx, oauth, assertions, advance: (ms) => (now += ms), owner, organizationId: org.id, provider, ada, bob, agent, user, client, grant });
    await handle.close();
  },
});

const liveToken = async (e: Enterprise, token: string) => (await e.oauth.findAccessToken(hashToken(token)))!.revokedAt === null;
const revokedEvents = async (e: Enterprise) => (await e.ctx.stores.auditLog.list({ limit: 100 })).filter((a) => a.type === 'grant.revoked');

it('the owner sees each agent once per member: the union of its grants\' scopes, when it last got a token; another provider\'s grants and the member\'s own consent are not there', async ({ e }) => {
  await e.grant(e.provider, e.ada, e.agent, ['PROFILE_READ']);
  e.advance(60_000);
  await e.grant(e.provider, e.ada, e.agent, ['BOOKING_READ']);
  e.advance(60_000);
  await e.grant(e.provider, e.bob, e.agent, ['PROFILE_READ']);
  // The member's own consent to the same agent, and another organization's provider.
  await e.oauth.createGrant({ id: timeOrderedId(T0), userId: e.ada, clientId: e.agent, scopes: ['PROFILE_READ'], createdAt: T0, revokedAt: null });
  const globex = await createOrganization(e.ctx, { name: 'Globex', ownerId: e.owner });
  const other = await addIdentityProvider(e.ctx, { organizationId: globex.id, issuer: 'https://idp.globex.example', jwksUri: 'https://idp.globex.example/keys', domains: ['globex.example'] }, { actorId: e.owner });
  await addMember(e.ctx, { organizationId: globex.id }, e.ada, 'member');
  await e.grant(other, e.ada, e.agent, ['PROFILE_READ']);

  const list = await listAgentAccess(e.ctx, e.organizationId, e.provider.id);
  expect(list.map((a) => ({ client: a.clientName, user: a.userEmail, scopes: a.scopes, first: a.firstGrantedAt, last: a.lastUsedAt, grants: a.grantIds.length }))).toEqual([
    { client: 'Agent', user: 'bob@acme.example', scopes: ['PROFILE_READ'], first: T0 + 120_000, last: T0 + 120_000, grants: 1 },
    { client: 'Agent', user: 'ada@acme.example', scopes: ['BOOKING_READ', 'PROFILE_READ'], first: T0, last: T0 + 60_000, grants: 2 },
  ]);
  // Another organization's provider is not this organization's to read.
  await expect(listAgentAccess(e.ctx, e.organizationId, other.id)).rejects.toMatchObject({ kind: 'not_found' });
});

it('the owner\'s Revoke ends every grant of that agent for that member, and their tokens, in one step, each audited under the owner; the agent keeps its access to others', async ({ e }) => {
  const first = await e.grant(e.provider, e.ada, e.agent, ['PROFILE_READ']);
  const second = await e.grant(e.provider, e.ada, e.agent, ['BOOKING_READ']);
  const bobs = await e.grant(e.provider, e.bob, e.agent, ['PROFILE_READ']);
  const other = await e.grant(e.provider, e.ada, await e.client('Helper'), ['PROFILE_READ']);

  const { access, revoked } = await revokeAgentAccess(e.ctx, { organizationId: e.organizationId, identityProviderId: e.provider.id, grantId: first.grant.id }, { actorId: e.owner });
  expect(access).toMatchObject({ clientName: 'Agent', userId: e.ada });
  expect(revoked.map((g) => g.id).sort()).toEqual([first.grant.id, second.grant.id].sort());
  expect(await liveToken(e, first.token)).toBe(false);
  expect(await liveToken(e, second.token)).toBe(false);
  expect(await liveToken(e, bobs.token)).toBe(true);
  expect(await liveToken(e, other.token)).toBe(true);
  expect((await revokedEvents(e)).map((a) => ({ actorId: a.actorId, userId: a.userId, clientId: a.clientId, data: a.data })).sort((a, b) => String(a.data?.grantId).localeCompare(String(b.data?.grantId)))).toEqual(
    [first, second]
      .map(({ grant }) => ({ actorId: e.owner, userId: e.ada, clientId: e.agent, data: { grantId: grant.id, organizationId: e.organizationId, identityProviderId: e.provider.id, reason: "revoked by the organization's owner" } }))
      .sort((a, b) => a.data.grantId.localeCompare(b.data.grantId)),
  );

  // Ended once: naming it again, or a grant the provider never made, is not found and changes nothing.
  await expect(revokeAgentAccess(e.ctx, { organizationId: e.organizationId, identityProviderId: e.provider.id, grantId: second.grant.id }, { actorId: e.owner })).rejects.toMatchObject({ kind: 'not_found' });
  const own = { id: timeOrderedId(T0), userId: e.bob, clientId: e.agent, scopes: ['PROFILE_READ'], createdAt: T0, revokedAt: null };
  await e.oauth.createGrant(own);
  await expect(revokeAgentAccess(e.ctx, { organizationId: e.organizationId, identityProviderId: e.provider.id, grantId: own.id }, { actorId: e.owner })).rejects.toMatchObject({ kind: 'not_found' });
  expect((await e.oauth.findGrant(own.id))!.revokedAt).toBeNull();
  expect(await revokedEvents(e)).toHaveLength(2);
});

it('the provider of another organization is not found through this one, and its grants stay', async ({ e }) => {
  const globex = await createOrganization(e.ctx, { name: 'Globex', ownerId: e.owner });
  const other = await addIdentityProvider(e.ctx, { organizationId: globex.id, issuer: 'https://idp.globex.example', jwksUri: 'https://idp.globex.example/keys', domains: ['globex.example'] }, { actorId: e.owner });
  const theirs = await e.grant(other, e.ada, e.agent, ['PROFILE_READ']);
  await expect(revokeAgentAccess(e.ctx, { organizationId: e.organizationId, identityProviderId: other.id, grantId: theirs.grant.id }, { actorId: e.owner })).rejects.toMatchObject({ kind: 'not_found' });
  await expect(revokeAgentAccess(e.ctx, { organizationId: e.organizationId, identityProviderId: e.provider.id, grantId: theirs.grant.id }, { actorId: e.owner })).rejects.toMatchObject({ kind: 'not_found' });
  expect(await liveToken(e, theirs.token)).toBe(true);
});

it('leaving the organization ends what its identity providers granted for the member, in the same step, audited; the member\'s own consent and other members\' access stay', async ({ e }) => {
  const adas = await e.grant(e.provider, e.ada, e.agent, ['PROFILE_READ']);
  const bobs = await e.grant(e.provider, e.bob, e.agent, ['PROFILE_READ']);
  const own = { id: timeOrderedId(T0), userId: e.ada, clientId: e.agent, scopes: ['PROFILE_READ'], createdAt: T0, revokedAt: null };
  await e.oauth.createGrant(own);
  // Leaving one of the organization's teams is not leaving the organization.
  const team = await createTeam(e.ctx, { name: 'Support', ownerId: e.owner, organizationId: e.organizationId });
  const teamMembership = await addMember(e.ctx, { teamId: team.id }, e.ada, 'member');
  await leave(e.ctx, e.ada, teamMembership.id);
  expect(await liveToken(e, adas.token)).toBe(true);

  const membership = (await e.ctx.stores.teams.findMembershipOfUser({ organizationId: e.organizationId }, e.ada))!;
  await leave(e.ctx, e.ada, membership.id);
  expect(await liveToken(e, adas.token)).toBe(false);
  expect((await e.oauth.findGrant(adas.grant.id))!.revokedAt).toBe(T0);
  expect(await liveToken(e, bobs.token)).toBe(true);
  expect((await e.oauth.findGrant(own.id))!.revokedAt).toBeNull();
  expect(await revokedEvents(e)).toEqual([
    expect.objectContaining({ actorId: null, userId: e.ada, clientId: e.agent, data: { grantId: adas.grant.id, organizationId: e.organizationId, identityProviderId: e.provider.id, reason: 'left the organization' } }),
  ]);
});

it('removal by the operator or by an admin through the API ends it the same way', async ({ e }) => {
  const bobs = await e.grant(e.provider, e.bob, e.agent, ['PROFILE_READ']);
  const adas = await e.grant(e.provider, e.ada, e.agent, ['PROFILE_READ']);
  await removeMemberByEmail(e.ctx, { organizationId: e.organizationId }, 'bob@acme.example', CLI_OPERATOR);
  expect(await liveToken(e, bobs.token)).toBe(false);
  expect(await liveToken(e, adas.token)).toBe(true);
  expect(await deleteOrganizationUser(e.ctx, e.organizationId, e.ada, e.owner, 'last owner')).toBe('removed from the organization');
  expect(await liveToken(e, adas.token)).toBe(false);
});

it('the identity providers are managed by the organization\'s owners only: not its admins, nor anyone of another organization', async ({ e }) => {
  const admin = await e.user('Adam');
  await addMember(e.ctx, { organizationId: e.organizationId }, admin, 'admin');
  const coOwner = await e.user('Cora');
  await addMember(e.ctx, { organizationId: e.organizationId }, coOwner, 'owner');
  expect(await organizationOwnedBy(e.ctx.stores, e.organizationId, e.owner)).toMatchObject({ id: e.organizationId, name: 'Acme' });
  expect(await organizationOwnedBy(e.ctx.stores, e.organizationId, coOwner)).toMatchObject({ id: e.organizationId });
  expect(await organizationOwnedBy(e.ctx.stores, e.organizationId, admin)).toBeUndefined();
  expect(await organizationOwnedBy(e.ctx.stores, e.organizationId, e.ada)).toBeUndefined();
  expect(await organizationOwnedBy(e.ctx.stores, 'no-such-organization', e.owner)).toBeUndefined();
});

it("the member's authorized apps show what the provider granted as a card of its own beside the member's own consent; the member's Revoke ends that card's grants only", async ({ e }) => {
  const own = { id: timeOrderedId(T0), userId: e.ada, clientId: e.agent, scopes: ['PROFILE_READ'], createdAt: T0, revokedAt: null };
  await e.oauth.createGrant(own);
  e.advance(1_000);
  const first = await e.grant(e.provider, e.ada, e.agent, ['PROFILE_READ']);
  e.advance(1_000);
  const second = await e.grant(e.provider, e.ada, e.agent, ['BOOKING_READ']);
  const apps = await listAuthorizedApps(e.ctx, e.ada);
  expect(apps.map((a) => ({ grantId: a.grantId, grantedBy: a.grantedBy, scopes: a.scopes, lastUsedAt: a.lastUsedAt }))).toEqual([
    { grantId: own.id, grantedBy: null, scopes: ['PROFILE_READ'], lastUsedAt: null },
    { grantId: second.grant.id, grantedBy: { identityProviderId: e.provider.id, organizationName: 'Acme' }, scopes: ['BOOKING_READ', 'PROFILE_READ'], lastUsedAt: T0 + 2_000 },
  ]);

  const revoked = await revokeAuthorizedApp(e.ctx, e.ada, first.grant.id);
  expect(revoked.revokedGrantIds.sort()).toEqual([first.grant.id, second.grant.id].sort());
  expect(await liveToken(e, first.token)).toBe(false);
  expect((await e.oauth.findGrant(own.id))!.revokedAt).toBeNull();
  expect((await listAuthorizedApps(e.ctx, e.ada)).map((a) => a.grantId)).toEqual([own.id]);
  expect((await revokedEvents(e)).map((a) => a.data)).toEqual(
    expect.arrayContaining([first, second].map(({ grant }) => ({ grantId: grant.id, identityProviderId: e.provider.id, reason: 'revoked by the user in authorized apps' }))),
  );
  // Revoking the member's own consent leaves the provider's next grant alone, and the other way round.
  const third = await e.grant(e.provider, e.ada, e.agent, ['PROFILE_READ']);
  await revokeAuthorizedApp(e.ctx, e.ada, own.id);
  expect(await liveToken(e, third.token)).toBe(true);
});
