// The bearer check of the core (src/oauth/bearer.ts): reading the header, then judging the
// stored token (read here with TokenStore.findAccessToken, which carries the client's state as
// the platform's one query does), and the scope rule the guard applies to its principal
// (src/oauth/scopes.ts: grantSatisfies). The 401 and 403 answers are the platform's (test/platform).
import { describe, expect, it as pure } from 'vitest';
import { checkAccessRecord, parseBearer, type Audience } from '../../src/oauth/bearer.ts';
import { grantSatisfies } from '../../src/oauth/scopes.ts';
import { generateToken, hashToken } from '../../src/oauth/token-format.ts';
import { exchange, issued, it, T0, type Core } from './core.ts';

function atApi(core: Core, resource = core.ctx.resources.default): Audience {
  return { resources: core.ctx.resources, resource, documentsServed: core.ctx.clientMetadata !== undefined };
}

async function check(core: Core, accessToken: string, audience = atApi(core)) {
  const parsed = parseBearer(`Bearer ${accessToken}`);
  if (!parsed.ok) return parsed;
  return checkAccessRecord(core.ctx.clock, await core.ctx.store.findAccessToken(hashToken(parsed.token)), audience);
}

describe('reading the Authorization header (RFC 6750 §2.1)', () => {
  pure('RFC 6750 §3.1: no credentials at all is reason missing, with no error code', () => {
    for (const header of [undefined, '']) expect(parseBearer(header)).toMatchObject({ ok: false, reason: 'missing' });
  });

  pure('RFC 6750 §2.1: another scheme or a malformed token is invalid_token before any storage read', () => {
    const token = generateToken('accessToken');
    expect(parseBearer(`bearer ${token}`)).toEqual({ ok: true, token, scheme: 'Bearer' });
    for (const header of ['Bearer', 'Bearer not-a-token', `Bearer ${token.slice(4)}`, `Basic ${token}`, `Bearer ${token} extra`, `Bearer ${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`, `Bearer ${generateToken('refreshToken')}`]) {
      expect(parseBearer(header)).toMatchObject({ ok: false, reason: 'invalid_token' });
    }
  });
});

describe('judging the stored token (RFC 6750 §3.1)', () => {
  it('RFC 6750 §2.1: a live token gives its user, client, grant, scopes and expiry', async ({ core }) => {
    const t = await issued(core, { grantScopes: ['BOOKING_READ', 'PROFILE_READ'] });
    expect(await check(core, t.tokens.access_token)).toEqual({
      ok: true,
      principal: { userId: t.userId, clientId: t.client.id, grantId: t.grant.id, scopes: ['BOOKING_READ', 'PROFILE_READ'], expiresAt: T0 + 1800 * 1000 },
    });
  });

  it('RFC 6750 §3.1: an unknown, revoked or expired token is invalid_token, each saying which', async ({ core }) => {
    expect(await check(core, generateToken('accessToken'))).toMatchObject({ ok: false, reason: 'invalid_token', description: 'the access token is not valid' });
    const revoked = await issued(core);
    await core.ctx.store.revokeAccessToken(hashToken(revoked.tokens.access_token), T0);
    expect(await check(core, revoked.tokens.access_token)).toMatchObject({ ok: false, description: 'the access token has been revoked' });
    const expiring = await issued(core);
    core.clock.advance(1799);
    expect(await check(core, expiring.tokens.access_token)).toMatchObject({ ok: true });
    core.clock.advance(1);
    expect(await check(core, expiring.tokens.access_token)).toMatchObject({ ok: false, description: 'the access token has expired: refresh it' });
  });

  it('docs/integrating.md#client-lifecycle-in-the-web-app: a suspended client\'s tokens stop at once, and work again once it is approved', async ({ core }) => {
    const t = await issued(core);
    await core.stores.clients.update(t.client.id, { state: 'suspended' });
    expect(await check(core, t.tokens.access_token)).toMatchObject({ ok: false, reason: 'invalid_token', description: 'the application is suspended' });
    // Approved again, its tokens work again: the client's state is read with every check.
    await core.stores.clients.update(t.client.id, { state: 'approved' });
    expect(await check(core, t.tokens.access_token)).toMatchObject({ ok: true });
  });

  it('RFC 8707 §2: a token works only at the resources it was issued for; one issued without resource, at the default only', async ({ core }) => {
    const [api, mcp] = core.ctx.resources.known as [string, string];
    const plain = await issued(core);
    expect(await check(core, plain.tokens.access_token, atApi(core, mcp))).toMatchObject({ ok: false, description: `the access token was issued for ${api}, not for ${mcp}` });
    const client = await core.client();
    const forMcp = await exchange(core, client, await core.code(client, await core.grant(client, await core.user()), { resources: [mcp] }));
    expect(await check(core, forMcp.access_token, atApi(core, mcp))).toMatchObject({ ok: true });
    expect(await check(core, forMcp.access_token, atApi(core, api))).toMatchObject({ ok: false, reason: 'invalid_token' });
  });

  it('SECURITY.md: under CIMD_POLICY=off a metadata-document client\'s token is refused', async ({ core }) => {
    core.ctx.clientMetadata = { names: () => true, resolve: async () => ({ ok: false, problem: 'not used here' }) };
    const agent = await issued(core, { id: 'https://agent.example.com/client.json', kind: 'public' });
    expect(await check(core, agent.tokens.access_token)).toMatchObject({ ok: true });
    delete core.ctx.clientMetadata;
    expect(await check(core, agent.tokens.access_token)).toMatchObject({ ok: false, description: expect.stringMatching(/no longer accepted/) });
  });
});

describe('the scope of the principal (docs/integrating.md#scopes-and-endpoints)', () => {
  it('docs/integrating.md#scopes-and-endpoints: a token of an ORG_ grant passes the matching TEAM_ check, not the personal one', async ({ core }) => {
    const t = await issued(core, { grantScopes: ['ORG_BOOKING_READ'] });
    const result = await check(core, t.tokens.access_token);
    if (!result.ok) return expect.fail(result.description);
    expect(['ORG_BOOKING_READ', 'TEAM_BOOKING_READ', 'BOOKING_READ', 'TEAM_BOOKING_WRITE'].map((s) => grantSatisfies(result.principal.scopes, s))).toEqual([true, true, false, false]);
  });

  it('docs/integrating.md#scopes-and-endpoints: a legacy token (scopes null) passes every scope check', async ({ core }) => {
    const t = await issued(core, { scopes: null, grantScopes: null });
    const result = await check(core, t.tokens.access_token);
    if (!result.ok) return expect.fail(result.description);
    expect(result.principal.scopes).toBeNull();
    expect(['PROFILE_WRITE', 'TEAM_MEMBERSHIP_WRITE', 'ORG_WEBHOOK_WRITE'].every((s) => grantSatisfies(result.principal.scopes, s))).toBe(true);
  });
});
