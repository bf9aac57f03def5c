// Token introspection (RFC 7662, src/oauth/introspection.ts: handleIntrospection) called
// directly: which tokens are active, to whom, and the members of an active answer.
import { describe, expect } from 'vitest';
import { handleIntrospection } from '../../src/oauth/introspection.ts';
import { generateToken } from '../../src/oauth/token-format.ts';
import { basic, credentials, exchange, issued, it, refresh, rejection, T0, type Core, type SeededClient } from './core.ts';

function introspect(core: Core, caller: SeededClient, token: string | undefined, extra: Record<string, string> = {}) {
  return handleIntrospection(core.ctx, { body: { ...credentials(caller), ...(token === undefined ? {} : { token }), ...extra }, authorization: undefined });
}

const inactive = { active: false };

describe('an active token (RFC 7662 §2.2)', () => {
  it('RFC 7662 §2.2: an access token is described by scope, client_id, sub, exp, iat, token_type, iss and aud', async ({ core }) => {
    const t = await issued(core, { grantScopes: ['PROFILE_READ', 'BOOKING_READ'] });
    expect(await introspect(core, t.client, t.tokens.access_token, { token_type_hint: 'access_token' })).toEqual({
      active: true,
      scope: 'BOOKING_READ PROFILE_READ',
      client_id: t.client.id,
      sub: t.userId,
      iat: T0 / 1000,
      exp: T0 / 1000 + 1800,
      token_type: 'Bearer',
      iss: core.ctx.issuer,
      aud: [core.ctx.resources.default],
    });
  });

  it('RFC 7662 §2.1: a refresh token is found without a hint, described with its idle expiry', async ({ core }) => {
    const t = await issued(core);
    expect(await introspect(core, t.client, t.tokens.refresh_token)).toMatchObject({
      active: true,
      token_type: 'refresh_token',
      client_id: t.client.id,
      sub: t.userId,
      exp: T0 / 1000 + core.ctx.ttl.refreshIdle,
    });
  });

  it('RFC 8707 §2: aud names the resources the token was issued for', async ({ core }) => {
    const known = [...core.ctx.resources.known];
    const client = await core.client();
    const tokens = await exchange(core, client, await core.code(client, await core.grant(client, await core.user()), { resources: known }));
    expect(await introspect(core, client, tokens.access_token)).toMatchObject({ active: true, aud: known });
    // Issued without resource, both tokens are for the default resource alone.
    const plain = await issued(core);
    for (const token of [plain.tokens.access_token, plain.tokens.refresh_token]) {
      expect(await introspect(core, plain.client, token)).toMatchObject({ active: true, aud: [core.ctx.resources.default] });
    }
  });
});

describe('an inactive token (RFC 7662 §2.2)', () => {
  it('RFC 7662 §2.2: an expired token is active:false', async ({ core }) => {
    const t = await issued(core);
    core.clock.advance(1799);
    expect(await introspect(core, t.client, t.tokens.access_token)).toMatchObject({ active: true });
    core.clock.advance(1);
    expect(await introspect(core, t.client, t.tokens.access_token)).toEqual(inactive);
    // The refresh token outlives it.
    expect(await introspect(core, t.client, t.tokens.refresh_token)).toMatchObject({ active: true });
  });

  it('RFC 7662 §2.2: revoked access and refresh tokens are active:false', async ({ core }) => {
    const t = await issued(core);
    await core.ctx.store.transaction((tx) => tx.revokeGrant(t.grant.id, T0));
    expect(await introspect(core, t.client, t.tokens.access_token)).toEqual(inactive);
    expect(await introspect(core, t.client, t.tokens.refresh_token)).toEqual(inactive);
  });

  it('RFC 7662 §2.2: a spent refresh token is active:false and its successor active', async ({ core }) => {
    const t = await issued(core);
    const next = await refresh(core, t.client, t.tokens.refresh_token);
    expect(await introspect(core, t.client, t.tokens.refresh_token)).toEqual(inactive);
    expect(await introspect(core, t.client, next.refresh_token)).toMatchObject({ active: true });
    expect(await introspect(core, t.client, next.access_token)).toMatchObject({ active: true });
  });

  it('RFC 7662 §2.2: a malformed or unknown token, or a credential of another kind, is active:false and nothing more', async ({ core }) => {
    const t = await issued(core);
    for (const token of ['garbage', 'gat_', `${t.tokens.access_token.slice(0, -2)}zz`, generateToken('accessToken'), generateToken('refreshToken'), generateToken('authorizationCode'), t.code, t.client.secret!]) {
      expect(await introspect(core, t.client, token)).toEqual(inactive);
    }
  });

  it('docs/integrating.md#client-lifecycle-in-the-web-app: the tokens of a suspended client are active:false until it is approved again', async ({ core }) => {
    const t = await issued(core);
    const resourceServer = await core.client({ resourceServer: true });
    await core.stores.clients.update(t.client.id, { state: 'suspended' });
    expect(await introspect(core, resourceServer, t.tokens.access_token)).toEqual(inactive);
    expect(await introspect(core, resourceServer, t.tokens.refresh_token)).toEqual(inactive);
    // The suspended client itself may not use the endpoint at all.
    await rejection(introspect(core, t.client, t.tokens.access_token), 'unauthorized_client', /suspended/);
    await core.stores.clients.update(t.client.id, { state: 'approved' });
    expect(await introspect(core, resourceServer, t.tokens.access_token)).toMatchObject({ active: true });
    expect(await introspect(core, resourceServer, t.tokens.refresh_token)).toMatchObject({ active: true });
  });
});

describe('who may introspect (RFC 7662 §2.1)', () => {
  it('docs/integrating.md: a client learns of its own tokens only; another\'s are active:false', async ({ core }) => {
    const victim = await issued(core);
    const other = await core.client();
    expect(await introspect(core, other, victim.tokens.access_token)).toEqual(inactive);
    expect(await introspect(core, other, victim.tokens.refresh_token)).toEqual(inactive);
  });

  it('docs/integrating.md: a resource server marked by an admin introspects any client\'s tokens', async ({ core }) => {
    const t = await issued(core);
    const resourceServer = await core.client({ resourceServer: true });
    expect(await introspect(core, resourceServer, t.tokens.access_token)).toMatchObject({ active: true, client_id: t.client.id, sub: t.userId });
    expect(await introspect(core, resourceServer, t.tokens.refresh_token)).toMatchObject({ active: true, client_id: t.client.id });
    // Being a resource server does not make a dead token alive.
    core.clock.advance(1800);
    expect(await introspect(core, resourceServer, t.tokens.access_token)).toEqual(inactive);
  });

  it('RFC 7662 §2.1: a public client cannot authenticate, so it cannot introspect even its own token', async ({ core }) => {
    const t = await issued(core, { kind: 'public' });
    await rejection(introspect(core, t.client, t.tokens.access_token), 'invalid_client', /a public client cannot authenticate/);
    // Its client_id as the Basic user name with an empty password identifies it no better, and asks for Basic.
    const viaBasic = await rejection(handleIntrospection(core.ctx, { body: { token: t.tokens.access_token }, authorization: basic(t.client.id, '') }), 'invalid_client');
    expect(viaBasic.basicChallenge).toBe(true);
  });

  it('RFC 7662 §2.1: the token parameter is required', async ({ core }) => {
    const client = await core.client();
    await rejection(introspect(core, client, undefined), 'invalid_request', /^token is required$/);
  });

  it('SECURITY.md: under CIMD_POLICY=off the tokens of a metadata-document client are active:false', async ({ core }) => {
    core.ctx.clientMetadata = { names: () => true, resolve: async () => ({ ok: false, problem: 'not used here' }) };
    const agent = await issued(core, { id: 'https://agent.example.com/client.json', kind: 'public' });
    const resourceServer = await core.client({ resourceServer: true });
    expect(await introspect(core, resourceServer, agent.tokens.access_token)).toMatchObject({ active: true });
    delete core.ctx.clientMetadata;
    expect(await introspect(core, resourceServer, agent.tokens.access_token)).toEqual(inactive);
    expect(await introspect(core, resourceServer, agent.tokens.refresh_token)).toEqual(inactive);
  });
});
