// The OAuth core's storage port (src/oauth/storage.ts, OAuthStore): every method's documented
// contract, checked against the real database on every backend (one suite, two backends).
// Each test is named after the contract it checks.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GrantRecord, OAuthStore, PushedRequestRecord } from '../../src/oauth/storage.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import {
  accessTokenRecord,
  codeRecord,
  grantRecord,
  refreshTokenRecord,
  seedClient,
  seedSecret,
  seedUser,
  T0,
} from './seed.ts';
import { createOAuthStore } from './stores.ts';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A promise and the function that settles it: to hold a transaction open. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Whether the promise has settled (it must not have while a lock holds it). */
function track<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  return { promise, settled: () => done };
}

/** The database reports a duplicate key; the store neither replaces nor ignores the row. */
async function expectDuplicateKey(write: Promise<unknown>): Promise<void> {
  const error = await write.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'a duplicate key must be an error').toBeDefined();
  const code = (error as { code?: unknown }).code;
  expect(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']).toContain(code);
}

describe.each(backends)('OAuthStore contract on $name', ({ name, available }) => {
  let database: TestDatabase;
  let store: OAuthStore;
  let userId: string;
  let clientId: string;
  let grant: GrantRecord;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    store = createOAuthStore(database.handle.db);
  });
  afterAll(async () => database?.drop());

  beforeEach(async () => {
    if (!available) return;
    userId = await seedUser(database.handle.db);
    clientId = await seedClient(database.handle.db, userId);
    grant = grantRecord(userId, clientId);
    await store.createGrant(grant);
  });

  async function auditRows(client: string) {
    return database.handle.db.selectFrom('audit_events').selectAll().where('client_id', '=', client).orderBy('id').execute();
  }

  // ---------------------------------------------------------------- clients

  describe('ClientStore', () => {
    it.skipIf(!available)('findClient: returns the client as a camelCase record; undefined for an unknown id', async () => {
      const owner = await seedUser(database.handle.db);
      const id = await seedClient(database.handle.db, owner, {
        kind: 'public',
        state: 'suspended',
        redirectUris: ['https://a.example.com/cb', 'https://b.example.com/cb'],
        scopes: ['BOOKING_READ', 'PROFILE_READ'],
        resourceServer: true,
      });
      expect(await store.findClient(id)).toEqual({
        id,
        name: 'Calendar Sync',
        description: '',
        homepageUrl: 'https://app.example.com',
        ownerId: owner,
        kind: 'public',
        state: 'suspended',
        redirectUris: ['https://a.example.com/cb', 'https://b.example.com/cb'],
        scopes: ['BOOKING_READ', 'PROFILE_READ'],
        resourceServer: true,
        requirePushedAuthorizationRequests: false,
        dpopBoundAccessTokens: false,
        fapi2: false,
        tokenEndpointAuthMethod: null,
        jwks: null,
        idTokenSignedResponseAlg: null,
        postLogoutRedirectUris: [],
      });
      expect(await store.findClient('no-such-client')).toBeUndefined();
    });

    it.skipIf(!available)('findClient: a legacy client has scopes null and a plain client resourceServer false', async () => {
      const id = await seedClient(database.handle.db, userId, { scopes: null });
      expect(await store.findClient(id)).toMatchObject({ scopes: null, resourceServer: false });
    });

    it.skipIf(!available)('findClientWithSecrets: the client with its secrets not removed, in one read; no secrets for a public client; undefined for an unknown id', async () => {
      const active = await seedSecret(database.handle.db, clientId);
      const second = await seedSecret(database.handle.db, clientId);
      await seedSecret(database.handle.db, clientId, T0);
      const other = await seedClient(database.handle.db, userId);
      await seedSecret(database.handle.db, other);
      const found = await store.findClientWithSecrets(clientId);
      expect(found!.client).toEqual(await store.findClient(clientId));
      expect(found!.secrets.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        [active, second].sort().map((id) => ({ id, clientId, hash: expect.any(String), lastUsedAt: null })),
      );
      const publicClient = await seedClient(database.handle.db, userId, { kind: 'public' });
      expect(await store.findClientWithSecrets(publicClient)).toEqual({ client: await store.findClient(publicClient), secrets: [] });
      expect(await store.findClientWithSecrets('no-such-client')).toBeUndefined();
    });

    it.skipIf(!available)('findClientProvenance: the name of the account that owns the client and its last review time, null before any; undefined for an unknown id', async () => {
      const owner = await seedUser(database.handle.db);
      await database.handle.db.updateTable('users').set({ name: 'Priya Publisher' }).where('id', '=', owner).execute();
      const id = await seedClient(database.handle.db, owner);
      expect(await store.findClientProvenance(id)).toEqual({ developerName: 'Priya Publisher', reviewedAt: null });
      await database.handle.db.updateTable('oauth_clients').set({ reviewed_at: T0 + 7 }).where('id', '=', id).execute();
      expect(await store.findClientProvenance(id)).toEqual({ developerName: 'Priya Publisher', reviewedAt: T0 + 7 });
      expect(await store.findClientProvenance('no-such-client')).toBeUndefined();
    });

    it.skipIf(!available)('markSecretUsed: records the time of use; an unknown id is a no-op', async () => {
      const own = await seedClient(database.handle.db, userId);
      const id = await seedSecret(database.handle.db, own);
      await store.markSecretUsed(id, T0 + 5);
      expect((await store.findClientWithSecrets(own))!.secrets[0]!.lastUsedAt).toBe(T0 + 5);
      await expect(store.markSecretUsed('no-such-secret', T0)).resolves.toBeUndefined();
    });
  });

  // ---------------------------------------------------------------- grants

  describe('GrantStore', () => {
    it.skipIf(!available)('createGrant/findGrant: a created grant reads back equal; findGrant is undefined for an unknown id', async () => {
      const legacy = grantRecord(userId, clientId, { scopes: null, createdAt: T0 + 1 });
      await store.createGrant(legacy);
      expect(await store.findGrant(grant.id)).toEqual(grant);
      expect(await store.findGrant(legacy.id)).toEqual(legacy);
      expect(await store.findGrant('no-such-grant')).toBeUndefined();
    });

    it.skipIf(!available)("createGrant/findGrant/listActiveGrants: a team's grant keeps the team it acts for; a user's grant has none", async () => {
      const forTeam = grantRecord(userId, clientId, { teamId: 'team-7', createdAt: T0 + 1 });
      await store.createGrant(forTeam);
      expect(await store.findGrant(forTeam.id)).toEqual(forTeam);
      expect(await store.listActiveGrants(userId, clientId)).toEqual([forTeam, grant]);
      expect(await store.findGrant(grant.id)).not.toHaveProperty('teamId');
    });

    it.skipIf(!available)('createGrant: a duplicate id is a unique violation and leaves the first grant as it was', async () => {
      await expectDuplicateKey(store.createGrant({ ...grant, scopes: ['BOOKING_READ'] }));
      expect(await store.findGrant(grant.id)).toEqual(grant);
    });

    it.skipIf(!available)('listActiveGrants: the active grants of one user for one client, newest first', async () => {
      const newer = grantRecord(userId, clientId, { createdAt: T0 + 10 });
      const revoked = grantRecord(userId, clientId, { createdAt: T0 + 20, revokedAt: T0 + 30 });
      const otherClient = grantRecord(userId, await seedClient(database.handle.db, userId));
      const otherUser = grantRecord(await seedUser(database.handle.db), clientId);
      for (const g of [newer, revoked, otherClient, otherUser]) await store.createGrant(g);
      expect(await store.listActiveGrants(userId, clientId)).toEqual([newer, grant]);
      expect(await store.listActiveGrants(userId, 'no-such-client')).toEqual([]);
    });

    it.skipIf(!available)('lockUserGrants: inside a transaction, holds off another transaction locking the same user until it ends', async () => {
      const held = gate();
      const locked = gate();
      const order: string[] = [];
      const first = store.transaction(async (tx) => {
        await tx.lockUserGrants(userId);
        locked.open();
        await held.opened;
        order.push('first ends');
      });
      await locked.opened;
      const second = track(
        store.transaction(async (tx) => {
          await tx.lockUserGrants(userId);
          order.push('second locked');
        }),
      );
      await pause(150);
      expect(second.settled()).toBe(false);
      held.open();
      await Promise.all([first, second.promise]);
      expect(order).toEqual(['first ends', 'second locked']);
    });

    it.skipIf(!available)('holdActiveGrant: true for an active grant; false for a revoked or unknown one', async () => {
      const revoked = grantRecord(userId, clientId, { revokedAt: T0 });
      await store.createGrant(revoked);
      expect(await store.transaction((tx) => tx.holdActiveGrant(grant.id))).toBe(true);
      expect(await store.transaction((tx) => tx.holdActiveGrant(revoked.id))).toBe(false);
      expect(await store.transaction((tx) => tx.holdActiveGrant('no-such-grant'))).toBe(false);
      // Holding changes nothing.
      expect(await store.findGrant(grant.id)).toEqual(grant);
    });

    it.skipIf(!available)('holdActiveGrant: a concurrent revocation waits for the holding transaction and then closes what it wrote', async () => {
      const held = gate();
      const holding = gate();
      const token = accessTokenRecord(grant);
      const writer = store.transaction(async (tx) => {
        expect(await tx.holdActiveGrant(grant.id)).toBe(true);
        holding.open();
        await held.opened;
        await tx.createAccessToken(token);
      });
      await holding.opened;
      const revocation = track(store.transaction((tx) => tx.revokeGrant(grant.id, T0 + 1)));
      await pause(150);
      expect(revocation.settled()).toBe(false);
      held.open();
      await Promise.all([writer, revocation.promise]);
      expect((await store.findAccessToken(token.hash))?.revokedAt).toBe(T0 + 1);
      expect((await store.findGrant(grant.id))?.revokedAt).toBe(T0 + 1);
    });

    it.skipIf(!available)('revokeGrant: revokes the grant, its access and refresh tokens (dropping successors) and consumes its unredeemed codes', async () => {
      const code = codeRecord(grant);
      const access = accessTokenRecord(grant);
      const refresh = refreshTokenRecord(grant, { spentAt: T0, successorBox: 'box' });
      await store.createCode(code);
      await store.createAccessToken(access);
      await store.createRefreshToken(refresh);
      const other = grantRecord(userId, clientId);
      await store.createGrant(other);
      const otherAccess = accessTokenRecord(other);
      await store.createAccessToken(otherAccess);

      await store.transaction((tx) => tx.revokeGrant(grant.id, T0 + 7));

      expect((await store.findGrant(grant.id))?.revokedAt).toBe(T0 + 7);
      expect((await store.findAccessToken(access.hash))?.revokedAt).toBe(T0 + 7);
      expect(await store.findRefreshToken(refresh.hash)).toMatchObject({ revokedAt: T0 + 7, successorBox: null });
      expect((await store.findCode(code.hash))?.consumedAt).toBe(T0 + 7);
      expect(await store.consumeCode(code.hash, T0 + 8)).toBeUndefined();
      // Another grant of the same user and client is untouched.
      expect((await store.findGrant(other.id))?.revokedAt).toBeNull();
      expect((await store.findAccessToken(otherAccess.hash))?.revokedAt).toBeNull();
    });

    it.skipIf(!available)('revokeGrant: keeps the first revocation time of anything already revoked; an unknown grant is a no-op', async () => {
      const access = accessTokenRecord(grant, { revokedAt: T0 + 1 });
      await store.createAccessToken(access);
      await store.revokeGrant(grant.id, T0 + 2);
      await store.revokeGrant(grant.id, T0 + 3);
      expect((await store.findGrant(grant.id))?.revokedAt).toBe(T0 + 2);
      expect((await store.findAccessToken(access.hash))?.revokedAt).toBe(T0 + 1);
      await expect(store.revokeGrant('no-such-grant', T0)).resolves.toBeUndefined();
    });

    it.skipIf(!available)('revokeCodeTokens: revokes only the tokens descending from that code of that grant; the grant stays active', async () => {
      const codeA = codeRecord(grant);
      const codeB = codeRecord(grant);
      await store.createCode(codeA);
      await store.createCode(codeB);
      const accessA = accessTokenRecord(grant, { codeHash: codeA.hash });
      const refreshA = refreshTokenRecord(grant, { codeHash: codeA.hash, spentAt: T0, successorBox: 'box' });
      const accessB = accessTokenRecord(grant, { codeHash: codeB.hash });
      const refreshB = refreshTokenRecord(grant, { codeHash: codeB.hash });
      await store.createAccessToken(accessA);
      await store.createRefreshToken(refreshA);
      await store.createAccessToken(accessB);
      await store.createRefreshToken(refreshB);

      await store.revokeCodeTokens(grant.id, codeA.hash, T0 + 9);

      expect((await store.findAccessToken(accessA.hash))?.revokedAt).toBe(T0 + 9);
      expect(await store.findRefreshToken(refreshA.hash)).toMatchObject({ revokedAt: T0 + 9, successorBox: null });
      expect((await store.findAccessToken(accessB.hash))?.revokedAt).toBeNull();
      expect((await store.findRefreshToken(refreshB.hash))?.revokedAt).toBeNull();
      expect((await store.findGrant(grant.id))?.revokedAt).toBeNull();
    });
  });

  // ---------------------------------------------------------------- codes

  describe('TeamLookup', () => {
    async function teamWith(role: 'member' | 'admin' | 'owner' | null, organizationRole: 'member' | 'admin' | 'owner' | null = null) {
      const db = database.handle.db;
      const id = `team-${Math.random().toString(36).slice(2)}`;
      let organizationId: string | null = null;
      if (organizationRole !== null) {
        organizationId = `org-${id}`;
        await db.insertInto('organizations').values({ id: organizationId, name: 'Org', slug: organizationId, created_at: T0, updated_at: T0 }).execute();
        await db.insertInto('memberships').values({ id: `om-${id}`, user_id: userId, team_id: null, organization_id: organizationId, role: organizationRole, created_at: T0, updated_at: T0 }).execute();
      }
      await db.insertInto('teams').values({ id, organization_id: organizationId, name: `Team ${id}`, slug: id, bio: '', time_zone: 'UTC', brand_color: '#000000', created_at: T0, updated_at: T0 }).execute();
      if (role !== null) await db.insertInto('memberships').values({ id: `tm-${id}`, user_id: userId, team_id: id, organization_id: null, role, created_at: T0, updated_at: T0 }).execute();
      return id;
    }

    it.skipIf(!available)('findTeamAuthority: an owner or admin of the team, or of its organization, may authorize for it', async () => {
      for (const [role, organizationRole] of [['owner', null], ['admin', null], [null, 'admin'], [null, 'owner'], ['member', 'owner']] as const) {
        const id = await teamWith(role, organizationRole);
        expect(await store.findTeamAuthority(id, userId), `${role} / ${organizationRole}`).toEqual({ id, name: `Team ${id}`, mayAuthorize: true });
      }
    });

    it.skipIf(!available)('holdTeamAuthority: the team by id as the user stands in it; undefined for an unknown id', async () => {
      const id = await teamWith('admin');
      expect(await store.transaction((tx) => tx.holdTeamAuthority(id, userId))).toEqual({ id, name: `Team ${id}`, mayAuthorize: true });
      expect(await store.transaction((tx) => tx.holdTeamAuthority('no-such-team', userId))).toBeUndefined();
    });

    it.skipIf(!available)('holdTeamAuthority: inside a transaction, holds off another transaction taking the same team until it ends', async () => {
      const id = await teamWith('owner');
      const held = gate();
      const holding = gate();
      const order: string[] = [];
      const first = store.transaction(async (tx) => {
        await tx.holdTeamAuthority(id, userId);
        holding.open();
        await held.opened;
        order.push('first ends');
      });
      await holding.opened;
      const second = track(
        store.transaction(async (tx) => {
          await tx.holdTeamAuthority(id, userId);
          order.push('second holds');
        }),
      );
      await pause(150);
      expect(second.settled()).toBe(false);
      held.open();
      await Promise.all([first, second.promise]);
      expect(order).toEqual(['first ends', 'second holds']);
    });

    it.skipIf(!available)("findTeamAuthority: another user's admin role makes nobody else an admin", async () => {
      const id = await teamWith(null);
      const other = await seedUser(database.handle.db);
      await database.handle.db.insertInto('memberships').values({ id: `tm-other-${id}`, user_id: other, team_id: id, organization_id: null, role: 'owner', created_at: T0, updated_at: T0 }).execute();
      expect(await store.findTeamAuthority(id, userId)).toEqual({ id, name: `Team ${id}`, mayAuthorize: false });
      expect(await store.findTeamAuthority(id, other)).toEqual({ id, name: `Team ${id}`, mayAuthorize: true });
    });

    it.skipIf(!available)('findTeamAuthority: a member, a member of its organization only, or a stranger may not; an unknown slug is undefined', async () => {
      for (const [role, organizationRole] of [['member', null], [null, 'member'], [null, null], ['member', 'member']] as const) {
        const id = await teamWith(role, organizationRole);
        expect(await store.findTeamAuthority(id, userId), `${role} / ${organizationRole}`).toEqual({ id, name: `Team ${id}`, mayAuthorize: false });
      }
      expect(await store.findTeamAuthority('no-such-team', userId)).toBeUndefined();
    });
  });

  describe('CodeStore', () => {
    it.skipIf(!available)('createCode/findCode: a created code reads back unconsumed; findCode is undefined for an unknown hash', async () => {
      const code = codeRecord(grant, { codeChallenge: 'challenge', scopes: ['BOOKING_READ', 'PROFILE_READ'] });
      await store.createCode(code);
      expect(await store.findCode(code.hash)).toEqual(code);
      expect(await store.findCode('no-such-code')).toBeUndefined();
    });

    it.skipIf(!available)('createCode/findCode: OpenID Connect Core §3.1.2.1, §2: the request\'s nonce and when the user last logged in read back as written', async () => {
      const code = codeRecord(grant, { nonce: 'n-0S6_WzA2Mj', authTime: T0 - 5_000 });
      await store.createCode(code);
      expect(await store.findCode(code.hash)).toEqual(code);
    });

    it.skipIf(!available)('createCode: stores the code unconsumed, whatever consumedAt the record carries', async () => {
      const code = codeRecord(grant, { consumedAt: T0 + 1 });
      await store.createCode(code);
      expect((await store.findCode(code.hash))?.consumedAt).toBeNull();
      expect(await store.consumeCode(code.hash, T0 + 2)).toBeDefined();
    });

    it.skipIf(!available)('createCode: a duplicate hash is a unique violation and leaves the first code as it was', async () => {
      const code = codeRecord(grant);
      await store.createCode(code);
      await expectDuplicateKey(store.createCode({ ...code, redirectUri: 'https://evil.example.com/' }));
      expect(await store.findCode(code.hash)).toEqual(code);
    });

    it.skipIf(!available)('consumeCode: returns the code with consumedAt set, and findCode then shows it consumed', async () => {
      const code = codeRecord(grant);
      await store.createCode(code);
      expect(await store.consumeCode(code.hash, T0 + 3)).toEqual({ ...code, consumedAt: T0 + 3 });
      expect((await store.findCode(code.hash))?.consumedAt).toBe(T0 + 3);
    });

    it.skipIf(!available)('consumeCode: a code is consumed once; a second consumption returns undefined and keeps the first time', async () => {
      const code = codeRecord(grant);
      await store.createCode(code);
      expect(await store.consumeCode(code.hash, T0 + 1)).toBeDefined();
      expect(await store.consumeCode(code.hash, T0 + 2)).toBeUndefined();
      expect((await store.findCode(code.hash))?.consumedAt).toBe(T0 + 1);
    });

    it.skipIf(!available)('consumeCode: returns undefined for an unknown hash', async () => {
      expect(await store.consumeCode('no-such-code', T0)).toBeUndefined();
    });

    it.skipIf(!available)('consumeCode: does not judge expiry — an expired code is still consumed once and returned for the caller to refuse', async () => {
      const code = codeRecord(grant, { expiresAt: T0 + 1 });
      await store.createCode(code);
      expect(await store.consumeCode(code.hash, T0 + 60_000)).toMatchObject({ hash: code.hash, expiresAt: T0 + 1, consumedAt: T0 + 60_000 });
      expect(await store.consumeCode(code.hash, T0 + 60_001)).toBeUndefined();
    });

    it.skipIf(!available)('consumeCode: of concurrent consumptions exactly one gets the record', async () => {
      for (let round = 0; round < 10; round++) {
        const code = codeRecord(grant);
        await store.createCode(code);
        const results = await Promise.all(Array.from({ length: 5 }, (_, i) => store.consumeCode(code.hash, T0 + i)));
        expect(results.filter((r) => r !== undefined)).toHaveLength(1);
      }
    });

    it.skipIf(!available)('consumeCode: a consumption waiting on another transaction\'s consumption gets nothing once it commits', async () => {
      const code = codeRecord(grant);
      await store.createCode(code);
      const held = gate();
      const consumed = gate();
      const first = store.transaction(async (tx) => {
        const record = await tx.consumeCode(code.hash, T0 + 1);
        consumed.open();
        await held.opened;
        return record;
      });
      await consumed.opened;
      const second = track(store.consumeCode(code.hash, T0 + 2));
      await pause(150);
      expect(second.settled()).toBe(false);
      held.open();
      expect(await first).toBeDefined();
      expect(await second.promise).toBeUndefined();
    });
  });

  // ---------------------------------------------------------------- pushed authorization requests

  describe('PushedRequestStore', () => {
    let serial = 0;
    const pushedRecord = (overrides: Partial<PushedRequestRecord> = {}): PushedRequestRecord => ({
      hash: `pushed-${name}-${++serial}-${T0}`,
      clientId,
      parameters: { client_id: clientId, redirect_uri: 'https://app.example.com/cb', response_type: 'code', scope: 'PROFILE_READ', state: 'a "quoted" state' },
      resources: ['https://api.example.com/v2', 'https://api.example.com/mcp'],
      createdAt: T0,
      expiresAt: T0 + 60_000,
      consumedAt: null,
      ...overrides,
    });

    it.skipIf(!available)('createPushedRequest/findPushedRequest: reads back equal, parameters and resources included; undefined for an unknown hash', async () => {
      const request = pushedRecord();
      await store.createPushedRequest(request);
      expect(await store.findPushedRequest(request.hash)).toEqual(request);
      const bare = pushedRecord({ resources: null, consumedAt: T0 + 1 });
      await store.createPushedRequest(bare);
      expect(await store.findPushedRequest(bare.hash)).toEqual({ ...bare, consumedAt: null });
      expect(await store.findPushedRequest('no-such-request')).toBeUndefined();
    });

    it.skipIf(!available)('createPushedRequest: a duplicate hash is a unique violation and leaves the first request as it was', async () => {
      const request = pushedRecord();
      await store.createPushedRequest(request);
      await expectDuplicateKey(store.createPushedRequest({ ...request, parameters: { redirect_uri: 'https://evil.example.com/' } }));
      expect(await store.findPushedRequest(request.hash)).toEqual(request);
    });

    it.skipIf(!available)('consumePushedRequest: true once, then false, keeping the first time; false for an unknown hash', async () => {
      const request = pushedRecord();
      await store.createPushedRequest(request);
      expect(await store.consumePushedRequest(request.hash, T0 + 1)).toBe(true);
      expect(await store.consumePushedRequest(request.hash, T0 + 2)).toBe(false);
      expect((await store.findPushedRequest(request.hash))?.consumedAt).toBe(T0 + 1);
      expect(await store.consumePushedRequest('no-such-request', T0)).toBe(false);
    });

    it.skipIf(!available)('consumePushedRequest: judges expiry — an expired request is not consumed', async () => {
      const request = pushedRecord({ expiresAt: T0 + 10 });
      await store.createPushedRequest(request);
      expect(await store.consumePushedRequest(request.hash, T0 + 10)).toBe(false);
      expect((await store.findPushedRequest(request.hash))?.consumedAt).toBeNull();
    });

    it.skipIf(!available)('consumePushedRequest: of concurrent consumptions exactly one gets true', async () => {
      for (let round = 0; round < 10; round++) {
        const request = pushedRecord();
        await store.createPushedRequest(request);
        const results = await Promise.all(Array.from({ length: 5 }, (_, i) => store.consumePushedRequest(request.hash, T0 + i)));
        expect(results.filter(Boolean)).toHaveLength(1);
      }
    });

    it.skipIf(!available)("consumePushedRequest: a consumption waiting on another transaction's gets false once it commits", async () => {
      const request = pushedRecord();
      await store.createPushedRequest(request);
      const held = gate();
      const consumed = gate();
      const first = store.transaction(async (tx) => {
        const won = await tx.consumePushedRequest(request.hash, T0 + 1);
        consumed.open();
        await held.opened;
        return won;
      });
      await consumed.opened;
      const second = track(store.consumePushedRequest(request.hash, T0 + 2));
      held.open();
      expect(await first).toBe(true);
      expect(await second.promise).toBe(false);
    });
  });

  // ---------------------------------------------------------------- tokens

  describe('TokenStore', () => {
    it.skipIf(!available)('createTokenPair: stores both tokens and the audit event of their issue', async () => {
      const access = accessTokenRecord(grant, { codeHash: 'code-hash', resources: ['https://api.example/mcp'] });
      const refresh = refreshTokenRecord(grant, { codeHash: 'code-hash' });
      await store.createTokenPair(access, refresh, { type: 'token.issued', clientId, userId, data: { grantId: grant.id } }, T0 + 4);
      expect(await store.findAccessToken(access.hash)).toEqual({ ...access, clientState: 'approved' });
      expect(await store.findRefreshToken(refresh.hash)).toEqual(refresh);
      expect(await auditRows(clientId)).toMatchObject([{ type: 'token.issued', actor_id: null, user_id: userId, data: JSON.stringify({ grantId: grant.id }), created_at: T0 + 4 }]);
    });

    it.skipIf(!available)('createTokenPair: a duplicate refresh token id is a unique violation that stores neither token nor the event', async () => {
      const taken = refreshTokenRecord(grant);
      await store.createRefreshToken(taken);
      const access = accessTokenRecord(grant);
      await expectDuplicateKey(store.createTokenPair(access, refreshTokenRecord(grant, { id: taken.id }), { type: 'token.issued', clientId, userId }, T0 + 4));
      expect(await store.findAccessToken(access.hash)).toBeUndefined();
      expect(await auditRows(clientId)).toEqual([]);
    });

    it.skipIf(!available)('createAccessToken/findAccessToken: a created token reads back with its client\'s current state; undefined for an unknown hash', async () => {
      const token = accessTokenRecord(grant, { codeHash: 'code-hash' });
      await store.createAccessToken(token);
      expect(await store.findAccessToken(token.hash)).toEqual({ ...token, clientState: 'approved' });
      await database.handle.db.updateTable('oauth_clients').set({ state: 'suspended' }).where('id', '=', clientId).execute();
      expect((await store.findAccessToken(token.hash))?.clientState).toBe('suspended');
      expect(await store.findAccessToken('no-such-token')).toBeUndefined();
    });

    it.skipIf(!available)("findAccessToken: a token of a team's grant reads back with the team its grant acts for", async () => {
      const forTeam = grantRecord(userId, clientId, { teamId: 'team-7' });
      await store.createGrant(forTeam);
      const token = accessTokenRecord(forTeam);
      await store.createAccessToken(token);
      expect(await store.findAccessToken(token.hash)).toEqual({ ...token, clientState: 'approved', teamId: 'team-7' });
    });

    it.skipIf(!available)('findAccessToken: returns revoked and expired tokens as they are, for the caller to refuse', async () => {
      const revoked = accessTokenRecord(grant, { revokedAt: T0 + 1 });
      const expired = accessTokenRecord(grant, { expiresAt: T0 - 1 });
      await store.createAccessToken(revoked);
      await store.createAccessToken(expired);
      expect(await store.findAccessToken(revoked.hash)).toMatchObject({ revokedAt: T0 + 1 });
      expect(await store.findAccessToken(expired.hash)).toMatchObject({ expiresAt: T0 - 1, revokedAt: null });
    });

    it.skipIf(!available)('createAccessToken: a duplicate hash is a unique violation and leaves the first token as it was', async () => {
      const token = accessTokenRecord(grant);
      await store.createAccessToken(token);
      await expectDuplicateKey(store.createAccessToken({ ...token, scopes: ['BOOKING_READ'] }));
      expect((await store.findAccessToken(token.hash))?.scopes).toEqual(token.scopes);
    });

    it.skipIf(!available)('revokeAccessToken: revokes once, keeping the first revocation time; an unknown hash is a no-op', async () => {
      const token = accessTokenRecord(grant);
      await store.createAccessToken(token);
      await store.revokeAccessToken(token.hash, T0 + 1);
      await store.revokeAccessToken(token.hash, T0 + 2);
      expect((await store.findAccessToken(token.hash))?.revokedAt).toBe(T0 + 1);
      await expect(store.revokeAccessToken('no-such-token', T0)).resolves.toBeUndefined();
    });

    it.skipIf(!available)('createRefreshToken/findRefreshToken: a created token reads back equal; undefined for an unknown hash', async () => {
      const parent = refreshTokenRecord(grant, { codeHash: 'code-hash' });
      const child = refreshTokenRecord(grant, { codeHash: 'code-hash', parentId: parent.id, scopes: null });
      await store.createRefreshToken(parent);
      await store.createRefreshToken(child);
      expect(await store.findRefreshToken(parent.hash)).toEqual(parent);
      expect(await store.findRefreshToken(child.hash)).toEqual(child);
      expect(await store.findRefreshToken('no-such-token')).toBeUndefined();
    });

    it.skipIf(!available)('createRefreshToken: a duplicate id or a duplicate hash is a unique violation', async () => {
      const token = refreshTokenRecord(grant);
      await store.createRefreshToken(token);
      await expectDuplicateKey(store.createRefreshToken({ ...refreshTokenRecord(grant), id: token.id }));
      await expectDuplicateKey(store.createRefreshToken({ ...refreshTokenRecord(grant), hash: token.hash }));
      expect(await store.findRefreshToken(token.hash)).toEqual(token);
    });

    it.skipIf(!available)('spendRefreshToken: spends an unspent token once, storing spentAt and the successor; a second spend returns false and keeps the first successor', async () => {
      const token = refreshTokenRecord(grant);
      await store.createRefreshToken(token);
      expect(await store.spendRefreshToken(token.id, T0 + 1, 'box-1')).toBe(true);
      expect(await store.findRefreshToken(token.hash)).toMatchObject({ spentAt: T0 + 1, successorBox: 'box-1' });
      expect(await store.spendRefreshToken(token.id, T0 + 2, 'box-2')).toBe(false);
      expect(await store.findRefreshToken(token.hash)).toMatchObject({ spentAt: T0 + 1, successorBox: 'box-1' });
    });

    it.skipIf(!available)('keepRefreshToken: moves an unspent, unrevoked token\'s expiry and nothing else; false, writing nothing, for a spent, revoked or unknown one (docs/rules.md#fapi2)', async () => {
      const kept = refreshTokenRecord(grant, { expiresAt: T0 + 10 });
      await store.createRefreshToken(kept);
      expect(await store.keepRefreshToken(kept.id, T0 + 99)).toBe(true);
      expect(await store.findRefreshToken(kept.hash)).toEqual({ ...kept, expiresAt: T0 + 99 });
      const spent = refreshTokenRecord(grant, { expiresAt: T0 + 10 });
      await store.createRefreshToken(spent);
      await store.spendRefreshToken(spent.id, T0 + 1, 'box');
      expect(await store.keepRefreshToken(spent.id, T0 + 99)).toBe(false);
      const revoked = refreshTokenRecord(grant, { expiresAt: T0 + 10, revokedAt: T0 });
      await store.createRefreshToken(revoked);
      expect(await store.keepRefreshToken(revoked.id, T0 + 99)).toBe(false);
      expect((await store.findRefreshToken(spent.hash))?.expiresAt).toBe(T0 + 10);
      expect((await store.findRefreshToken(revoked.hash))?.expiresAt).toBe(T0 + 10);
      expect(await store.keepRefreshToken('no-such-token', T0 + 99)).toBe(false);
    });

    it.skipIf(!available)('spendRefreshToken: returns false for a revoked token or an unknown id, and writes nothing', async () => {
      const revoked = refreshTokenRecord(grant, { revokedAt: T0 });
      await store.createRefreshToken(revoked);
      expect(await store.spendRefreshToken(revoked.id, T0 + 1, 'box')).toBe(false);
      expect(await store.findRefreshToken(revoked.hash)).toMatchObject({ spentAt: null, successorBox: null });
      expect(await store.spendRefreshToken('no-such-token', T0, 'box')).toBe(false);
    });

    it.skipIf(!available)('spendRefreshToken: does not judge expiry — an expired token is spent, for the caller to have refused it before', async () => {
      const expired = refreshTokenRecord(grant, { expiresAt: T0 - 1 });
      await store.createRefreshToken(expired);
      expect(await store.spendRefreshToken(expired.id, T0, 'box')).toBe(true);
    });

    it.skipIf(!available)('spendRefreshToken: of concurrent spends exactly one returns true, and its successor is the one stored', async () => {
      for (let round = 0; round < 10; round++) {
        const token = refreshTokenRecord(grant);
        await store.createRefreshToken(token);
        const results = await Promise.all(Array.from({ length: 5 }, (_, i) => store.spendRefreshToken(token.id, T0 + i, `box-${i}`)));
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = results.indexOf(true);
        expect((await store.findRefreshToken(token.hash))?.successorBox).toBe(`box-${winner}`);
      }
    });

    it.skipIf(!available)('spendRefreshToken: a spend waiting on another transaction\'s spend returns false after it commits and then sees its successor', async () => {
      const token = refreshTokenRecord(grant);
      await store.createRefreshToken(token);
      const held = gate();
      const spent = gate();
      const first = store.transaction(async (tx) => {
        const won = await tx.spendRefreshToken(token.id, T0 + 1, 'box-winner');
        spent.open();
        await held.opened;
        return won;
      });
      await spent.opened;
      const second = track(store.spendRefreshToken(token.id, T0 + 2, 'box-loser'));
      await pause(150);
      expect(second.settled()).toBe(false);
      held.open();
      expect(await first).toBe(true);
      expect(await second.promise).toBe(false);
      expect((await store.findRefreshToken(token.hash))?.successorBox).toBe('box-winner');
    });

    describe('rotateRefreshToken', () => {
      const rotation = (spent: { id: string; codeHash: string | null }, at: number) => {
        const access = accessTokenRecord(grant, { codeHash: spent.codeHash, resources: ['https://api.example/mcp'], createdAt: at });
        const refresh = refreshTokenRecord(grant, { codeHash: spent.codeHash, parentId: spent.id, createdAt: at, dpopJkt: 'jkt-1' });
        return { access, refresh, event: { type: 'token.refreshed', clientId, userId, data: { grantId: grant.id } } as const };
      };

      it.skipIf(!available)('spends an unspent token with its successor and stores the new pair and the audit event of the rotation, in one write', async () => {
        const token = refreshTokenRecord(grant, { codeHash: 'code-hash' });
        await store.createRefreshToken(token);
        const { access, refresh, event } = rotation(token, T0 + 5);
        expect(await store.rotateRefreshToken(token.id, T0 + 5, 'box-1', access, refresh, event)).toBe(true);
        expect(await store.findRefreshToken(token.hash)).toEqual({ ...token, spentAt: T0 + 5, successorBox: 'box-1' });
        expect(await store.findAccessToken(access.hash)).toEqual({ ...access, clientState: 'approved' });
        expect(await store.findRefreshToken(refresh.hash)).toEqual(refresh);
        expect(await auditRows(clientId)).toMatchObject([{ type: 'token.refreshed', actor_id: null, user_id: userId, data: JSON.stringify({ grantId: grant.id }), created_at: T0 + 5 }]);
      });

      it.skipIf(!available)('returns false and writes nothing for a spent, revoked, expired or unknown token', async () => {
        const spent = refreshTokenRecord(grant);
        await store.createRefreshToken(spent);
        await store.spendRefreshToken(spent.id, T0 + 1, 'first-box');
        const revoked = refreshTokenRecord(grant, { revokedAt: T0 });
        const expired = refreshTokenRecord(grant, { expiresAt: T0 + 5 });
        await store.createRefreshToken(revoked);
        await store.createRefreshToken(expired);
        for (const token of [spent, revoked, expired, refreshTokenRecord(grant)]) {
          const { access, refresh, event } = rotation(token, T0 + 5);
          expect(await store.rotateRefreshToken(token.id, T0 + 5, 'box-2', access, refresh, event), token.id).toBe(false);
          expect(await store.findAccessToken(access.hash)).toBeUndefined();
          expect(await store.findRefreshToken(refresh.hash)).toBeUndefined();
        }
        expect(await store.findRefreshToken(spent.hash)).toMatchObject({ spentAt: T0 + 1, successorBox: 'first-box' });
        expect(await store.findRefreshToken(revoked.hash)).toMatchObject({ spentAt: null, successorBox: null });
        expect(await store.findRefreshToken(expired.hash)).toMatchObject({ spentAt: null, successorBox: null });
        expect(await auditRows(clientId)).toEqual([]);
      });

      it.skipIf(!available)('of concurrent rotations of one token exactly one returns true, and only its pair, successor and event are stored', async () => {
        for (let round = 0; round < 5; round++) {
          const token = refreshTokenRecord(grant);
          await store.createRefreshToken(token);
          const attempts = Array.from({ length: 5 }, (_, i) => ({ ...rotation(token, T0 + i), box: `box-${i}` }));
          const results = await Promise.all(attempts.map((a, i) => store.rotateRefreshToken(token.id, T0 + i, a.box, a.access, a.refresh, a.event)));
          expect(results.filter(Boolean)).toHaveLength(1);
          const winner = attempts[results.indexOf(true)]!;
          expect((await store.findRefreshToken(token.hash))?.successorBox).toBe(winner.box);
          for (const a of attempts) expect(await store.findRefreshToken(a.refresh.hash)).toEqual(a === winner ? a.refresh : undefined);
        }
        expect(await auditRows(clientId)).toHaveLength(5);
      });

      it.skipIf(!available)('a duplicate key in the new pair is a unique violation that leaves the token unspent and stores nothing', async () => {
        const token = refreshTokenRecord(grant);
        const taken = refreshTokenRecord(grant);
        await store.createRefreshToken(token);
        await store.createRefreshToken(taken);
        const { access, event } = rotation(token, T0 + 5);
        await expectDuplicateKey(store.rotateRefreshToken(token.id, T0 + 5, 'box', access, refreshTokenRecord(grant, { id: taken.id }), event));
        expect(await store.findRefreshToken(token.hash)).toEqual(token);
        expect(await store.findAccessToken(access.hash)).toBeUndefined();
        expect(await auditRows(clientId)).toEqual([]);
      });
    });
  });

  // ---------------------------------------------------------------- audit

  describe('AuditStore', () => {
    it.skipIf(!available)('audit: appends one event with its actor, client, user and data; absent fields are stored as null', async () => {
      await store.audit.append({ type: 'token.issued', actorId: userId, clientId, userId, data: { grantId: grant.id, count: 2 } }, T0 + 1);
      await store.audit.append({ type: 'grant.created', clientId }, T0 + 2);
      const rows = await auditRows(clientId);
      expect(rows.map((r) => ({ ...r, data: r.data === null ? null : JSON.parse(r.data) }))).toEqual([
        { id: expect.anything(), type: 'token.issued', actor_id: userId, client_id: clientId, user_id: userId, data: { grantId: grant.id, count: 2 }, created_at: T0 + 1 },
        { id: expect.anything(), type: 'grant.created', actor_id: null, client_id: clientId, user_id: null, data: null, created_at: T0 + 2 },
      ]);
    });

    it.skipIf(!available)('recordAuthorizationRequest: appends one row per request, anonymous ones with a null user', async () => {
      await store.recordAuthorizationRequest(clientId, userId, true, T0 + 1);
      await store.recordAuthorizationRequest(clientId, null, false, T0 + 2);
      const rows = await database.handle.db.selectFrom('authorization_requests').selectAll().where('client_id', '=', clientId).orderBy('id').execute();
      expect(rows.map(({ user_id, had_scope, created_at }) => ({ user_id, had_scope, created_at }))).toEqual([
        { user_id: userId, had_scope: 1, created_at: T0 + 1 },
        { user_id: null, had_scope: 0, created_at: T0 + 2 },
      ]);
    });
  });

  // ---------------------------------------------------------------- transaction

  describe('transaction', () => {
    it.skipIf(!available)('transaction: returns what fn returns, and its writes are visible once it commits', async () => {
      const code = codeRecord(grant);
      const result = await store.transaction(async (tx) => {
        await tx.createCode(code);
        return 'done';
      });
      expect(result).toBe('done');
      expect(await store.findCode(code.hash)).toEqual(code);
    });

    it.skipIf(!available)('transaction: rolls back every write, audit appends included, when fn throws, and rethrows', async () => {
      const other = grantRecord(userId, clientId);
      const code = codeRecord(grant);
      const access = accessTokenRecord(grant);
      const refresh = refreshTokenRecord(grant);
      await store.createRefreshToken(refresh);
      const failure = new Error('fn failed');
      await expect(
        store.transaction(async (tx) => {
          await tx.createGrant(other);
          await tx.createCode(code);
          await tx.createAccessToken(access);
          expect(await tx.spendRefreshToken(refresh.id, T0 + 1, 'box')).toBe(true);
          await tx.revokeGrant(grant.id, T0 + 1);
          await tx.audit.append({ type: 'token.issued', clientId, userId }, T0 + 1);
          await tx.recordAuthorizationRequest(clientId, userId, true, T0 + 1);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await store.findGrant(other.id)).toBeUndefined();
      expect(await store.findCode(code.hash)).toBeUndefined();
      expect(await store.findAccessToken(access.hash)).toBeUndefined();
      expect(await store.findRefreshToken(refresh.hash)).toEqual(refresh);
      expect(await store.findGrant(grant.id)).toEqual(grant);
      expect(await auditRows(clientId)).toEqual([]);
      expect(await database.handle.db.selectFrom('authorization_requests').selectAll().where('client_id', '=', clientId).execute()).toEqual([]);
    });

    it.skipIf(!available)('transaction: the store fn receives reads its own uncommitted writes, which others do not see until the commit', async () => {
      const code = codeRecord(grant);
      const written = gate();
      const held = gate();
      const inside = store.transaction(async (tx) => {
        await tx.createCode(code);
        await tx.audit.append({ type: 'grant.created', clientId, userId }, T0);
        expect(await tx.findCode(code.hash)).toEqual(code);
        written.open();
        await held.opened;
      });
      await written.opened;
      if (name === 'postgres') {
        // SQLite has one connection: a read outside would wait for the commit instead.
        expect(await store.findCode(code.hash)).toBeUndefined();
        expect(await auditRows(clientId)).toEqual([]);
      }
      held.open();
      await inside;
      expect(await store.findCode(code.hash)).toEqual(code);
      expect(await auditRows(clientId)).toHaveLength(1);
    });

    it.skipIf(!available)('transaction: called on a transaction\'s store, joins it — the inner writes commit or roll back with the outer transaction', async () => {
      const committed = codeRecord(grant);
      const rolledBack = codeRecord(grant);
      await store.transaction(async (tx) => {
        await tx.transaction(async (inner) => {
          await inner.createCode(committed);
          await inner.audit.append({ type: 'grant.created', clientId, userId }, T0);
        });
      });
      const failure = new Error('outer failed');
      await expect(
        store.transaction(async (tx) => {
          await tx.transaction(async (inner) => {
            await inner.createCode(rolledBack);
            await inner.audit.append({ type: 'grant.revoked', clientId, userId }, T0);
          });
          // The inner call returned, but nothing is committed until the outer one ends.
          expect(await tx.findCode(rolledBack.hash)).toEqual(rolledBack);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await store.findCode(committed.hash)).toEqual(committed);
      expect(await store.findCode(rolledBack.hash)).toBeUndefined();
      expect((await auditRows(clientId)).map((r) => r.type)).toEqual(['grant.created']);
    });

    it.skipIf(!available)('transaction: an inner transaction that throws rolls back the outer one too when the error propagates', async () => {
      const outerCode = codeRecord(grant);
      const failure = new Error('inner failed');
      await expect(
        store.transaction(async (tx) => {
          await tx.createCode(outerCode);
          await tx.transaction(async () => {
            throw failure;
          });
        }),
      ).rejects.toBe(failure);
      expect(await store.findCode(outerCode.hash)).toBeUndefined();
    });
  });
});
