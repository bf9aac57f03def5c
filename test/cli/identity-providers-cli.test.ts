// gatehouse orgs idp add|list|remove|link|unlink (docs/operating.md, docs/integrating.md#enterprise-managed-agents):
// what they record is what the token endpoint trusts, --json is machine-readable, bad input is
// one line with exit 1, and removing a provider ends what it granted, audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_OPERATOR } from '../../src/services/actors.ts';
import { createUser } from '../../src/services/accounts/users.ts';
import { addMember, createOrganization } from '../../src/services/teams/teams.ts';
import { hashToken, timeOrderedId } from '../../src/oauth/token-format.ts';
import { mintAccessToken } from '../../src/oauth/token-response.ts';
import type { OAuthContext } from '../../src/oauth/context.ts';
import { createIdentityAssertionStore } from '../../src/storage/stores/identity-assertions.ts';
import { createOAuthStore } from '../../src/storage/stores/oauth.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { expectOneLineRefusal, runCli, type CliResult } from '../helpers/cli.ts';

describe.each(backends)('gatehouse orgs idp on $name', ({ name, available }) => {
  let database: TestDatabase;
  let orgId: string;
  let memberId: string;
  const owner = 'idp-owner@acme.example';
  const member = 'idp-member@acme.example';
  const outsider = 'idp-outsider@example.com';

  function gatehouse(...args: string[]): Promise<CliResult> {
    return runCli(args, { env: { ...database.env, DATABASE_URL: database.url } });
  }
  const services = () => createServiceContext(database.handle.db, Date.now, testServiceOptions);

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    const s = services();
    const ownerUser = await createUser(s, { email: owner, name: 'Owner', password: 'owner-password' });
    memberId = (await createUser(s, { email: member, name: 'Member', password: 'member-password' })).id;
    await createUser(s, { email: outsider, name: 'Outsider', password: 'outsider-password' });
    orgId = (await createOrganization(s, { name: 'Acme IdP', ownerId: ownerUser.id })).id;
    await addMember(s, { organizationId: orgId }, memberId, 'member');
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('add, list and remove an identity provider (--json and lines); removing it revokes its grants and their tokens, audited', async () => {
    const add = await gatehouse('orgs', 'idp', 'add', orgId, '--issuer', 'https://idp.acme.example', '--jwks-uri', 'https://idp.acme.example/keys', '--domain', 'Acme.example', 'acme.co.example', '--scope', 'PROFILE_READ', 'BOOKING_READ', '--json');
    expect(add.code, add.stderr).toBe(0);
    const added = JSON.parse(add.stdout);
    expect(added).toEqual({
      id: expect.any(String),
      organization_id: orgId,
      issuer: 'https://idp.acme.example',
      jwks_uri: 'https://idp.acme.example/keys',
      domains: ['acme.example', 'acme.co.example'],
      scopes: ['BOOKING_READ', 'PROFILE_READ'],
      created_at: expect.any(String),
    });
    const list = await gatehouse('orgs', 'idp', 'list', orgId, '--json');
    expect(JSON.parse(list.stdout)).toEqual([added]);
    const lines = await gatehouse('orgs', 'idp', 'list', orgId);
    expect(lines.stdout).toBe(`${added.id}  https://idp.acme.example  keys https://idp.acme.example/keys  domains acme.example acme.co.example  scopes: BOOKING_READ PROFILE_READ\n`);
    // The core sees the trust as the CLI recorded it.
    expect(await createIdentityAssertionStore(database.handle.db).findTrusts('https://idp.acme.example')).toEqual([
      { id: added.id, organizationId: orgId, issuer: 'https://idp.acme.example', jwksUri: 'https://idp.acme.example/keys', domains: ['acme.example', 'acme.co.example'], scopes: ['BOOKING_READ', 'PROFILE_READ'] },
    ]);

    // A grant the provider made, with a live token, as the JWT bearer grant writes them.
    const store = createIdentityAssertionStore(database.handle.db);
    await services().stores.clients.insert({ id: `idp-client-${name}`, name: 'Agent', description: '', homepageUrl: 'https://agent.example', logoUrl: null, ownerId: memberId, kind: 'confidential', state: 'approved', redirectUris: ['https://agent.example/cb'], scopes: ['PROFILE_READ'], createdAt: Date.now() });
    const grant = { id: timeOrderedId(Date.now()), userId: memberId, clientId: `idp-client-${name}`, scopes: ['PROFILE_READ'], createdAt: Date.now(), revokedAt: null };
    await store.createTrustGrant(grant, added.id);
    const ctx = { clock: Date.now, ttl: { accessToken: 3600 } } as unknown as OAuthContext;
    const access = mintAccessToken(ctx, { grantId: grant.id, codeHash: null, clientId: grant.clientId, userId: memberId, scopes: grant.scopes, resources: null }, null, null);
    await store.oauth.createAccessToken(access.accessRow);

    const remove = await gatehouse('orgs', 'idp', 'remove', orgId, added.id, '--json');
    expect(remove.code, remove.stderr).toBe(0);
    expect(JSON.parse(remove.stdout)).toMatchObject({ id: added.id, removed: true, grants_revoked: 1 });
    const oauth = createOAuthStore(database.handle.db);
    expect((await oauth.findAccessToken(hashToken(access.accessToken)))!.revokedAt).toEqual(expect.any(Number));
    expect((await oauth.findGrant(grant.id))!.revokedAt).toEqual(expect.any(Number));
    const [removed] = await services().stores.auditLog.list({});
    expect(removed).toMatchObject({ type: 'identity_provider.removed', actorId: CLI_OPERATOR, data: { organizationId: orgId, identityProviderId: added.id, issuer: 'https://idp.acme.example', grantsRevoked: 1 } });
    const empty = await gatehouse('orgs', 'idp', 'list', orgId);
    expect(empty.stdout).toMatch(/trusts no identity provider/);
  });

  it.skipIf(!available)('link and unlink a subject by hand, only to a member of the organization', async () => {
    const add = await gatehouse('orgs', 'idp', 'add', orgId, '--issuer', 'https://login.acme.example', '--jwks-uri', 'https://login.acme.example/jwks', '--domain', 'acme.example', '--json');
    const { id } = JSON.parse(add.stdout);
    const link = await gatehouse('orgs', 'idp', 'link', orgId, id, '--subject', '00u1', '--user', member, '--json');
    expect(link.code, link.stderr).toBe(0);
    expect(JSON.parse(link.stdout)).toEqual({ issuer: 'https://login.acme.example', subject: '00u1', user_id: memberId, user: member });
    expect(await createIdentityAssertionStore(database.handle.db).findLinkedUser('https://login.acme.example', '00u1')).toBe(memberId);
    expectOneLineRefusal(await gatehouse('orgs', 'idp', 'link', orgId, id, '--subject', '00u1', '--user', member), /^gatehouse: the subject 00u1 of https:\/\/login\.acme\.example is linked already: unlink it first$/);
    expectOneLineRefusal(await gatehouse('orgs', 'idp', 'link', orgId, id, '--subject', '00u2', '--user', outsider), /not a member of organization/);

    const unlink = await gatehouse('orgs', 'idp', 'unlink', orgId, id, '--subject', '00u1');
    expect(unlink.code, unlink.stderr).toBe(0);
    expect(unlink.stdout).toBe('unlinked 00u1 of https://login.acme.example; 0 grants revoked\n');
    expect(await createIdentityAssertionStore(database.handle.db).findLinkedUser('https://login.acme.example', '00u1')).toBeUndefined();
    expectOneLineRefusal(await gatehouse('orgs', 'idp', 'unlink', orgId, id, '--subject', '00u1'), /is not linked$/);
  });

  it.skipIf(!available)('refuses bad input with one line, recording nothing', async () => {
    const base = ['orgs', 'idp', 'add', orgId, '--issuer', 'https://idp.bad.example', '--jwks-uri', 'https://idp.bad.example/keys', '--domain', 'bad.example'];
    const swap = (flag: string, value: string) => base.map((a, i) => (base[i - 1] === flag ? value : a));
    expectOneLineRefusal(await gatehouse(...swap('--issuer', 'http://idp.bad.example')), /issuer must use https/);
    expectOneLineRefusal(await gatehouse(...swap('--jwks-uri', 'not a url')), /jwks_uri must be an absolute https URL/);
    expectOneLineRefusal(await gatehouse(...swap('--domain', 'not a domain')), /"not a domain" is not an e-mail domain/);
    expectOneLineRefusal(await gatehouse(...base, '--scope', 'PROFILE_REED'), /unknown scope/);
    expectOneLineRefusal(await gatehouse('orgs', 'idp', 'add', 'no-such-org', ...base.slice(4)), /organization no-such-org not found/);
    expectOneLineRefusal(await gatehouse('orgs', 'idp', 'remove', orgId, 'no-such-idp'), /has no identity provider no-such-idp/);
    expect(await createIdentityAssertionStore(database.handle.db).findTrusts('https://idp.bad.example')).toEqual([]);
    expect((await gatehouse(...base)).code).toBe(0);
    expectOneLineRefusal(await gatehouse(...base), /already trusts the issuer https:\/\/idp\.bad\.example/);
  });
});
