// The ClientStore contract (src/services/clients/store.ts) on every backend: what each
// method returns for a missing client, a stale version, an empty held change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../../src/services/context.ts';
import type { NewClientRecord } from '../../src/services/clients/store.ts';
import { createUser } from '../../src/services/accounts/users.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { CLI_OPERATOR } from '../../src/services/actors.ts';
import { addIdentityProvider } from '../../src/services/identity-providers/identity-providers.ts';
import { createOrganization } from '../../src/services/teams/teams.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { accessTokenRecord, grantRecord, refreshTokenRecord, seedClient, T0 } from './seed.ts';
import { createIdentityAssertionStore, createOAuthStore } from './stores.ts';

describe.each(backends)('ClientStore contract on $name', ({ name, available }) => {
  let database: TestDatabase;
  let ctx: ServiceContext;
  let ownerId: string;
  let n = 0;
  const newClient = (over: Partial<NewClientRecord> = {}): NewClientRecord => ({
    id: `client-${++n}`,
    name: 'App',
    description: '',
    homepageUrl: '',
    logoUrl: null,
    ownerId,
    kind: 'confidential',
    state: 'pending',
    redirectUris: ['https://app.example/cb'],
    scopes: ['PROFILE_READ'],
    createdAt: 1000,
    ...over,
  });

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    ctx = createServiceContext(database.handle.db, () => 5000, testServiceOptions);
    ownerId = (await createUser(ctx, { email: `owner-${name}@example.com`, name: 'Owner', password: 'correct horse battery' })).id;
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('insert then find gives the record back, camelCase, at version 1 with nothing held', async () => {
    const c = newClient();
    await ctx.stores.clients.insert(c);
    expect(await ctx.stores.clients.find(c.id)).toEqual({
      ...c,
      reviewNote: null,
      reviewedBy: null,
      reviewedAt: null,
      resourceServer: false,
      requirePushedAuthorizationRequests: false,
      dpopBoundAccessTokens: false,
      fapi2: false,
      tokenEndpointAuthMethod: null,
      jwks: null,
      idTokenSignedResponseAlg: null,
      postLogoutRedirectUris: [],
      proposedRedirectUris: [],
      proposedScopes: [],
      version: 1,
      updatedAt: 1000,
    });
    expect(await ctx.stores.clients.find('no-such-client')).toBeUndefined();
  });

  it.skipIf(!available)('requirePushedAuthorizationRequests: stored at insert, changed by update (docs/rules.md#pushed-authorization)', async () => {
    const c = newClient({ requirePushedAuthorizationRequests: true });
    await ctx.stores.clients.insert(c);
    expect((await ctx.stores.clients.find(c.id))?.requirePushedAuthorizationRequests).toBe(true);
    await ctx.stores.clients.update(c.id, { requirePushedAuthorizationRequests: false });
    expect((await ctx.stores.clients.find(c.id))?.requirePushedAuthorizationRequests).toBe(false);
  });

  it.skipIf(!available)("OpenID Connect Registration §2, RP-Initiated Logout §3.1: the ID token's algorithm and where logout may return are stored at insert and changed by update", async () => {
    const c = newClient({ idTokenSignedResponseAlg: 'ES256', postLogoutRedirectUris: ['https://app.example/bye'] });
    await ctx.stores.clients.insert(c);
    expect(await ctx.stores.clients.find(c.id)).toMatchObject({ idTokenSignedResponseAlg: 'ES256', postLogoutRedirectUris: ['https://app.example/bye'] });
    await ctx.stores.clients.update(c.id, { idTokenSignedResponseAlg: null, postLogoutRedirectUris: [] });
    expect(await ctx.stores.clients.find(c.id)).toMatchObject({ idTokenSignedResponseAlg: null, postLogoutRedirectUris: [] });
  });

  it.skipIf(!available)('fapi2: stored at insert, changed by update, read by the core (docs/rules.md#fapi2)', async () => {
    const c = { ...newClient(), fapi2: true };
    await ctx.stores.clients.insert(c);
    expect((await ctx.stores.clients.find(c.id))?.fapi2).toBe(true);
    expect((await createOAuthStore(database.handle.db).findClient(c.id))?.fapi2).toBe(true);
    await ctx.stores.clients.update(c.id, { fapi2: false, updatedAt: 6000 });
    expect((await ctx.stores.clients.find(c.id))?.fapi2).toBe(false);
  });

  it.skipIf(!available)('token_endpoint_auth_method and jwks: stored at insert, changed by update, read by the core (docs/rules.md#client-authentication)', async () => {
    const jwks = { keys: [{ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }] };
    const c = { ...newClient(), tokenEndpointAuthMethod: 'private_key_jwt' as const, jwks };
    await ctx.stores.clients.insert(c);
    expect(await ctx.stores.clients.find(c.id)).toMatchObject({ tokenEndpointAuthMethod: 'private_key_jwt', jwks });
    expect(await createOAuthStore(database.handle.db).findClient(c.id)).toMatchObject({ tokenEndpointAuthMethod: 'private_key_jwt', jwks });
    await ctx.stores.clients.update(c.id, { tokenEndpointAuthMethod: 'client_secret_post', jwks: null, updatedAt: 6000 });
    expect(await ctx.stores.clients.find(c.id)).toMatchObject({ tokenEndpointAuthMethod: 'client_secret_post', jwks: null });
  });

  it.skipIf(!available)('a legacy client keeps null scopes', async () => {
    const c = newClient({ scopes: null, state: 'approved' });
    await ctx.stores.clients.insert(c);
    expect((await ctx.stores.clients.find(c.id))?.scopes).toBeNull();
  });

  it.skipIf(!available)('lock returns undefined for a missing client and for another version; otherwise the client as left', async () => {
    const c = newClient();
    await ctx.stores.clients.insert(c);
    expect(await ctx.stores.clients.lock('no-such-client', 2000)).toBeUndefined();
    expect(await ctx.stores.clients.lock(c.id, 2000, { expectedVersion: 7 })).toBeUndefined();
    const locked = await ctx.stores.transaction((tx) => tx.clients.lock(c.id, 2000, { expectedVersion: 1, raiseVersion: true }));
    expect(locked).toMatchObject({ id: c.id, version: 2, updatedAt: 2000 });
    expect(await ctx.stores.clients.lock(c.id, 3000)).toMatchObject({ version: 2, updatedAt: 3000 });
  });

  it.skipIf(!available)('update writes the given fields, empty held lists as no held change, and says whether the client exists', async () => {
    const c = newClient();
    await ctx.stores.clients.insert(c);
    expect(await ctx.stores.clients.update(c.id, { proposedRedirectUris: ['https://app.example/new'], proposedScopes: ['PROFILE_WRITE'] }, { raiseVersion: true })).toBe(true);
    expect(await ctx.stores.clients.find(c.id)).toMatchObject({ proposedRedirectUris: ['https://app.example/new'], proposedScopes: ['PROFILE_WRITE'], version: 2 });
    await ctx.stores.clients.update(c.id, { proposedRedirectUris: [], proposedScopes: [], resourceServer: true });
    expect(await ctx.stores.clients.find(c.id)).toMatchObject({ proposedRedirectUris: [], proposedScopes: [], resourceServer: true, version: 2 });
    expect(await ctx.stores.clients.update('no-such-client', { name: 'x' })).toBe(false);
  });

  it.skipIf(!available)('hasApprovedRedirectOrigin: an approved client\'s live redirect URIs, compared by origin; document clients only when asked (docs/rules.md#mcp-server)', async () => {
    const has = (origin: string, documentClients = true) => ctx.stores.clients.hasApprovedRedirectOrigin(origin, { documentClients });
    await ctx.stores.clients.insert(newClient({ state: 'approved', redirectUris: ['https://Calendar.Example.ORG:443/oauth/back?x=1', 'http://localhost:6274/cb', 'https://bücher.example/cb'] }));
    await ctx.stores.clients.insert(newClient({ state: 'pending', redirectUris: ['https://pending.example.org/cb'] }));
    await ctx.stores.clients.insert(newClient({ state: 'suspended', redirectUris: ['https://suspended.example.org/cb'] }));
    await ctx.stores.clients.insert(newClient({ state: 'approved', redirectUris: ['https://under_score.example.org/cb', 'com.example.app:/cb'] }));
    const held = newClient({ state: 'approved', redirectUris: ['https://live.example.org/cb'] });
    await ctx.stores.clients.insert(held);
    await ctx.stores.clients.update(held.id, { proposedRedirectUris: ['https://proposed.example.org/cb'] });
    await ctx.stores.clients.insert(newClient({ id: 'https://agents.example.com/client.json', kind: 'public', state: 'approved', redirectUris: ['https://agent-ui.example.com/callback'] }));

    for (const origin of ['https://calendar.example.org', 'http://localhost:6274', 'https://xn--bcher-kva.example', 'https://under_score.example.org', 'https://live.example.org', 'https://agent-ui.example.com']) {
      expect(await has(origin), origin).toBe(true);
    }
    for (const origin of [
      'https://calendar.example.org:8443', // another port
      'http://calendar.example.org', // another scheme
      'https://calendar.example', // a prefix of the host
      'http://localhost:62', // a prefix of the port
      'https://underXscore.example.org', // _ is no wildcard
      'https://pending.example.org',
      'https://suspended.example.org',
      'https://proposed.example.org',
      'null', // the origin of com.example.app:/cb, and of any page without one
      'https://CALENDAR.example.org', // not as an Origin header writes it
      'https://calendar.example.org/',
      'not an origin',
    ]) {
      expect(await has(origin), origin).toBe(false);
    }
    expect(await has('https://agent-ui.example.com', false)).toBe(false);
    expect(await has('https://calendar.example.org', false)).toBe(true);
  });

  it.skipIf(!available)('secrets: listed oldest first while active; a removed one is gone from the list', async () => {
    const c = newClient();
    await ctx.stores.clients.insert(c);
    await ctx.stores.clients.insertSecret({ id: `${c.id}-s1`, clientId: c.id, hash: 'h1', lastFour: 'aaaa', createdAt: 1 });
    await ctx.stores.clients.insertSecret({ id: `${c.id}-s2`, clientId: c.id, hash: 'h2', lastFour: 'bbbb', createdAt: 2 });
    expect((await ctx.stores.clients.listSecrets(c.id)).map((s) => s.lastFour)).toEqual(['aaaa', 'bbbb']);
    await ctx.stores.clients.removeSecret(`${c.id}-s1`, 3);
    expect(await ctx.stores.clients.listSecrets(c.id)).toEqual([{ id: `${c.id}-s2`, lastFour: 'bbbb', createdAt: 2, lastUsedAt: null }]);
    expect(await ctx.stores.clients.listSecrets('no-such-client')).toEqual([]);
  });

  it.skipIf(!available)('a transaction that throws leaves no write behind', async () => {
    const c = newClient();
    await expect(
      ctx.stores.transaction(async (tx) => {
        await tx.clients.insert(c);
        await tx.audit.append({ type: 'client.created', clientId: c.id }, 1000);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await ctx.stores.clients.find(c.id)).toBeUndefined();
    expect(await ctx.stores.clients.listEvents(c.id, 10)).toEqual([]);
  });

  it.skipIf(!available)('listEvents: newest first, with the actor when known', async () => {
    const c = newClient();
    await ctx.stores.clients.insert(c);
    await ctx.stores.audit.append({ type: 'client.created', actorId: ownerId, clientId: c.id, data: { kind: 'confidential' } }, 1000);
    await ctx.stores.audit.append({ type: 'client.approved', actorId: null, clientId: c.id }, 2000);
    const events = await ctx.stores.clients.listEvents(c.id, 10);
    expect(events.map((e) => e.type)).toEqual(['client.approved', 'client.created']);
    expect(events[0]!.actor).toBeNull();
    expect(events[1]).toMatchObject({ actor: { id: ownerId, name: 'Owner', email: `owner-${name}@example.com`, admin: false }, data: { kind: 'confidential' } });
  });

  it.skipIf(!available)('counts only scopeless authorization requests since the given time', async () => {
    const c = newClient({ scopes: null, state: 'approved' });
    await ctx.stores.clients.insert(c);
    const rows = [
      { client_id: c.id, user_id: null, had_scope: 0, created_at: 100 },
      { client_id: c.id, user_id: null, had_scope: 0, created_at: 200 },
      { client_id: c.id, user_id: null, had_scope: 1, created_at: 200 },
    ];
    await database.handle.db.insertInto('authorization_requests').values(rows).execute();
    expect(await ctx.stores.clients.countScopelessRequests(c.id, 150)).toBe(1);
    expect(await ctx.stores.clients.countScopelessRequests('no-such-client', 0)).toBe(0);
  });
  it.skipIf(!available)('listActiveGrantsOfUser: each active grant with when its newest token pair was issued (its newest refresh token), null without one', async () => {
    const core = createOAuthStore(database.handle.db);
    const userId = (await createUser(ctx, { email: `grants-${name}@example.com`, name: 'Grace', password: 'correct horse battery' })).id;
    const clientId = await seedClient(database.handle.db, ownerId);
    const used = grantRecord(userId, clientId, { createdAt: T0 });
    const unused = grantRecord(userId, clientId, { createdAt: T0 + 1 });
    const revoked = grantRecord(userId, clientId, { createdAt: T0 + 2, revokedAt: T0 + 3 });
    for (const g of [used, unused, revoked]) await core.createGrant(g);
    await core.createAccessToken(accessTokenRecord(used, { createdAt: T0 + 10_000 }));
    // A refresh later than every access token of the grant counts: it is the newest use.
    await core.createRefreshToken(refreshTokenRecord(used, { createdAt: T0 + 20_000 }));
    await core.createAccessToken(accessTokenRecord(used, { createdAt: T0 + 15_000 }));
    const rows = await ctx.stores.clients.listActiveGrantsOfUser(userId);
    expect(rows.map((r) => [r.createdAt, r.lastTokenAt])).toEqual([
      [T0, T0 + 20_000],
      [T0 + 1, null],
    ]);
    expect(rows[0]).toMatchObject({ grantId: used.id, clientId, clientName: 'Calendar Sync', scopes: ['PROFILE_READ'], team: null, grantedBy: null });
  });
  it.skipIf(!available)("listActiveGrantsOfUser, findGrantOfUser, listActiveGrantsFor: an identity provider's grant names it and its organization, dated by its newest access token (it has no refresh token)", async () => {
    const userId = (await createUser(ctx, { email: `idp-${name}@example.com`, name: 'Ida', password: 'correct horse battery' })).id;
    const clientId = await seedClient(database.handle.db, ownerId);
    const org = await createOrganization(ctx, { name: 'Acme', ownerId: userId });
    const provider = await addIdentityProvider(ctx, { organizationId: org.id, issuer: `https://idp-${name}.example`, jwksUri: `https://idp-${name}.example/keys`, domains: ['acme.example'] }, { actorId: CLI_OPERATOR });
    const assertions = createIdentityAssertionStore(database.handle.db);
    const granted = grantRecord(userId, clientId, { createdAt: T0 });
    const consented = grantRecord(userId, clientId, { createdAt: T0 + 1 });
    await assertions.createTrustGrant(granted, provider.id);
    await assertions.oauth.createGrant(consented);
    await assertions.oauth.createAccessToken(accessTokenRecord(granted, { createdAt: T0 + 10_000 }));
    await assertions.oauth.createAccessToken(accessTokenRecord(granted, { createdAt: T0 + 30_000 }));
    const rows = await ctx.stores.clients.listActiveGrantsOfUser(userId);
    expect(rows.map((r) => [r.grantId, r.grantedBy, r.lastTokenAt])).toEqual([
      [granted.id, { identityProviderId: provider.id, organizationName: 'Acme' }, T0 + 30_000],
      [consented.id, null, null],
    ]);
    expect(await ctx.stores.clients.findGrantOfUser(userId, granted.id)).toMatchObject({ id: granted.id, grantedBy: { identityProviderId: provider.id, organizationName: 'Acme' } });
    expect(await ctx.stores.clients.listActiveGrantsFor(userId, clientId)).toEqual([
      { id: consented.id, teamId: null, identityProviderId: null },
      { id: granted.id, teamId: null, identityProviderId: provider.id },
    ]);
  });
  it.skipIf(!available)("findGrantOfUser: the user's own grant, revoked or not, with its client's name; another user's grant is not found", async () => {
    const core = createOAuthStore(database.handle.db);
    const userId = (await createUser(ctx, { email: `named-${name}@example.com`, name: 'Nora', password: 'correct horse battery' })).id;
    const otherId = (await createUser(ctx, { email: `named-other-${name}@example.com`, name: 'Otto', password: 'correct horse battery' })).id;
    const clientId = await seedClient(database.handle.db, ownerId);
    const revoked = grantRecord(userId, clientId, { createdAt: T0, revokedAt: T0 + 5 });
    const theirs = grantRecord(otherId, clientId, { createdAt: T0 });
    for (const g of [revoked, theirs]) await core.createGrant(g);
    expect(await ctx.stores.clients.findGrantOfUser(userId, revoked.id)).toEqual({ id: revoked.id, clientId, clientName: 'Calendar Sync', team: null, grantedBy: null, revokedAt: T0 + 5 });
    expect(await ctx.stores.clients.findGrantOfUser(userId, theirs.id)).toBeUndefined();
    expect(await ctx.stores.clients.findGrantOfUser(otherId, theirs.id)).toMatchObject({ id: theirs.id, revokedAt: null });
  });
});
