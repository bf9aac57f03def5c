// What a token an organization's identity provider granted reaches (docs/rules.md#enterprise-managed-reach):
// the platform API's access decision (src/platform/access-check.ts) called in process over
// SQLite :memory: through the real access read (src/storage/repositories/api-access.ts). Ada is
// an admin of Acme, whose identity provider granted the token, and of Globex, which never
// trusted it; the same decisions for a token of her own consent are the control. The attack
// over HTTP, on both databases, is test/http/enterprise-managed-agents.test.ts's.
import { expect, test } from 'vitest';
import type { OAuthContext } from '../../src/oauth/context.ts';
import type { GrantRecord } from '../../src/oauth/storage.ts';
import { timeOrderedId } from '../../src/oauth/token-format.ts';
import { mintAccessToken } from '../../src/oauth/token-response.ts';
import { authorizeApiRequest, authorizeBookingWrite, authorizePrincipal, type AccessGranted, type ApiAccessStore, type PresentedCredentials } from '../../src/platform/access-check.ts';
import type { Audience } from '../../src/platform/authorization-server.ts';
import type { AccessDenial } from '../../src/platform/membership.ts';
import { apiRoutes, type ApiRoute } from '../../src/platform/route-table.ts';
import { addIdentityProvider } from '../../src/services/identity-providers/identity-providers.ts';
import { addMember, createOrganization, createTeam } from '../../src/services/teams/teams.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrator.ts';
import { createApiAccessStore } from '../../src/storage/repositories/api-access.ts';
import { createIdentityAssertionStore } from '../../src/storage/stores/identity-assertions.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { createOAuthStore } from '../../src/storage/stores/oauth.ts';
import { userRecord } from '../storage/seed.ts';

const T0 = 1_700_000_000_000;
const BASE = 'https://gatehouse.example';
const audience: Audience = { resources: { default: `${BASE}/v2`, known: [`${BASE}/v2`, `${BASE}/mcp`] }, resource: `${BASE}/v2`, documentsServed: false };
const SCOPES = ['BOOKING_READ', 'ORG_BOOKING_READ', 'TEAM_BOOKING_WRITE'];

const route = (id: string): ApiRoute => apiRoutes.find((r) => r.id === id)!;
const presented = (token: string): PresentedCredentials => ({ authorization: `Bearer ${token}`, proof: { header: undefined, method: 'GET', url: `${BASE}/v2` } });

interface World {
  access: ApiAccessStore;
  ctx: ReturnType<typeof createServiceContext>;
  providerId: string;
  acme: string;
  globex: string;
  ada: string;
  acmeTeam: string;
  globexTeam: string;
  ownTeam: string;
  /** Ada's token from Acme's identity provider. */
  idpToken: string;
  /** Ada's token of her own consent, same client and scopes. */
  ownToken: string;
}

const it = test.extend<{ w: World }>({
  // Vitest reads a fixture's dependencies from its first parameter's pattern: this one has none.
  w: async ({}, use) => {
    const handle = openDatabase('sqlite::memory:');
    await migrateToLatest(handle);
    const now = T0;
    const ctx = createServiceContext(handle.db, () => now, { passwordHashing: 'owasp' });
    const oauth = createOAuthStore(handle.db);
    const user = async (name: string) => {
      const u = userRecord({ name, email: `${name.toLowerCase()}@acme.example`, createdAt: now, updatedAt: now });
      expect(await ctx.stores.users.insert(u)).toBe(true);
      return u.id;
    };
    const mint = async (grant: GrantRecord) => {
      const core = { clock: () => now, ttl: { accessToken: 3600 } } as unknown as OAuthContext;
      const access = mintAccessToken(core, { grantId: grant.id, codeHash: null, clientId: grant.clientId, userId: grant.userId, scopes: grant.scopes, resources: null }, null, null);
      await oauth.createAccessToken(access.accessRow);
      return access.accessToken;
    };
    const olive = await user('Olive');
    const gus = await user('Gus');
    const ada = await user('Ada');
    const acme = (await createOrganization(ctx, { name: 'Acme', ownerId: olive })).id;
    const globex = (await createOrganization(ctx, { name: 'Globex', ownerId: gus })).id;
    await addMember(ctx, { organizationId: acme }, ada, 'admin');
    await addMember(ctx, { organizationId: globex }, ada, 'admin');
    const acmeTeam = (await createTeam(ctx, { name: 'Acme Sales', ownerId: olive, organizationId: acme })).id;
    const globexTeam = (await createTeam(ctx, { name: 'Globex Sales', ownerId: gus, organizationId: globex })).id;
    const ownTeam = (await createTeam(ctx, { name: 'Chess club', ownerId: ada })).id;
    const provider = await addIdentityProvider(ctx, { organizationId: acme, issuer: 'https://idp.acme.example', jwksUri: 'https://idp.acme.example/keys', domains: ['acme.example'] }, { actorId: olive });
    const clientId = 'client-agent';
    await ctx.stores.clients.insert({ id: clientId, name: 'Agent', description: '', homepageUrl: 'https://agent.example', logoUrl: null, ownerId: olive, kind: 'confidential', state: 'approved', redirectUris: ['https://agent.example/cb'], scopes: SCOPES, createdAt: now });
    const idpGrant: GrantRecord = { id: timeOrderedId(now), userId: ada, clientId, scopes: SCOPES, createdAt: now, revokedAt: null };
    await createIdentityAssertionStore(handle.db).createTrustGrant(idpGrant, provider.id);
    const ownGrant: GrantRecord = { id: timeOrderedId(now), userId: ada, clientId, scopes: SCOPES, createdAt: now, revokedAt: null };
    await oauth.createGrant(ownGrant);
    await use({ access: createApiAccessStore(handle.db), ctx, providerId: provider.id, acme, globex, ada, acmeTeam, globexTeam, ownTeam, idpToken: await mint(idpGrant), ownToken: await mint(ownGrant) });
    await handle.close();
  },
});

const decide = (w: World, token: string, id: string, params: { teamId?: string; orgId?: string }) => authorizeApiRequest(w.access, () => T0, route(id), presented(token), params, audience);

function refusal(result: AccessGranted | AccessDenial): AccessDenial {
  expect('ok' in result, JSON.stringify(result)).toBe(false);
  return result as AccessDenial;
}

it("another organization's routes, where the member is an admin, are refused for the organization the token acts for", async ({ w }) => {
  for (const [id, params] of [
    ['orgBookings.list', { orgId: w.globex }],
    ['orgs.teamBookings.list', { orgId: w.globex, teamId: w.globexTeam }],
  ] as const) {
    expect(refusal(await decide(w, w.idpToken, id, params)), id).toEqual({
      status: 403,
      code: 'forbidden',
      message: `this token acts for the organization ${w.acme}, so it reaches only that organization's routes (/v2/organizations/${w.acme}/…), its teams' and its member's own: this route needs a token the member authorized for themselves, or one an identity provider of this route's organization granted`,
    });
    // The control: her own consent reaches them, as her roles there allow.
    expect(await decide(w, w.ownToken, id, params), id).toMatchObject({ ok: true });
  }
});

it('a team outside the organization is refused, in another organization or in none; an unknown team is the route\'s own 404', async ({ w }) => {
  for (const teamId of [w.globexTeam, w.ownTeam]) {
    expect(refusal(await decide(w, w.idpToken, 'teamBookings.list', { teamId }))).toEqual({ status: 403, code: 'forbidden', message: `this token acts for the organization ${w.acme} and reaches no team outside it` });
    expect(await decide(w, w.ownToken, 'teamBookings.list', { teamId })).toMatchObject({ ok: true });
  }
  expect(refusal(await decide(w, w.idpToken, 'teamBookings.list', { teamId: 'no-such-team' }))).toMatchObject({ status: 404, message: 'no such team' });
  // Under the organization's own path, a team of another is not there, as for anyone.
  expect(refusal(await decide(w, w.idpToken, 'orgs.teamBookings.list', { orgId: w.acme, teamId: w.globexTeam }))).toMatchObject({ status: 404, message: 'no such team in this organization' });
});

it("the organization's own routes and teams, and the member's own routes, answer as her roles allow", async ({ w }) => {
  const granted = await decide(w, w.idpToken, 'orgBookings.list', { orgId: w.acme });
  expect(granted).toMatchObject({ ok: true, principal: { userId: w.ada, organizationId: w.acme } });
  expect(await decide(w, w.idpToken, 'orgs.teamBookings.list', { orgId: w.acme, teamId: w.acmeTeam })).toMatchObject({ ok: true });
  expect(await decide(w, w.idpToken, 'teamBookings.list', { teamId: w.acmeTeam })).toMatchObject({ ok: true });
  expect(await decide(w, w.idpToken, 'bookings.list', {})).toMatchObject({ ok: true });
  // The MCP server decides a personal tool on the POST's principal (src/platform/mcp/tools.ts).
  expect(authorizePrincipal((granted as AccessGranted).principal!, route('bookings.list'))).toMatchObject({ ok: true });
  // Her own consent carries no organization.
  expect(((await decide(w, w.ownToken, 'bookings.list', {})) as AccessGranted).principal).not.toHaveProperty('organizationId');
});

it('a booking write without the manageToken reaches team bookings of the organization only, and the member\'s own bookings', async ({ w }) => {
  const write = (token: string, booking: { hostId: string | null; teamId: string | null }) => authorizeBookingWrite(w.access, () => T0, presented(token), booking, audience);
  expect(refusal(await write(w.idpToken, { hostId: null, teamId: w.globexTeam }))).toEqual({ status: 403, code: 'forbidden', message: `this token acts for the organization ${w.acme} and reaches no team outside it` });
  expect(await write(w.ownToken, { hostId: null, teamId: w.globexTeam })).toMatchObject({ ok: true });
  expect(await write(w.idpToken, { hostId: null, teamId: w.acmeTeam })).toMatchObject({ ok: true });
  // A booking she has no part in stays the unknown booking it is to anyone.
  expect(refusal(await write(w.idpToken, { hostId: 'someone-else', teamId: null }))).toMatchObject({ status: 404 });
});

it('a token whose identity provider is no longer there is refused, never left without its organization', async ({ w }) => {
  // A row gone without its grants' revocation (as a deleted organization's cascade would leave it): the grant still names it.
  expect(await w.ctx.stores.identityProviders.delete(w.providerId)).toBe(true);
  expect(refusal(await decide(w, w.idpToken, 'orgBookings.list', { orgId: w.globex }))).toMatchObject({
    status: 401,
    code: 'invalid_token',
    message: 'the identity provider that granted this access token is no longer trusted',
  });
  expect(refusal(await decide(w, w.idpToken, 'bookings.list', {}))).toMatchObject({ status: 401 });
});
