// The rules of an OAuth client's record and its secrets (src/services/clients: registration.ts,
// input.ts, secrets.ts, version.ts, view.ts, authorized-apps.ts), called in process over SQLite :memory: through
// the real adapters. What only HTTP or a page shows (the 409, the form's message next to its
// field) is tested in test/web/lifecycle-*.test.ts and test/http.
import { describe, expect } from 'vitest';
import { hashToken } from '../../src/oauth/token-format.ts';
import type { GrantRecord } from '../../src/oauth/storage.ts';
import { listAuthorizedApps, revokeAuthorizedApp } from '../../src/services/clients/authorized-apps.ts';
import { ServiceError } from '../../src/services/errors.ts';
import { importLegacyClient } from '../../src/services/clients/registration.ts';
import { addSecret, listSecrets, MAX_ACTIVE_SECRETS, removeSecret, replaceSecrets } from '../../src/services/clients/secrets.ts';
import { claimClient, parseVersion, STALE_VERSION } from '../../src/services/clients/version.ts';
import { hasHeldChange, listClients, requireClient } from '../../src/services/clients/view.ts';
import { clientKey } from '../helpers/client-keys.ts';
import { accessTokenRecord, grantRecord, refreshTokenRecord } from '../storage/seed.ts';
import { it, type PlatformWorld } from './platform/world.ts';

const CALLBACK = 'https://app.example.com/callback';

/** The audit events of a client, oldest first, as type names. */
async function auditTypes(world: PlatformWorld, clientId: string): Promise<string[]> {
  return (await world.ctx.stores.auditLog.list({ clientId })).map((e) => e.type).reverse();
}

/** The hashes of the client's active secrets, as the token endpoint reads them. */
async function storedSecretHashes(world: PlatformWorld, clientId: string): Promise<string[]> {
  return ((await world.oauth.findClientWithSecrets(clientId))?.secrets ?? []).map((s) => s.hash).sort();
}

describe('registering a client (docs/rules.md#client-states, docs/rules.md#client-record)', () => {
  it('a new client begins pending at version 1, with its scopes in registry order and nothing held', async ({ world }) => {
    const owner = await world.user();
    const { client } = await world.client(owner, { scopes: ['SCHEDULE_READ', 'PROFILE_READ', 'BOOKING_READ'] });
    expect(client).toMatchObject({
      ownerId: owner,
      state: 'pending',
      version: 1,
      legacy: false,
      scopes: ['BOOKING_READ', 'SCHEDULE_READ', 'PROFILE_READ'],
      redirectUris: [CALLBACK],
      proposedRedirectUris: [],
      proposedScopes: [],
      reviewNote: null,
      reviewedBy: null,
      resourceServer: false,
      createdAt: world.now(),
    });
    expect(hasHeldChange(client)).toBe(false);
    const stored = await world.ctx.stores.clients.find(client.clientId);
    expect(stored).toMatchObject({ state: 'pending', scopes: ['BOOKING_READ', 'SCHEDULE_READ', 'PROFILE_READ'], version: 1 });
    expect((await world.oauth.findClient(client.clientId))?.state).toBe('pending');
  });

  it('a confidential client is born holding one active secret, shown once and stored only as its SHA-256 with the last four characters (docs/rules.md#client-secrets)', async ({ world }) => {
    const owner = await world.user();
    const { client, secret } = await world.client(owner);
    expect(secret).toMatch(/^gcs_/);
    expect(client.secrets).toHaveLength(1);
    expect(client.secrets[0]).toMatchObject({ lastFour: secret!.slice(-4), createdAt: world.now(), lastUsedAt: null });
    expect(JSON.stringify(client)).not.toContain(secret!);
    expect(await storedSecretHashes(world, client.clientId)).toEqual([hashToken(secret!)]);
    expect(await auditTypes(world, client.clientId)).toEqual(['client.created', 'secret.created']);
    const [created] = await world.ctx.stores.auditLog.list({ clientId: client.clientId, limit: 1 });
    expect(JSON.stringify(created)).not.toContain(secret!);
  });

  it('a public client has no secret: it authenticates with PKCE (docs/rules.md#client-record)', async ({ world }) => {
    const { client, secret } = await world.client(await world.user(), { kind: 'public' });
    expect(secret).toBeNull();
    expect(client.secrets).toEqual([]);
    expect(await listSecrets(world.ctx, client.clientId)).toEqual([]);
  });

  it('at least one scope is required at creation; an unknown scope is refused by name; nothing is stored', async ({ world }) => {
    const owner = await world.user();
    for (const scopes of [[], [''], [' , ']]) {
      await expect(world.client(owner, { scopes })).rejects.toMatchObject({ kind: 'validation', field: 'scopes', message: 'choose at least one scope' });
    }
    await expect(world.client(owner, { scopes: ['PROFILE_READ', 'PROFILE_REED'] })).rejects.toMatchObject({
      kind: 'validation',
      field: 'scopes',
      message: expect.stringContaining('PROFILE_REED'),
    });
    expect(await listClients(world.ctx, { ownerId: owner })).toEqual([]);
  });

  it('scopes may be given as one string separated by spaces or commas, duplicates folded (docs/rules.md#scope-syntax)', async ({ world }) => {
    const { client } = await world.client(await world.user(), { scopes: ['PROFILE_READ, BOOKING_READ  PROFILE_READ'] });
    expect(client.scopes).toEqual(['BOOKING_READ', 'PROFILE_READ']);
  });

  it('a client registers 1 to 10 redirect URIs: an 11th is refused, none is refused (docs/rules.md#redirect-uris)', async ({ world }) => {
    const owner = await world.user();
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `https://app.example.com/cb/${i}`);
    const ten = await world.client(owner, { redirectUris: uris(10) });
    expect(ten.client.redirectUris).toEqual(uris(10));
    await expect(world.client(owner, { redirectUris: uris(11) })).rejects.toMatchObject({
      kind: 'validation',
      field: 'redirect_uris',
      message: 'at most 10 redirect URIs per client (got 11)',
    });
    await expect(world.client(owner, { redirectUris: [' ', ''] })).rejects.toMatchObject({ field: 'redirect_uris', message: 'at least one redirect URI is required' });
    expect((await listClients(world.ctx, { ownerId: owner })).map((c) => c.clientId)).toEqual([ten.client.clientId]);
  });

  it('each redirect URI is absolute https without fragment or credentials, http only on loopback, listed once (docs/rules.md#redirect-uris, RFC 8252 §7.3)', async ({ world }) => {
    const owner = await world.user();
    const refused: [string[], string][] = [
      [['http://app.example.com/cb'], 'must use https'],
      [['ftp://app.example.com/cb'], 'must use https'],
      [['/callback'], 'is not an absolute URI'],
      [['https://app.example.com/cb#x'], 'must not contain a fragment'],
      [['https://me:pw@app.example.com/cb'], 'must not contain a user name or password'],
      [[CALLBACK, ` ${CALLBACK} `], 'is listed twice'],
    ];
    for (const [redirectUris, problem] of refused) {
      await expect(world.client(owner, { redirectUris })).rejects.toMatchObject({ kind: 'validation', field: 'redirect_uris', message: expect.stringContaining(problem) });
    }
    const loopback = await world.client(owner, { redirectUris: [' http://localhost:8080/cb ', 'http://127.0.0.1/cb', 'http://[::1]/cb', ''] });
    expect(loopback.client.redirectUris).toEqual(['http://localhost:8080/cb', 'http://127.0.0.1/cb', 'http://[::1]/cb']);
  });

  it("the name is one trimmed line of 1 to 100 characters, without control or formatting characters (docs/rules.md#client-record)", async ({ world }) => {
    const owner = await world.user();
    expect((await world.client(owner, { name: '  Calendar Sync  ' })).client.name).toBe('Calendar Sync');
    for (const name of ['   ', 'x'.repeat(101), 'Calendar\nSync', 'Calendar \u202eSync', 'Calendar\u2066Sync']) {
      await expect(world.client(owner, { name })).rejects.toMatchObject({ kind: 'validation', field: 'name' });
    }
    expect(await listClients(world.ctx, { ownerId: owner })).toHaveLength(1);
  });

  it('the description is at most 1000 characters, the homepage http(s), the logo https only', async ({ world }) => {
    const owner = await world.user();
    await expect(world.client(owner, { description: 'x'.repeat(1001) })).rejects.toMatchObject({ field: 'description' });
    await expect(world.client(owner, { homepageUrl: 'example.com' })).rejects.toMatchObject({ field: 'homepage_url', message: expect.stringContaining('absolute URL') });
    await expect(world.client(owner, { homepageUrl: 'javascript:alert(1)' })).rejects.toMatchObject({ field: 'homepage_url', message: 'homepage_url must use http or https' });
    await expect(world.client(owner, { logoUrl: 'http://app.example.com/logo.png' })).rejects.toMatchObject({ field: 'logo_url', message: 'logo_url must use https' });
    await expect(world.client(owner, { homepageUrl: `https://app.example.com/${'x'.repeat(2000)}` })).rejects.toMatchObject({ field: 'homepage_url', message: expect.stringContaining('2000') });
    const { client } = await world.client(owner, { description: ' Syncs. ', homepageUrl: 'http://app.example.com', logoUrl: ' ' });
    expect(client).toMatchObject({ description: 'Syncs.', homepageUrl: 'http://app.example.com', logoUrl: null });
  });

  it('the kind is confidential or public', async ({ world }) => {
    await expect(world.client(await world.user(), { kind: 'trusted' as 'public' })).rejects.toMatchObject({ kind: 'validation', field: 'kind' });
  });

  it('how a client authenticates is checked as a whole: none for public, a credential for confidential, keys for private_key_jwt (docs/rules.md#client-authentication)', async ({ world }) => {
    const owner = await world.user();
    const cases: [Parameters<PlatformWorld['client']>[1], string][] = [
      [{ kind: 'public', tokenEndpointAuthMethod: 'client_secret_basic' }, 'token_endpoint_auth_method'],
      [{ kind: 'confidential', tokenEndpointAuthMethod: 'none' }, 'token_endpoint_auth_method'],
      [{ tokenEndpointAuthMethod: 'client_secret_jwt' }, 'token_endpoint_auth_method'],
      [{ tokenEndpointAuthMethod: 'private_key_jwt' }, 'jwks'],
      [{ jwks: '{"keys": [' }, 'jwks'],
      [{ jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } }, 'jwks'],
    ];
    for (const [over, field] of cases) await expect(world.client(owner, over)).rejects.toMatchObject({ kind: 'validation', field });
    const key = await clientKey();
    await expect(world.client(owner, { jwks: { keys: [{ ...key.publicJwk, d: 'private' }] } })).rejects.toMatchObject({
      field: 'jwks',
      message: expect.stringContaining('private member "d"'),
    });
    const { client, secret } = await world.client(owner, { tokenEndpointAuthMethod: 'private_key_jwt', jwks: JSON.stringify(key.jwks) });
    expect(client).toMatchObject({ tokenEndpointAuthMethod: 'private_key_jwt', jwks: key.jwks });
    // A confidential client holds a secret whatever its method (docs/rules.md#client-record).
    expect(secret).not.toBeNull();
    expect(await listClients(world.ctx, { ownerId: owner })).toHaveLength(1);
  });

  it('the FAPI 2.0 profile is for confidential clients authenticating with private_key_jwt (docs/rules.md#fapi2, FAPI 2.0 §5.3.2.1)', async ({ world }) => {
    const owner = await world.user();
    await expect(world.client(owner, { kind: 'public', fapi2: true })).rejects.toMatchObject({ field: 'fapi2', message: expect.stringContaining('confidential clients') });
    await expect(world.client(owner, { fapi2: true })).rejects.toMatchObject({ field: 'fapi2', message: expect.stringContaining('private_key_jwt') });
    const key = await clientKey();
    const { client } = await world.client(owner, { fapi2: true, tokenEndpointAuthMethod: 'private_key_jwt', jwks: key.jwks });
    expect((await world.ctx.stores.clients.find(client.clientId))?.fapi2).toBe(true);
  });

  it('pushed authorization and DPoP binding are off unless asked for (RFC 9126 §6, RFC 9449 §5.2)', async ({ world }) => {
    const owner = await world.user();
    expect((await world.client(owner)).client).toMatchObject({ requirePushedAuthorizationRequests: false, dpopBoundAccessTokens: false, fapi2: false, tokenEndpointAuthMethod: null, jwks: null });
    const asked = await world.client(owner, { requirePushedAuthorizationRequests: true, dpopBoundAccessTokens: true });
    expect(await world.ctx.stores.clients.find(asked.client.clientId)).toMatchObject({ requirePushedAuthorizationRequests: true, dpopBoundAccessTokens: true });
  });

  it("an operator's registration is audited as the operator's, not the owner's", async ({ world }) => {
    const owner = await world.user();
    const { client } = await world.client(owner, { actorId: null });
    const events = await world.ctx.stores.auditLog.list({ clientId: client.clientId });
    expect(events.map((e) => [e.type, e.actorId])).toEqual([
      ['secret.created', null],
      ['client.created', null],
    ]);
    const own = await world.client(owner);
    expect((await world.ctx.stores.auditLog.list({ clientId: own.client.clientId })).every((e) => e.actorId === owner)).toBe(true);
  });

  it('a legacy client exists only by import: approved, without scopes, audited as legacy (docs/rules.md#legacy-clients)', async ({ world }) => {
    const owner = await world.user();
    const { client, secret } = await importLegacyClient(world.ctx, { ownerId: owner, name: 'Old Sync', kind: 'confidential', redirectUris: [CALLBACK] });
    expect(client).toMatchObject({ state: 'approved', scopes: null, legacy: true });
    expect(secret).not.toBeNull();
    expect((await world.oauth.findClient(client.clientId))?.scopes).toBeNull();
    const [created] = (await world.ctx.stores.auditLog.list({ clientId: client.clientId })).filter((e) => e.type === 'client.created');
    expect(created?.data).toMatchObject({ kind: 'confidential', scopes: 'legacy' });
  });

  it("a developer's clients are listed newest first, by owner and by state; an unknown or empty id is refused", async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    const first = await world.client(alice, { name: 'First' });
    world.advance(1000);
    const second = await world.client(alice, { name: 'Second' });
    await world.client(bob, { name: 'Bobs' });
    await importLegacyClient(world.ctx, { ownerId: bob, name: 'Old', kind: 'public', redirectUris: [CALLBACK] });
    expect((await listClients(world.ctx, { ownerId: alice })).map((c) => c.name)).toEqual(['Second', 'First']);
    expect((await listClients(world.ctx, { state: 'approved' })).map((c) => c.name)).toEqual(['Old']);
    expect((await listClients(world.ctx, { ownerId: alice, state: 'pending' })).map((c) => c.clientId)).toEqual([second.client.clientId, first.client.clientId]);
    await expect(requireClient(world.ctx, 'no-such-client')).rejects.toMatchObject({ kind: 'not_found', message: 'no client with id no-such-client' });
    await expect(requireClient(world.ctx, '')).rejects.toMatchObject({ kind: 'validation', field: 'client_id' });
    await expect(requireClient(world.ctx, 'x'.repeat(5000))).rejects.toMatchObject({ kind: 'not_found', message: expect.stringContaining('client ids are at most') });
  });
});

describe('secret rotation: one or two active secrets (docs/rules.md#secret-rotation)', () => {
  it('a second secret is added and both are valid; a third is refused and nothing is written', async ({ world }) => {
    const owner = await world.user();
    const { client, secret: first } = await world.client(owner);
    world.advance(1000);
    const second = await addSecret(world.ctx, client.clientId, owner);
    expect(second.secret).not.toBe(first);
    const listed = await listSecrets(world.ctx, client.clientId);
    expect(listed.map((s) => s.id)).toEqual([client.secrets[0]!.id, second.id]);
    expect(listed[1]).toMatchObject({ lastFour: second.secret.slice(-4), createdAt: world.now() });
    expect(await storedSecretHashes(world, client.clientId)).toEqual([hashToken(first!), hashToken(second.secret)].sort());

    expect(MAX_ACTIVE_SECRETS).toBe(2);
    await expect(addSecret(world.ctx, client.clientId, owner)).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('at most 2 active secrets') });
    expect(await listSecrets(world.ctx, client.clientId)).toHaveLength(2);
    expect((await auditTypes(world, client.clientId)).filter((t) => t === 'secret.created')).toHaveLength(2);
  });

  it('removing a secret takes effect at once; the last one cannot be removed', async ({ world }) => {
    const owner = await world.user();
    const { client, secret: first } = await world.client(owner);
    const oldId = client.secrets[0]!.id;
    const second = await addSecret(world.ctx, client.clientId, owner);
    await removeSecret(world.ctx, client.clientId, oldId, owner);
    expect((await listSecrets(world.ctx, client.clientId)).map((s) => s.id)).toEqual([second.id]);
    expect(await storedSecretHashes(world, client.clientId)).toEqual([hashToken(second.secret)]);
    expect(await storedSecretHashes(world, client.clientId)).not.toContain(hashToken(first!));

    await expect(removeSecret(world.ctx, client.clientId, second.id, owner)).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('last active secret') });
    expect(await storedSecretHashes(world, client.clientId)).toEqual([hashToken(second.secret)]);
    const removed = (await world.ctx.stores.auditLog.list({ clientId: client.clientId })).filter((e) => e.type === 'secret.removed');
    expect(removed.map((e) => e.data)).toEqual([{ secretId: oldId, lastFour: first!.slice(-4) }]);
  });

  it('a removed or unknown secret is not found, and another client\'s secret cannot be removed through this one', async ({ world }) => {
    const owner = await world.user();
    const a = await world.client(owner);
    const b = await world.client(owner);
    const extra = await addSecret(world.ctx, a.client.clientId, owner);
    await removeSecret(world.ctx, a.client.clientId, extra.id, owner);
    await expect(removeSecret(world.ctx, a.client.clientId, extra.id, owner)).rejects.toMatchObject({ kind: 'not_found' });
    await addSecret(world.ctx, b.client.clientId, owner);
    await expect(removeSecret(world.ctx, a.client.clientId, b.client.secrets[0]!.id, owner)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await listSecrets(world.ctx, b.client.clientId)).toHaveLength(2);
    await expect(addSecret(world.ctx, 'no-such-client', owner)).rejects.toMatchObject({ kind: 'not_found', message: 'no client with id no-such-client' });
  });

  it('a public client has no secrets to add or replace', async ({ world }) => {
    const owner = await world.user();
    const { client } = await world.client(owner, { kind: 'public' });
    await expect(addSecret(world.ctx, client.clientId, owner)).rejects.toMatchObject({ kind: 'conflict', message: expect.stringContaining('PKCE') });
    await expect(replaceSecrets(world.ctx, client.clientId, owner)).rejects.toMatchObject({ kind: 'conflict' });
    expect(await listSecrets(world.ctx, client.clientId)).toEqual([]);
  });

  it('replacing the secrets leaves exactly one new one in the same step, never none', async ({ world }) => {
    const owner = await world.user();
    const { client, secret: first } = await world.client(owner);
    const second = await addSecret(world.ctx, client.clientId, owner);
    const replaced = await replaceSecrets(world.ctx, client.clientId, null);
    expect((await listSecrets(world.ctx, client.clientId)).map((s) => s.id)).toEqual([replaced.id]);
    expect(await storedSecretHashes(world, client.clientId)).toEqual([hashToken(replaced.secret)]);
    expect([first, second.secret]).not.toContain(replaced.secret);
    expect((await auditTypes(world, client.clientId)).slice(-3)).toEqual(['secret.removed', 'secret.removed', 'secret.created']);
  });

  it('a secret change raises no version: secrets are credentials, not the configuration a reviewer saw (docs/rules.md#review-versions)', async ({ world }) => {
    const owner = await world.user();
    const { client } = await world.client(owner);
    await addSecret(world.ctx, client.clientId, owner);
    expect((await requireClient(world.ctx, client.clientId)).version).toBe(1);
  });
});

describe("a client's version (docs/rules.md#review-versions)", () => {
  it('a version typed on a form or command line is a whole number from 1 that fits the column', () => {
    expect(parseVersion('1')).toBe(1);
    expect(parseVersion('42')).toBe(42);
    expect(parseVersion('2147483647')).toBe(2_147_483_647);
    for (const text of ['', '0', '01', '-1', '1.5', ' 1', '1e3', 'abc', '2147483648', '99999999999']) expect(parseVersion(text)).toBeUndefined();
  });

  it('claiming a client at a version it has left is a conflict on version; an unknown client is not found', async ({ world }) => {
    const { client } = await world.client(await world.user());
    await world.ctx.stores.transaction(async (tx) => {
      expect((await claimClient(tx, client.clientId, world.now(), { expectedVersion: 1 })).version).toBe(1);
    });
    await world.ctx.stores.transaction(async (tx) => {
      await expect(claimClient(tx, client.clientId, world.now(), { expectedVersion: 2 })).rejects.toMatchObject({ kind: 'conflict', field: 'version', message: STALE_VERSION });
      await expect(claimClient(tx, 'no-such-client', world.now())).rejects.toMatchObject({ kind: 'not_found' });
    });
    await world.ctx.stores.transaction(async (tx) => {
      expect((await claimClient(tx, client.clientId, world.now(), { raiseVersion: true })).version).toBe(2);
    });
    expect((await requireClient(world.ctx, client.clientId)).version).toBe(2);
  });
});

describe('authorized apps: one authorization per party an application acts for (docs/rules.md#consent, docs/rules.md#team-authorization)', () => {
  /** A grant of the user for the client written as the core writes one, with a token pair issued under it. */
  async function grantWithTokens(world: PlatformWorld, userId: string, clientId: string, over: Partial<GrantRecord>) {
    const grant = grantRecord(userId, clientId, { createdAt: world.now(), ...over });
    await world.oauth.createGrant(grant);
    const access = accessTokenRecord(grant, { createdAt: world.now(), expiresAt: world.now() + 3_600_000 });
    const refresh = refreshTokenRecord(grant, { createdAt: world.now(), expiresAt: world.now() + 86_400_000 });
    await world.oauth.createAccessToken(access);
    await world.oauth.createRefreshToken(refresh);
    world.advance(1000);
    return { grant, access, refresh };
  }

  /** Whether the grant and its token pair are still unrevoked. */
  async function live(world: PlatformWorld, issued: Awaited<ReturnType<typeof grantWithTokens>>) {
    const grant = await world.oauth.findGrant(issued.grant.id);
    const access = await world.oauth.findAccessToken(issued.access.hash);
    const refresh = await world.oauth.findRefreshToken(issued.refresh.hash);
    return { grant: grant?.revokedAt === null, access: access?.revokedAt === null, refresh: refresh?.revokedAt === null };
  }

  /** A user with a personal grant and a team grant of one client, and another user's grant of it. */
  async function personalAndTeam(world: PlatformWorld) {
    const user = await world.user();
    const teamId = await world.team(user, { name: 'Sales Crew' });
    const { client } = await world.client(await world.user(), { scopes: ['PROFILE_READ', 'BOOKING_READ', 'TEAM_PROFILE_READ'] });
    const clientId = client.clientId;
    await world.ctx.stores.webhookDeliveries.setClientEventsUrl(clientId, 'https://app.example.com/events', world.now());
    await world.ctx.stores.webhookDeliveries.replaceClientEventsSecret(clientId, null, 'whsec_test', world.now());
    const personal = await grantWithTokens(world, user, clientId, { scopes: ['PROFILE_READ'] });
    const team = await grantWithTokens(world, user, clientId, { scopes: ['TEAM_PROFILE_READ'], teamId });
    const stranger = await world.user();
    const theirs = await grantWithTokens(world, stranger, clientId, { scopes: ['PROFILE_READ'] });
    return { user, teamId, clientId, personal, team, stranger, theirs };
  }

  it('a personal grant and a team grant of one application are two entries, each with its own scopes and party', async ({ world }) => {
    const { user, teamId, clientId, personal, team } = await personalAndTeam(world);
    const apps = await listAuthorizedApps(world.ctx, user);
    expect(apps.map((a) => ({ grantId: a.grantId, clientId: a.clientId, scopes: a.scopes, team: a.team }))).toEqual([
      { grantId: personal.grant.id, clientId, scopes: ['PROFILE_READ'], team: null },
      { grantId: team.grant.id, clientId, scopes: ['TEAM_PROFILE_READ'], team: { id: teamId, name: 'Sales Crew' } },
    ]);
  });

  it("grants of the same party are one entry: the union of their scopes, named by the newest grant, dated by the first and latest approval", async ({ world }) => {
    const { user, personal } = await personalAndTeam(world);
    const second = await grantWithTokens(world, user, personal.grant.clientId, { scopes: ['BOOKING_READ'] });
    const [mine] = (await listAuthorizedApps(world.ctx, user)).filter((a) => a.team === null);
    expect(mine).toMatchObject({
      grantId: second.grant.id,
      grantIds: [second.grant.id, personal.grant.id],
      scopes: ['BOOKING_READ', 'PROFILE_READ'],
      firstApprovedAt: personal.grant.createdAt,
      lastApprovedAt: second.grant.createdAt,
    });
  });

  it("revoking the team's authorization ends its grant and tokens only; the user's own keeps working; audited and told to the application", async ({ world }) => {
    const { user, teamId, clientId, personal, team, theirs } = await personalAndTeam(world);
    const revoked = await revokeAuthorizedApp(world.ctx, user, team.grant.id);
    expect(revoked).toMatchObject({ id: team.grant.id, clientId, team: { id: teamId, name: 'Sales Crew' }, revokedGrantIds: [team.grant.id] });
    expect(await live(world, team)).toEqual({ grant: false, access: false, refresh: false });
    expect(await live(world, personal)).toEqual({ grant: true, access: true, refresh: true });
    expect(await live(world, theirs)).toEqual({ grant: true, access: true, refresh: true });
    expect((await listAuthorizedApps(world.ctx, user)).map((a) => a.grantId)).toEqual([personal.grant.id]);

    const audit = (await world.ctx.stores.auditLog.list({ clientId })).filter((e) => e.type === 'grant.revoked');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: user, userId: user, data: { grantId: team.grant.id, teamId, reason: 'revoked by the user in authorized apps' } });
    const deliveries = await world.ctx.stores.webhookDeliveries.list({ clientId }, 10, 0);
    expect(deliveries.map((d) => [d.event, JSON.parse(d.payload).data])).toEqual([
      ['authorization.revoked', { clientId, userId: user, grantIds: [team.grant.id], teamIds: [teamId], revokedBy: 'user' }],
    ]);
  });

  it("revoking the user's own authorization ends every grant of it and leaves the team's", async ({ world }) => {
    const { user, clientId, personal, team } = await personalAndTeam(world);
    const second = await grantWithTokens(world, user, clientId, { scopes: ['BOOKING_READ'] });
    // Named by its older grant (a page opened before the second approval) it still ends both.
    const revoked = await revokeAuthorizedApp(world.ctx, user, personal.grant.id);
    expect(revoked.revokedGrantIds.sort()).toEqual([personal.grant.id, second.grant.id].sort());
    for (const issued of [personal, second]) expect(await live(world, issued)).toEqual({ grant: false, access: false, refresh: false });
    expect(await live(world, team)).toEqual({ grant: true, access: true, refresh: true });
    const [delivery] = await world.ctx.stores.webhookDeliveries.list({ clientId }, 10, 0);
    expect(JSON.parse(delivery!.payload).data).toMatchObject({ userId: user, teamIds: [], revokedBy: 'user' });
  });

  it("another user's grant, an unknown id and an already revoked grant are not found, and nothing changes", async ({ world }) => {
    const { user, clientId, personal, team, stranger, theirs } = await personalAndTeam(world);
    await revokeAuthorizedApp(world.ctx, user, team.grant.id);
    for (const grantId of [theirs.grant.id, 'no-such-grant', team.grant.id]) {
      const refused = await revokeAuthorizedApp(world.ctx, user, grantId).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ServiceError);
      expect(refused).toMatchObject({ kind: 'not_found', message: 'you have not authorized this application, or this access was already revoked' });
    }
    expect(await live(world, theirs)).toEqual({ grant: true, access: true, refresh: true });
    expect(await live(world, personal)).toEqual({ grant: true, access: true, refresh: true });
    expect((await listAuthorizedApps(world.ctx, stranger)).map((a) => a.grantId)).toEqual([theirs.grant.id]);
    expect((await world.ctx.stores.auditLog.list({ clientId })).filter((e) => e.type === 'grant.revoked')).toHaveLength(1);
  });
});
