// The token endpoint's steps (src/oauth/token-endpoint.ts: handleTokenRequest) in the order
// they run: parameters, grant_type, client authentication, the grant's own parameters. The
// body is what the HTTP layer parsed from a form or JSON; parsing itself is HTTP's (test/http).
import { describe, expect } from 'vitest';
import { handleTokenRequest } from '../../src/oauth/token-endpoint.ts';
import { hashToken } from '../../src/oauth/token-format.ts';
import { basic, credentials, exchange, it, rejection, tokenRequest, type Core, type SeededClient } from './core.ts';

async function codeFor(core: Core, client: SeededClient, resources: string[] | null = null) {
  return core.code(client, await core.grant(client, await core.user()), { resources });
}

async function unspent(core: Core, code: string) {
  return (await core.ctx.store.findCode(hashToken(code)))?.consumedAt === null;
}

describe('reading the parameters (RFC 6749 §3.1, §3.2)', () => {
  it('RFC 6749 §3.1: a parameter sent more than once is invalid_request naming it, before anything is spent', async ({ core }) => {
    const client = await core.client();
    const code = await codeFor(core, client);
    await rejection(exchange(core, client, code, { code: [code, code] }), 'invalid_request', /^code was sent more than once$/);
    await rejection(exchange(core, client, code, { client_id: [client.id, client.id] }), 'invalid_request', /^client_id was sent more than once$/);
    expect(await unspent(core, code)).toBe(true);
  });

  it('RFC 8707 §2: resource alone may be sent more than once', async ({ core }) => {
    const known = [...core.ctx.resources.known];
    const client = await core.client();
    const tokens = await exchange(core, client, await codeFor(core, client, known), { resource: [...known].reverse() });
    expect((await core.ctx.store.findAccessToken(hashToken(tokens.access_token)))?.resources).toEqual(known);
  });

  it('RFC 8707 §2: a resource that is not one of the server\'s is invalid_target naming it', async ({ core }) => {
    const client = await core.client();
    const code = await codeFor(core, client);
    await rejection(exchange(core, client, code, { resource: 'https://elsewhere.example.com/api' }), 'invalid_target', /^resource "https:\/\/elsewhere\.example\.com\/api" was not part of this authorization/);
  });

  it('RFC 6749 §3.1: an empty parameter counts as absent', async ({ core }) => {
    const client = await core.client();
    await rejection(exchange(core, client, ''), 'invalid_request', /^code is required$/);
    await rejection(tokenRequest(core, client, { grant_type: '' }), 'invalid_request', /^grant_type is required$/);
  });

  it('RFC 6749 §5.2: a malformed request (a value that is not a string, a body that is not a set of parameters, a value over 4096 characters) is invalid_request', async ({ core }) => {
    const client = await core.client();
    const body = { grant_type: 'authorization_code', ...credentials(client) };
    await rejection(handleTokenRequest(core.ctx, { body: { ...body, code: 42 }, authorization: undefined }), 'invalid_request', /^code must be a string$/);
    await rejection(handleTokenRequest(core.ctx, { body: ['grant_type'], authorization: undefined }), 'invalid_request', /named parameters/);
    await rejection(exchange(core, client, 'x'.repeat(4097)), 'invalid_request', /code is too long/);
  });

  it('RFC 6749 §3.2: parameters the grant does not take are ignored', async ({ core }) => {
    const client = await core.client();
    const tokens = await exchange(core, client, await codeFor(core, client), {
      scope: 'BOOKING_WRITE',
      refresh_token: 'not-looked-at',
      state: 'ignored',
      nonce: 'n',
    });
    expect(tokens.scope).toBe('PROFILE_READ');
  });
});

describe('choosing the grant (RFC 6749 §5.2)', () => {
  it('RFC 6749 §5.2: a grant_type Gatehouse does not implement is unsupported_grant_type', async ({ core }) => {
    const client = await core.client();
    for (const grantType of ['password', 'client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'AUTHORIZATION_CODE']) {
      await rejection(tokenRequest(core, client, { grant_type: grantType }), 'unsupported_grant_type', /authorization_code or refresh_token/);
    }
  });

  it('RFC 6749 §4.1.3: a missing grant_type is invalid_request naming it', async ({ core }) => {
    const client = await core.client();
    await rejection(tokenRequest(core, client, { code: await codeFor(core, client), redirect_uri: client.redirectUri }), 'invalid_request', /grant_type/);
  });
});

describe('client authentication comes before the grant (RFC 6749 §3.2.1)', () => {
  it('RFC 6749 §3.2.1: a client that fails to authenticate spends nothing', async ({ core }) => {
    const client = await core.client();
    const code = await codeFor(core, client);
    await rejection(exchange(core, client, code, { client_secret: await core.secret((await core.client()).id) }), 'invalid_client');
    await rejection(exchange(core, client, code, { client_id: 'no-such-client' }), 'invalid_client');
    expect(await unspent(core, code)).toBe(true);
    expect((await exchange(core, client, code)).token_type).toBe('bearer');
  });

  it('RFC 6749 §2.3.1: client_secret_basic works as client_secret_post does', async ({ core }) => {
    const client = await core.client();
    const body = { grant_type: 'authorization_code', code: await codeFor(core, client), redirect_uri: client.redirectUri };
    const tokens = await handleTokenRequest(core.ctx, { body, authorization: basic(client.id, client.secret!) });
    expect(tokens.body.scope).toBe('PROFILE_READ');
  });

  it('RFC 6749 §2.3.1: a public client may send its client_id as the Basic user name with an empty password; a confidential client that does is invalid_client with a Basic challenge', async ({ core }) => {
    const asBasic = (client: SeededClient, refreshToken: string) =>
      handleTokenRequest(core.ctx, { body: { grant_type: 'refresh_token', refresh_token: refreshToken }, authorization: basic(client.id, '') });
    const publicClient = await core.client({ kind: 'public' });
    const own = await exchange(core, publicClient, await codeFor(core, publicClient));
    expect((await asBasic(publicClient, own.refresh_token)).body.scope).toBe('PROFILE_READ');
    const confidential = await core.client();
    const theirs = await exchange(core, confidential, await codeFor(core, confidential));
    const error = await rejection(asBasic(confidential, theirs.refresh_token), 'invalid_client', /client_secret is required/);
    expect(error.basicChallenge).toBe(true);
  });

  it('docs/integrating.md#client-lifecycle-in-the-web-app: a secret rotation ends no token; a refresh refused for a removed secret stays unspent and works with the other secret', async ({ core }) => {
    const client = await core.client();
    const tokens = await exchange(core, client, await codeFor(core, client));
    const added = await core.secret(client.id);
    const original = (await core.stores.clients.listSecrets(client.id)).find((s) => s.lastFour === client.secret!.slice(-4));
    await core.stores.clients.removeSecret(original!.id, core.clock.now());
    await rejection(tokenRequest(core, client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), 'invalid_client', /client_secret is not an active secret/);
    expect((await core.ctx.store.findAccessToken(hashToken(tokens.access_token)))?.revokedAt).toBeNull();
    expect((await core.ctx.store.findRefreshToken(hashToken(tokens.refresh_token)))?.spentAt).toBeNull();
    const withAdded = { ...client, secret: added };
    expect((await tokenRequest(core, withAdded, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).scope).toBe('PROFILE_READ');
  });

  it.for(['pending', 'rejected', 'suspended'] as const)(
    'docs/integrating.md#client-lifecycle-in-the-web-app: a %s client that authenticates is unauthorized_client, and its code stays unspent',
    async (state, { core }) => {
      const client = await core.client({ state });
      const code = await codeFor(core, client);
      await rejection(exchange(core, client, code), 'unauthorized_client', new RegExp(`is ${state}: only approved clients may request tokens`));
      expect(await unspent(core, code)).toBe(true);
    },
  );

  it('RFC 6749 §5.2: a pending client with a wrong secret is invalid_client, and its state is not told', async ({ core }) => {
    const client = await core.client({ state: 'pending' });
    const error = await rejection(exchange(core, client, await codeFor(core, client), { client_secret: await core.secret((await core.client()).id) }), 'invalid_client');
    expect(error.description).not.toMatch(/pending/);
  });

  it('docs/integrating.md#client-lifecycle-in-the-web-app: a client suspended after issuing cannot refresh; approved again, it can', async ({ core }) => {
    const client = await core.client();
    const tokens = await exchange(core, client, await codeFor(core, client));
    await core.stores.clients.update(client.id, { state: 'suspended' });
    await rejection(tokenRequest(core, client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }), 'unauthorized_client', /suspended/);
    await core.stores.clients.update(client.id, { state: 'approved' });
    expect((await tokenRequest(core, client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).scope).toBe('PROFILE_READ');
  });
});
