// IdentityAssertionStore (src/oauth/identity-assertion.ts) on every backend: the trusts of an
// issuer, the links of its subjects (linked once, whichever of two first uses wins), the members
// found by a verified e-mail, the hold a token request takes on its trust, and the grants a
// trust makes, which the core's consent read never returns (docs/integrating.md#enterprise-managed-agents).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdentityAssertionStore } from '../../src/oauth/identity-assertion.ts';
import { timeOrderedId } from '../../src/oauth/token-format.ts';
import { requestCode, verifyCode } from '../../src/services/accounts/verification.ts';
import { CLI_OPERATOR } from '../../src/services/actors.ts';
import { addIdentityProvider, removeIdentityProvider } from '../../src/services/identity-providers/identity-providers.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { addMember, createOrganization } from '../../src/services/teams/teams.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { userRecord } from './seed.ts';
import { createIdentityAssertionStore } from './stores.ts';

describe.each(backends)('IdentityAssertionStore contract on $name', ({ name, available }) => {
  let database: TestDatabase;
  let store: IdentityAssertionStore;
  let services: ServiceContext;
  let orgId: string;

  async function user(email: string): Promise<string> {
    const u = userRecord({ email });
    expect(await services.stores.users.insert(u)).toBe(true);
    return u.id;
  }
  async function verified(userId: string, email: string): Promise<void> {
    let sent = '';
    await requestCode(services, { userId }, 'email', email, (_k, _to, code) => (sent = code));
    await verifyCode(services, { userId }, 'email', email, sent);
  }

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name, { poolSize: 8 });
    store = createIdentityAssertionStore(database.handle.db);
    // A clock that moves on every reading: two trusts added within one millisecond would
    // otherwise tie on created_at, and "oldest first" would fall to their random ids.
    let now = Date.now();
    services = createServiceContext(database.handle.db, () => (now += 1), testServiceOptions);
    orgId = (await createOrganization(services, { name: 'Acme', ownerId: await user('owner@acme.example') })).id;
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('findTrusts: every organization\'s trust of the issuer, oldest first, as registered', async () => {
    const other = (await createOrganization(services, { name: 'Globex', ownerId: await user('owner@globex.example') })).id;
    const a = await addIdentityProvider(services, { organizationId: orgId, issuer: 'https://shared.example', jwksUri: 'https://shared.example/a', domains: ['acme.example'], scopes: ['PROFILE_READ'] }, { actorId: CLI_OPERATOR });
    const b = await addIdentityProvider(services, { organizationId: other, issuer: 'https://shared.example', jwksUri: 'https://shared.example/b', domains: ['globex.example'] }, { actorId: CLI_OPERATOR });
    expect(await store.findTrusts('https://shared.example')).toEqual([
      { id: a.id, organizationId: orgId, issuer: 'https://shared.example', jwksUri: 'https://shared.example/a', domains: ['acme.example'], scopes: ['PROFILE_READ'] },
      { id: b.id, organizationId: other, issuer: 'https://shared.example', jwksUri: 'https://shared.example/b', domains: ['globex.example'], scopes: null },
    ]);
    expect(await store.findTrusts('https://shared.example/')).toEqual([]);
  });

  it.skipIf(!available)('findMembersByVerifiedEmail: a member\'s proven address or an account the organization made; never an unproven one or a non-member\'s', async () => {
    const proven = await user('p@example.com');
    await addMember(services, { organizationId: orgId }, proven, 'member');
    await verified(proven, 'proven@acme.example');
    const unproven = await user('u@example.com');
    await addMember(services, { organizationId: orgId }, unproven, 'member');
    await requestCode(services, { userId: unproven }, 'email', 'unproven@acme.example', () => undefined);
    const outsider = await user('o@example.com');
    await verified(outsider, 'outsider@acme.example');
    const made = userRecord({ email: 'made@acme.example', createdByOrganizationId: orgId });
    await services.stores.users.insert(made);
    await addMember(services, { organizationId: orgId }, made.id, 'member');
    const signedUp = await user('signedup@acme.example');
    await addMember(services, { organizationId: orgId }, signedUp, 'member');

    expect(await store.findMembersByVerifiedEmail(orgId, 'proven@acme.example')).toEqual([proven]);
    expect(await store.findMembersByVerifiedEmail(orgId, 'unproven@acme.example')).toEqual([]);
    expect(await store.findMembersByVerifiedEmail(orgId, 'outsider@acme.example')).toEqual([]);
    expect(await store.findMembersByVerifiedEmail(orgId, 'made@acme.example')).toEqual([made.id]);
    // A sign-in address the user chose is not proven by itself.
    expect(await store.findMembersByVerifiedEmail(orgId, 'signedup@acme.example')).toEqual([]);
    expect(await store.isMember(orgId, proven)).toBe(true);
    expect(await store.isMember(orgId, outsider)).toBe(false);
  });

  it.skipIf(!available)('linkSubject: of concurrent first uses naming different accounts, one link stands and every caller is told it', async () => {
    const users = await Promise.all(['l1@example.com', 'l2@example.com', 'l3@example.com'].map(user));
    const answers = await Promise.all(users.map((u) => store.transaction((tx) => tx.linkSubject('https://link.example', 'sub-1', u, 1_000))));
    const linked = await store.findLinkedUser('https://link.example', 'sub-1');
    expect(users).toContain(linked);
    expect(answers).toEqual([linked, linked, linked]);
    expect(await store.findLinkedUser('https://other.example', 'sub-1')).toBeUndefined();
  });

  it.skipIf(!available)('holdTrust, createTrustGrant, findTrustGrant: a trust\'s grant is found by its scopes, never by the consent read, and ends with the trust', async () => {
    const member = await user('g@example.com');
    await addMember(services, { organizationId: orgId }, member, 'member');
    const client = 'trust-client';
    await services.stores.clients.insert({ id: client, name: 'Agent', description: '', homepageUrl: 'https://agent.example', logoUrl: null, ownerId: member, kind: 'confidential', state: 'approved', redirectUris: ['https://agent.example/cb'], scopes: ['PROFILE_READ'], createdAt: 1 });
    const trust = await addIdentityProvider(services, { organizationId: orgId, issuer: 'https://grants.example', jwksUri: 'https://grants.example/keys', domains: ['acme.example'] }, { actorId: CLI_OPERATOR });
    const grant = { id: timeOrderedId(Date.now()), userId: member, clientId: client, scopes: ['PROFILE_READ'], createdAt: Date.now(), revokedAt: null };
    await store.transaction(async (tx) => {
      expect(await tx.holdTrust(trust.id)).toBe(true);
      await tx.createTrustGrant(grant, trust.id);
    });
    expect(await store.findTrustGrant(trust.id, member, client, ['PROFILE_READ'])).toEqual(grant);
    expect(await store.findTrustGrant(trust.id, member, client, ['PROFILE_READ', 'BOOKING_READ'])).toBeUndefined();
    expect(await store.oauth.listActiveGrants(member, client)).toEqual([]);
    await removeIdentityProvider(services, orgId, trust.id, { actorId: CLI_OPERATOR });
    expect(await store.transaction((tx) => tx.holdTrust(trust.id))).toBe(false);
    expect(await store.findTrustGrant(trust.id, member, client, ['PROFILE_READ'])).toBeUndefined();
    expect((await store.oauth.findGrant(grant.id))!.revokedAt).toEqual(expect.any(Number));
  });

  it.skipIf(!available)('IdentityProviderStore listActiveGrants and revokeGrantsOf: a trust\'s active grants with client, user and last token; revoked by user and client, with their tokens', async () => {
    const ann = await user('ann@example.com');
    const ben = await user('ben@example.com');
    const trust = await addIdentityProvider(services, { organizationId: orgId, issuer: 'https://listed.example', jwksUri: 'https://listed.example/keys', domains: ['acme.example'] }, { actorId: CLI_OPERATOR });
    const clientOf = async (id: string) => services.stores.clients.insert({ id, name: `Agent ${id}`, description: '', homepageUrl: 'https://agent.example', logoUrl: null, ownerId: ann, kind: 'confidential', state: 'approved', redirectUris: ['https://agent.example/cb'], scopes: ['PROFILE_READ'], createdAt: 1 });
    await clientOf('listed-a');
    await clientOf('listed-b');
    const made = async (userId: string, clientId: string, at: number, tokenAt?: number) => {
      const grant = { id: timeOrderedId(at), userId, clientId, scopes: ['BOOKING_READ', 'PROFILE_READ'], createdAt: at, revokedAt: null };
      await store.createTrustGrant(grant, trust.id);
      if (tokenAt !== undefined) {
        await store.oauth.createAccessToken({ hash: `hash-${grant.id}`, grantId: grant.id, codeHash: null, clientId, userId, scopes: grant.scopes, resources: null, dpopJkt: null, createdAt: tokenAt, expiresAt: tokenAt + 3600_000, revokedAt: null });
      }
      return grant;
    };
    const annA = await made(ann, 'listed-a', 1_000, 5_000);
    const annB = await made(ann, 'listed-b', 2_000);
    const benA = await made(ben, 'listed-a', 3_000, 4_000);
    expect(await services.stores.identityProviders.listActiveGrants(trust.id)).toEqual([
      { grantId: annA.id, clientId: 'listed-a', clientName: 'Agent listed-a', userId: ann, userName: expect.any(String), userEmail: 'ann@example.com', scopes: ['BOOKING_READ', 'PROFILE_READ'], createdAt: 1_000, lastTokenAt: 5_000 },
      { grantId: annB.id, clientId: 'listed-b', clientName: 'Agent listed-b', userId: ann, userName: expect.any(String), userEmail: 'ann@example.com', scopes: ['BOOKING_READ', 'PROFILE_READ'], createdAt: 2_000, lastTokenAt: null },
      { grantId: benA.id, clientId: 'listed-a', clientName: 'Agent listed-a', userId: ben, userName: expect.any(String), userEmail: 'ben@example.com', scopes: ['BOOKING_READ', 'PROFILE_READ'], createdAt: 3_000, lastTokenAt: 4_000 },
    ]);
    const revoked = await services.stores.transaction((tx) => tx.identityProviders.revokeGrantsOf(trust.id, 9_000, { userId: ann, clientId: 'listed-a' }));
    expect(revoked).toEqual([{ id: annA.id, clientId: 'listed-a', userId: ann }]);
    expect((await store.oauth.findAccessToken(`hash-${annA.id}`))!.revokedAt).toBe(9_000);
    expect((await store.oauth.findAccessToken(`hash-${benA.id}`))!.revokedAt).toBeNull();
    expect((await services.stores.identityProviders.listActiveGrants(trust.id)).map((g) => g.grantId)).toEqual([annB.id, benA.id]);
    expect(await services.stores.transaction((tx) => tx.identityProviders.revokeGrantsOf(trust.id, 9_500, { userId: ann }))).toEqual([{ id: annB.id, clientId: 'listed-b', userId: ann }]);
    expect(await services.stores.transaction((tx) => tx.identityProviders.revokeGrantsOf(trust.id, 9_900))).toEqual([{ id: benA.id, clientId: 'listed-a', userId: ben }]);
    expect(await services.stores.identityProviders.listActiveGrants(trust.id)).toEqual([]);
  });
});
