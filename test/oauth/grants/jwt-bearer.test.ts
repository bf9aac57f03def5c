// The JWT bearer grant with an ID-JAG (RFC 7523 §2.1, §3; draft-ietf-oauth-identity-assertion-authz-grant
// §3, §4; docs/integrating.md#enterprise-managed-agents), on the core over SQLite :memory:: a test
// identity provider made here (its keys made with jose, its key set served by the fetch the
// core is opened with), an organization that trusts it, and every refusal the grant makes.
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWK } from 'jose';
import { expect, test } from 'vitest';
import { decideAuthorization } from '../../../src/oauth/authorize/index.ts';
import { JWT_BEARER_GRANT_TYPE } from '../../../src/oauth/identity-assertion.ts';
import { handleTokenRequest } from '../../../src/oauth/token-endpoint.ts';
import { hashToken, randomId } from '../../../src/oauth/token-format.ts';
import { requestCode, verifyCode } from '../../../src/services/accounts/verification.ts';
import { CLI_OPERATOR } from '../../../src/services/actors.ts';
import { addIdentityProvider, linkSubject, removeIdentityProvider, unlinkSubject, type IdentityProvider } from '../../../src/services/identity-providers/identity-providers.ts';
import { KEYS_COOLDOWN_MS, type FetchKeys } from '../../../src/services/identity-providers/keys.ts';
import { addMember, createOrganization } from '../../../src/services/teams/teams.ts';
import { userRecord } from '../../storage/seed.ts';
import { credentials, ISSUER, openCore, REDIRECT_URI, rejection, type Core, type SeededClient } from '../core.ts';

const IDP = 'https://idp.acme.example';
const JWKS_URI = 'https://idp.acme.example/keys';

interface Enterprise {
  core: Core;
  /** The key sets the identity provider publishes, by URL, and how often each was fetched. */
  published: Map<string, { keys: JWK[] }>;
  fetches: () => number;
  key: { privateKey: CryptoKey; kid: string; jwk: JWK };
  organizationId: string;
  provider: IdentityProvider;
  /** A member of the organization whose e-mail ada@acme.example is verified. */
  ada: string;
  client: SeededClient;
}

async function keyPair(alg: 'ES256' | 'RS256' | 'PS256' | 'EdDSA', kid: string) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return { jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }, privateKey, kid };
}

async function userWithEmail(core: Core, email: string): Promise<string> {
  const user = userRecord({ email, createdAt: core.clock.now(), updatedAt: core.clock.now() });
  expect(await core.stores.users.insert(user)).toBe(true);
  return user.id;
}

/** /v2/verified-resources/emails: the user proves the address with the code sent to it. */
async function verifyEmail(core: Core, userId: string, email: string): Promise<void> {
  let sent = '';
  await requestCode(core.services, { userId }, 'email', email, (_kind, _to, code) => (sent = code));
  await verifyCode(core.services, { userId }, 'email', email, sent);
}

const it = test.extend<{ enterprise: Enterprise }>({
  // Vitest reads a fixture's dependencies from its first parameter's pattern: this one has none.
  enterprise: async ({}, use) => {
    const published = new Map<string, { keys: JWK[] }>();
    let fetches = 0;
    const fetchKeys: FetchKeys = async (target) => {
      fetches += 1;
      const set = published.get(target.url.href);
      return set === undefined ? { status: 404, body: '' } : { status: 200, body: JSON.stringify(set) };
    };
    const core = await openCore({ identityProviderKeys: fetchKeys });
    const owner = await userWithEmail(core, 'owner@acme.example');
    const org = await createOrganization(core.services, { name: 'Acme', ownerId: owner });
    const ada = await userWithEmail(core, 'ada.personal@example.com');
    await addMember(core.services, { organizationId: org.id }, ada, 'member');
    await verifyEmail(core, ada, 'ada@acme.example');
    const provider = await addIdentityProvider(core.services, { organizationId: org.id, issuer: IDP, jwksUri: JWKS_URI, domains: ['acme.example'] }, { actorId: CLI_OPERATOR });
    const key = await keyPair('ES256', 'k1');
    published.set(JWKS_URI, { keys: [key.jwk] });
    const client = await core.client({ scopes: ['BOOKING_READ', 'PROFILE_READ'] });
    await use({ core, published, fetches: () => fetches, key, organizationId: org.id, provider, ada, client });
    await core.close();
  },
});

/** An ID-JAG as the identity provider issues it for Ada to the client, changed by `claims` and `header`. */
async function idJag(e: Enterprise, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}, key: { privateKey: CryptoKey; kid: string } = e.key, alg = 'ES256'): Promise<string> {
  const now = Math.floor(e.core.clock.now() / 1000);
  return new SignJWT({ iss: IDP, sub: 'okta|ada', aud: ISSUER, client_id: e.client.id, jti: randomId(), iat: now, exp: now + 300, email: 'ada@acme.example', ...claims })
    .setProtectedHeader({ alg, typ: 'oauth-id-jag+jwt', kid: key.kid, ...header })
    .sign(key.privateKey);
}

function exchange(e: Enterprise, assertion: string, extra: Record<string, string> = {}, client: SeededClient = e.client) {
  return handleTokenRequest(e.core.ctx, { body: { ...credentials(client), grant_type: JWT_BEARER_GRANT_TYPE, assertion, ...extra }, authorization: undefined }).then((a) => a.body);
}

it('RFC 7523 §2.1, draft §4: a valid ID-JAG gets an access token for the member, no refresh token, audited with its issuer and jti', async ({ enterprise: e }) => {
  const jti = 'jag-1';
  const body = await exchange(e, await idJag(e, { jti }));
  expect(body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: e.core.ctx.ttl.accessToken, scope: 'BOOKING_READ PROFILE_READ' });
  expect('refresh_token' in body).toBe(false);

  const token = (await e.core.ctx.store.findAccessToken(hashToken(body.access_token)))!;
  expect(token).toMatchObject({ userId: e.ada, clientId: e.client.id, scopes: ['BOOKING_READ', 'PROFILE_READ'], resources: null, revokedAt: null });
  const [issued] = await e.core.stores.auditLog.list({ clientId: e.client.id });
  expect(issued).toMatchObject({ type: 'token.issued', userId: e.ada, data: { grant_type: JWT_BEARER_GRANT_TYPE, issuer: IDP, jti, grantId: token.grantId, identityProviderId: e.provider.id, linked: true } });
  // The first ID-JAG linked the subject to the account its verified e-mail found.
  expect(await e.core.stores.identityProviders.findLink(IDP, 'okta|ada')).toMatchObject({ userId: e.ada, createdBy: null });
  // docs/rules.md#silent-authorization: the organization's grant is not the user's consent.
  expect(await e.core.ctx.store.findGrant(token.grantId)).toMatchObject({ userId: e.ada, revokedAt: null });
  expect(await e.core.ctx.store.listActiveGrants(e.ada, e.client.id)).toEqual([]);
});

it('draft §4: a second ID-JAG of the same subject reuses the grant and follows the link, not a changed e-mail', async ({ enterprise: e }) => {
  const first = await exchange(e, await idJag(e));
  const bob = await userWithEmail(e.core, 'bob@example.com');
  await addMember(e.core.services, { organizationId: e.organizationId }, bob, 'member');
  await verifyEmail(e.core, bob, 'bob@acme.example');
  const second = await exchange(e, await idJag(e, { email: 'bob@acme.example' }));
  const [a, b] = await Promise.all([first, second].map(async (t) => (await e.core.ctx.store.findAccessToken(hashToken(t.access_token)))!));
  expect(b!.userId).toBe(e.ada);
  expect(b!.grantId).toBe(a!.grantId);
});

it('an account the organization made is found by its sign-in address, its own verified e-mail', async ({ enterprise: e }) => {
  const made = userRecord({ email: 'carol@acme.example', createdByOrganizationId: e.organizationId });
  expect(await e.core.stores.users.insert(made)).toBe(true);
  await addMember(e.core.services, { organizationId: e.organizationId }, made.id, 'member');
  const body = await exchange(e, await idJag(e, { sub: 'okta|carol', email: 'carol@acme.example' }));
  expect((await e.core.ctx.store.findAccessToken(hashToken(body.access_token)))!.userId).toBe(made.id);
});

it('draft §3: an assertion whose typ is not oauth-id-jag+jwt is refused', async ({ enterprise: e }) => {
  await rejection(exchange(e, await idJag(e, {}, { typ: 'JWT' })), 'invalid_grant', /typ must be "oauth-id-jag\+jwt"/);
});

it('RFC 7523 §3 point 3: an ID-JAG for another audience is refused', async ({ enterprise: e }) => {
  await rejection(exchange(e, await idJag(e, { aud: 'https://other-as.example' })), 'invalid_grant', /aud must be this authorization server's issuer identifier/);
});

it('RFC 7523 §3 point 1: an ID-JAG of an issuer no organization trusts is refused', async ({ enterprise: e }) => {
  await rejection(exchange(e, await idJag(e, { iss: 'https://idp.evil.example' })), 'invalid_grant', /issuer https:\/\/idp\.evil\.example is not an identity provider any organization here trusts/);
});

it('RFC 7523 §3 point 9: an ID-JAG signed with a key the issuer does not publish is refused, whatever kid it names', async ({ enterprise: e }) => {
  const stranger = await keyPair('ES256', 'k1');
  await rejection(exchange(e, await idJag(e, {}, {}, stranger)), 'invalid_grant', /signature does not verify/);
  e.core.clock.advance(KEYS_COOLDOWN_MS / 1000 + 1);
  const unknownKid = await keyPair('ES256', 'k9');
  await rejection(exchange(e, await idJag(e, {}, {}, unknownKid)), 'invalid_grant', /none of its identity provider's keys .* matches its alg and kid/);
});

it('a key rotated in at the identity provider is fetched on the first ID-JAG that names it; an unknown kid fetches at most once per cool-down', async ({ enterprise: e }) => {
  await exchange(e, await idJag(e));
  expect(e.fetches()).toBe(1);
  const rotated = await keyPair('EdDSA', 'k2');
  e.published.set(JWKS_URI, { keys: [e.key.jwk, rotated.jwk] });
  // Within the cool-down, the kept set answers: the new kid is not known yet.
  await rejection(exchange(e, await idJag(e, {}, {}, rotated, 'EdDSA')), 'invalid_grant', /matches its alg and kid/);
  expect(e.fetches()).toBe(1);
  e.core.clock.advance(KEYS_COOLDOWN_MS / 1000 + 1);
  const body = await exchange(e, await idJag(e, {}, {}, rotated, 'EdDSA'));
  expect(body.access_token).toEqual(expect.any(String));
  expect(e.fetches()).toBe(2);
});

it('RFC 7523 §3 point 9: none and HMAC algorithms are refused, never verified', async ({ enterprise: e }) => {
  const now = Math.floor(e.core.clock.now() / 1000);
  const claims = { iss: IDP, sub: 'okta|ada', aud: ISSUER, client_id: e.client.id, jti: randomId(), iat: now, exp: now + 300 };
  const unsecured = new UnsecuredJWT(claims).encode().replace(/^[^.]+/, Buffer.from(JSON.stringify({ alg: 'none', typ: 'oauth-id-jag+jwt' })).toString('base64url'));
  await rejection(exchange(e, unsecured), 'invalid_grant', /alg must be one of RS256, PS256, ES256, EdDSA/);
  const hmac = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'oauth-id-jag+jwt', kid: 'k1' }).sign(new TextEncoder().encode('a shared secret of at least 32 bytes!'));
  await rejection(exchange(e, hmac), 'invalid_grant', /alg must be one of/);
});

it('draft §3: an ID-JAG issued to another client is refused', async ({ enterprise: e }) => {
  const other = await e.core.client({ scopes: ['PROFILE_READ'] });
  await rejection(exchange(e, await idJag(e), {}, other), 'invalid_grant', /issued to another client/);
});

it('RFC 7523 §3 point 4, 6: an expired ID-JAG, one that lives too long and one issued in the future are refused', async ({ enterprise: e }) => {
  const assertion = await idJag(e);
  e.core.clock.advance(300 + 31);
  await rejection(exchange(e, assertion), 'invalid_grant', /expired/);
  const now = Math.floor(e.core.clock.now() / 1000);
  await rejection(exchange(e, await idJag(e, { iat: now, exp: now + 3600 })), 'invalid_grant', /more than 300 seconds after its iat/);
  await rejection(exchange(e, await idJag(e, { iat: now + 120, exp: now + 300 })), 'invalid_grant', /iat is in the future/);
});

it('RFC 7523 §3 point 7: an ID-JAG is used once', async ({ enterprise: e }) => {
  const assertion = await idJag(e);
  await exchange(e, assertion);
  await rejection(exchange(e, assertion), 'invalid_grant', /already been used/);
});

it('draft §4: an unknown subject is refused: no link and no verified e-mail of a member, or no e-mail at all', async ({ enterprise: e }) => {
  await rejection(exchange(e, await idJag(e, { sub: 'okta|nobody', email: 'nobody@acme.example' })), 'invalid_grant', /unknown subject: no member .* has this verified email/);
  await rejection(exchange(e, await idJag(e, { sub: 'okta|nobody', email: undefined })), 'invalid_grant', /unknown subject: .*carries no email/);
  // An address the user only claimed, never proved, finds nobody.
  const eve = await userWithEmail(e.core, 'eve@example.com');
  await addMember(e.core.services, { organizationId: e.organizationId }, eve, 'member');
  await requestCode(e.core.services, { userId: eve }, 'email', 'eve@acme.example', () => undefined);
  await rejection(exchange(e, await idJag(e, { sub: 'okta|eve', email: 'eve@acme.example' })), 'invalid_grant', /unknown subject/);
});

it("draft §4: another organization's member, or an address outside the provider's domains, is refused", async ({ enterprise: e }) => {
  // A member of another organization whose verified e-mail is in the provider's domain.
  const globexOwner = await userWithEmail(e.core, 'owner@globex.example');
  const globex = await createOrganization(e.core.services, { name: 'Globex', ownerId: globexOwner });
  const mallory = await userWithEmail(e.core, 'mallory@example.com');
  await addMember(e.core.services, { organizationId: globex.id }, mallory, 'member');
  await verifyEmail(e.core, mallory, 'mallory@acme.example');
  await rejection(exchange(e, await idJag(e, { sub: 'okta|mallory', email: 'mallory@acme.example' })), 'invalid_grant', /unknown subject/);
  await rejection(exchange(e, await idJag(e, { sub: 'okta|x', email: 'owner@globex.example' })), 'invalid_grant', /globex\.example, a domain its identity provider does not speak for/);
  // A linked account that is no longer a member of the organization.
  await linkSubject(e.core.services, { organizationId: e.organizationId, identityProviderId: e.provider.id, subject: 'okta|ada', userId: e.ada }, { actorId: CLI_OPERATOR });
  const membership = (await e.core.stores.teams.findMembershipOfUser({ organizationId: e.organizationId }, e.ada))!;
  await e.core.stores.teams.deleteMembership(membership.id);
  await rejection(exchange(e, await idJag(e)), 'invalid_grant', /not a member of the organization/);
});

it('an operator links a subject by hand, and unlinking revokes what the provider granted that account', async ({ enterprise: e }) => {
  const made = await userWithEmail(e.core, 'dave@elsewhere.example');
  await addMember(e.core.services, { organizationId: e.organizationId }, made, 'member');
  await linkSubject(e.core.services, { organizationId: e.organizationId, identityProviderId: e.provider.id, subject: 'okta|dave', userId: made }, { actorId: CLI_OPERATOR });
  const body = await exchange(e, await idJag(e, { sub: 'okta|dave', email: undefined }));
  const hash = hashToken(body.access_token);
  expect((await e.core.ctx.store.findAccessToken(hash))!.userId).toBe(made);
  const { grantsRevoked } = await unlinkSubject(e.core.services, { organizationId: e.organizationId, identityProviderId: e.provider.id, subject: 'okta|dave' }, { actorId: CLI_OPERATOR });
  expect(grantsRevoked).toBe(1);
  expect((await e.core.ctx.store.findAccessToken(hash))!.revokedAt).toBe(e.core.clock.now());
});

it('RFC 6749 §5.2 invalid_scope: a scope beyond the ID-JAG, the provider or the client is refused; without scope, the token has their intersection', async ({ enterprise: e }) => {
  await rejection(exchange(e, await idJag(e), { scope: 'SCHEDULE_READ' }), 'invalid_scope', /SCHEDULE_READ is beyond this application's registered scopes/);
  await rejection(exchange(e, await idJag(e, { scope: 'PROFILE_READ' }), { scope: 'BOOKING_READ' }), 'invalid_scope', /BOOKING_READ is beyond the scopes the ID-JAG grants/);
  const narrowed = await exchange(e, await idJag(e, { scope: 'PROFILE_READ SCHEDULE_READ' }));
  expect(narrowed.scope).toBe('PROFILE_READ');
  const asked = await exchange(e, await idJag(e), { scope: 'BOOKING_READ' });
  expect(asked.scope).toBe('BOOKING_READ');
  await rejection(exchange(e, await idJag(e, { scope: 'SCHEDULE_READ' })), 'invalid_scope', /grants none of the scopes/);
});

it("the scopes an organization lets its provider grant bound the token", async ({ enterprise: e }) => {
  await removeIdentityProvider(e.core.services, e.organizationId, e.provider.id, { actorId: CLI_OPERATOR });
  await addIdentityProvider(e.core.services, { organizationId: e.organizationId, issuer: IDP, jwksUri: JWKS_URI, domains: ['acme.example'], scopes: ['PROFILE_READ'] }, { actorId: CLI_OPERATOR });
  expect((await exchange(e, await idJag(e))).scope).toBe('PROFILE_READ');
  await rejection(exchange(e, await idJag(e), { scope: 'BOOKING_READ' }), 'invalid_scope', /beyond the scopes the organization lets its identity provider grant/);
});

it('RFC 8707: the ID-JAG names one of our resources and the token is bound to it; another resource is refused', async ({ enterprise: e }) => {
  const [v2, mcp] = [e.core.ctx.resources.default, e.core.ctx.resources.known.find((r) => r.endsWith('/mcp'))!];
  const body = await exchange(e, await idJag(e, { resource: mcp }));
  expect((await e.core.ctx.store.findAccessToken(hashToken(body.access_token)))!.resources).toEqual([mcp]);
  await rejection(exchange(e, await idJag(e, { resource: 'https://elsewhere.example/api' })), 'invalid_grant', /resource "https:\/\/elsewhere\.example\/api" is not a resource of this server/);
  await rejection(exchange(e, await idJag(e, { resource: mcp }), { resource: v2 }), 'invalid_target', /not one the ID-JAG was issued for/);
});

it('docs/rules.md#legacy-clients: a client without registered scopes is told to migrate', async ({ enterprise: e }) => {
  const legacy = await e.core.client({ scopes: null });
  await rejection(exchange(e, await idJag(e, { client_id: legacy.id }), {}, legacy), 'unauthorized_client', /migrate it to scopes/);
});

it('removing the identity provider revokes its grants and their tokens at once, audited; its next ID-JAG is refused', async ({ enterprise: e }) => {
  const body = await exchange(e, await idJag(e));
  const hash = hashToken(body.access_token);
  const { grantsRevoked } = await removeIdentityProvider(e.core.services, e.organizationId, e.provider.id, { actorId: CLI_OPERATOR });
  expect(grantsRevoked).toBe(1);
  expect((await e.core.ctx.store.findAccessToken(hash))!.revokedAt).toBe(e.core.clock.now());
  const [removed] = await e.core.stores.auditLog.list({});
  expect(removed).toMatchObject({ type: 'identity_provider.removed', actorId: CLI_OPERATOR, data: { organizationId: e.organizationId, identityProviderId: e.provider.id, issuer: IDP, grantsRevoked: 1 } });
  await rejection(exchange(e, await idJag(e)), 'invalid_grant', /not an identity provider any organization here trusts/);
});

it("the identity provider's keys that cannot be fetched answer temporarily_unavailable, naming why", async ({ enterprise: e }) => {
  e.published.delete(JWKS_URI);
  await rejection(exchange(e, await idJag(e)), 'temporarily_unavailable', /keys could not be had: its jwks_uri answered 404/);
});

it("docs/rules.md#silent-authorization: the provider's grant is never the user's consent: the browser's request for the same client still shows the consent page", async ({ enterprise: e }) => {
  await exchange(e, await idJag(e));
  const query = { response_type: 'code', client_id: e.client.id, redirect_uri: REDIRECT_URI, scope: 'PROFILE_READ', state: 'xyz' };
  expect(await decideAuthorization(e.core.ctx, query, { userId: e.ada, loggedInSinceAsked: false })).toMatchObject({ kind: 'consent', userId: e.ada });
  const silent = await decideAuthorization(e.core.ctx, { ...query, prompt: 'none' }, { userId: e.ada, loggedInSinceAsked: false });
  expect(silent.kind).toBe('redirect');
  expect(new URL((silent as { location: string }).location).searchParams.get('error')).toBe('consent_required');
});
