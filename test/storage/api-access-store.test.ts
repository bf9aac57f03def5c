// The platform API's access port (src/platform/access-check.ts, ApiAccessStore): the token with
// its client's state, and the team or organization of the path with the token user's roles,
// checked against the real database on every backend. Each test is named after the contract.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiAccessStore } from '../../src/platform/access-check.ts';
import type { AccessTokenRecord, OAuthStore } from '../../src/oauth/storage.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { accessTokenRecord, grantRecord, seedClient, seedOrganization, seedUser, T0, uniqueId } from './seed.ts';
import { createApiAccessStore, createIdentityAssertionStore, createOAuthStore } from './stores.ts';

describe.each(backends)('ApiAccessStore contract on $name', ({ name, available }) => {
  let database: TestDatabase;
  let oauth: OAuthStore;
  let store: ApiAccessStore;
  let userId: string;
  let clientId: string;
  let token: AccessTokenRecord;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    oauth = createOAuthStore(database.handle.db);
    store = createApiAccessStore(database.handle.db);
  });
  afterAll(async () => database?.drop());

  beforeEach(async () => {
    if (!available) return;
    userId = await seedUser(database.handle.db);
    clientId = await seedClient(database.handle.db, userId);
    const grant = grantRecord(userId, clientId);
    await oauth.createGrant(grant);
    token = accessTokenRecord(grant, { codeHash: 'code-hash' });
    await oauth.createAccessToken(token);
  });

  const organization = () => seedOrganization(database.handle.db);

  async function team(organizationId: string | null): Promise<string> {
    const id = uniqueId('team');
    await database.handle.db
      .insertInto('teams')
      .values({ id, organization_id: organizationId, name: 'Ops', slug: id, bio: '', time_zone: 'UTC', brand_color: '#000000', created_at: T0, updated_at: T0 })
      .execute();
    return id;
  }

  async function member(user: string, target: { teamId?: string; organizationId?: string }, role: 'member' | 'admin' | 'owner') {
    await database.handle.db
      .insertInto('memberships')
      .values({ id: uniqueId('membership'), user_id: user, team_id: target.teamId ?? null, organization_id: target.organizationId ?? null, role, created_at: T0, updated_at: T0 })
      .execute();
  }

  it.skipIf(!available)('findAccess: without a lookup, returns the token with its client\'s current state and no facts; undefined for an unknown hash', async () => {
    expect(await store.findAccess(token.hash, {})).toEqual({ token: { ...token, clientState: 'approved' }, facts: {} });
    await database.handle.db.updateTable('oauth_clients').set({ state: 'suspended' }).where('id', '=', clientId).execute();
    expect((await store.findAccess(token.hash, {}))?.token.clientState).toBe('suspended');
    expect(await store.findAccess('no-such-token', {})).toBeUndefined();
  });

  it.skipIf(!available)('findAccess: returns revoked and expired tokens as they are, for the caller to refuse', async () => {
    await oauth.revokeAccessToken(token.hash, T0 + 1);
    expect((await store.findAccess(token.hash, {}))?.token.revokedAt).toBe(T0 + 1);
    const orgId = await organization();
    expect((await store.findAccess(token.hash, { organizationId: orgId }))?.token.revokedAt).toBe(T0 + 1);
  });

  it.skipIf(!available)('findAccess: an unknown token is undefined whatever the lookup', async () => {
    const orgId = await organization();
    const teamId = await team(orgId);
    expect(await store.findAccess('no-such-token', { teamId })).toBeUndefined();
    expect(await store.findAccess('no-such-token', { organizationId: orgId })).toBeUndefined();
  });

  it.skipIf(!available)('findAccess with teamId: the team, its organization, the token user\'s role in each', async () => {
    const orgId = await organization();
    const teamId = await team(orgId);
    await member(userId, { teamId }, 'member');
    await member(userId, { organizationId: orgId }, 'admin');
    expect(await store.findAccess(token.hash, { teamId })).toEqual({
      token: { ...token, clientState: 'approved' },
      facts: { team: { id: teamId, organizationId: orgId, role: 'member', organizationRole: 'admin' } },
    });
  });

  it.skipIf(!available)('findAccess with teamId: roles are null where the token user is no member; another user\'s membership does not count', async () => {
    const orgId = await organization();
    const teamId = await team(orgId);
    const someoneElse = await seedUser(database.handle.db);
    await member(someoneElse, { teamId }, 'owner');
    await member(someoneElse, { organizationId: orgId }, 'owner');
    expect((await store.findAccess(token.hash, { teamId }))?.facts).toEqual({
      team: { id: teamId, organizationId: orgId, role: null, organizationRole: null },
    });
    const loneTeam = await team(null);
    expect((await store.findAccess(token.hash, { teamId: loneTeam }))?.facts).toEqual({
      team: { id: loneTeam, organizationId: null, role: null, organizationRole: null },
    });
  });

  it.skipIf(!available)('findAccess with teamId: team is null when no such team exists, and the token is still returned', async () => {
    expect(await store.findAccess(token.hash, { teamId: 'no-such-team' })).toEqual({ token: { ...token, clientState: 'approved' }, facts: { team: null } });
  });

  it.skipIf(!available)('findAccess with organizationId: the organization and the token user\'s role; null role for a non-member; null when no such organization', async () => {
    const orgId = await organization();
    const other = await organization();
    await member(userId, { organizationId: orgId }, 'owner');
    expect((await store.findAccess(token.hash, { organizationId: orgId }))?.facts).toEqual({ organization: { id: orgId, role: 'owner' } });
    expect((await store.findAccess(token.hash, { organizationId: other }))?.facts).toEqual({ organization: { id: other, role: null } });
    expect(await store.findAccess(token.hash, { organizationId: 'no-such-org' })).toEqual({
      token: { ...token, clientState: 'approved' },
      facts: { organization: null },
    });
  });

  it.skipIf(!available)('findAccess: a pending invitation grants no role (docs/rules.md#membership-invitations)', async () => {
    const orgId = await organization();
    const teamId = await team(orgId);
    for (const target of [{ team_id: teamId, organization_id: null }, { team_id: null, organization_id: orgId }]) {
      await database.handle.db
        .insertInto('membership_invitations')
        .values({ id: uniqueId('invitation'), ...target, email: null, user_id: userId, role: 'admin', invited_by: null, created_at: T0, updated_at: T0 })
        .execute();
    }
    expect((await store.findAccess(token.hash, { teamId }))?.facts.team).toMatchObject({ role: null, organizationRole: null });
    expect((await store.findAccess(token.hash, { organizationId: orgId }))?.facts.organization).toEqual({ id: orgId, role: null });
  });
  it.skipIf(!available)('findAccess: a token an identity provider granted carries its organization whatever the lookup; null once the provider is gone; a user\'s own grant none (docs/rules.md#enterprise-managed-reach)', async () => {
    const orgId = await organization();
    const teamId = await team(orgId);
    const providerId = uniqueId('idp');
    await database.handle.db
      .insertInto('identity_providers')
      .values({ id: providerId, organization_id: orgId, issuer: `https://${providerId}.example`, jwks_uri: `https://${providerId}.example/keys`, domains: 'acme.example', scopes: null, created_at: T0, created_by: 'cli' })
      .execute();
    const grant = grantRecord(userId, clientId);
    await createIdentityAssertionStore(database.handle.db).createTrustGrant(grant, providerId);
    const granted = accessTokenRecord(grant, { codeHash: null });
    await oauth.createAccessToken(granted);
    for (const lookup of [{}, { teamId }, { organizationId: orgId }]) {
      expect((await store.findAccess(granted.hash, lookup))?.token.organizationId, JSON.stringify(lookup)).toBe(orgId);
      expect((await store.findAccess(token.hash, lookup))?.token, JSON.stringify(lookup)).not.toHaveProperty('organizationId');
    }
    expect((await oauth.findAccessToken(granted.hash))?.organizationId).toBe(orgId);
    await database.handle.db.deleteFrom('identity_providers').where('id', '=', providerId).execute();
    expect((await store.findAccess(granted.hash, {}))?.token.organizationId).toBeNull();
    expect((await store.findAccess(granted.hash, { organizationId: orgId }))?.token.organizationId).toBeNull();
  });
});
