// POST /v2/auth/oauth2/token on every backend: code exchange: success and errors (RFC 6749 §4.1.3; docs/rules.md#token-errors, docs/rules.md#lifetimes, docs/rules.md#code-replay).
// The shared setup is in ./setup.ts.
import { listAuthorizedApps, revokeAuthorizedApp } from '../../../src/services/clients/authorized-apps.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../../src/oauth/token-format.ts';
import { backends } from '../../helpers/backends.ts';
import { auditEvents } from '../../helpers/stores.ts';
import { startTestServer, type TestServer, type TestUser } from '../../helpers/server.ts';
import { expectOAuthError, expectTokens, useTokenEndpoint } from './setup.ts';

describe.each(backends)('token endpoint on $name', ({ name, available }) => {
  const t = useTokenEndpoint(name, available);
  const { code, approvedClient, refresh, me } = t;
  let server: TestServer;
  let user: TestUser;
  beforeAll(() => {
    ({ server, user } = t);
  });

  // ---------------------------------------------------------------- code exchange: success

  describe('code exchange', () => {
    it.skipIf(!available)('exchanges a code sent as a form body with client_secret_post (RFC 6749 §4.1.3, §2.3.1)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client));
      const { access } = expectTokens(res, 'PROFILE_READ');
      const profile = await me(access);
      expect(profile.status).toBe(200);
      expect(profile.body.data.email).toBe(user.email);
    });

    it.skipIf(!available)('exchanges a code sent as a JSON body (docs/rules.md#token-endpoint)', async () => {
      const client = await approvedClient();
      const res = await server.token(
        {
          grant_type: 'authorization_code',
          code: await code(client),
          redirect_uri: client.redirectUri,
          client_id: client.clientId,
          client_secret: client.secret!,
        },
        { json: true },
      );
      const { access } = expectTokens(res, 'PROFILE_READ');
      expect((await me(access)).status).toBe(200);
    });

    it.skipIf(!available)('exchanges a code with client_secret_basic (RFC 6749 §2.3.1)', async () => {
      const client = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri },
        { basic: [client.clientId, client.secret!] },
      );
      expectTokens(res, 'PROFILE_READ');
    });

    it.skipIf(!available)('accepts client_secret_basic with the same client_id repeated in the body (RFC 6749 §2.3.1)', async () => {
      const client = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri, client_id: client.clientId },
        { basic: [client.clientId, client.secret!] },
      );
      expectTokens(res, 'PROFILE_READ');
    });

    it.skipIf(!available)('returns the granted scopes joined by single spaces in registry order (docs/rules.md#token-response, docs/rules.md#scope-syntax)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client, { scope: 'BOOKING_READ,PROFILE_READ PROFILE_READ' }));
      expectTokens(res, 'BOOKING_READ PROFILE_READ');
    });

    it.skipIf(!available)('ignores unknown parameters (RFC 6749 §3.2, docs/rules.md#request-parameters)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client), {
        foo: 'bar',
        state: 'ignored',
        scope: 'BOOKING_READ',
        nonce: 'n',
        refresh_token: 'not-looked-at',
      });
      expectTokens(res, 'PROFILE_READ');
    });
  });

  // ---------------------------------------------------------------- code exchange: errors

  describe('code exchange errors', () => {
    it.skipIf(!available)('rejects a missing code with 400 invalid_request naming code (docs/rules.md#token-errors)', async () => {
      const client = await approvedClient();
      const res = await server.token({
        grant_type: 'authorization_code',
        redirect_uri: client.redirectUri,
        client_id: client.clientId,
        client_secret: client.secret!,
      });
      expectOAuthError(res, 400, 'invalid_request', /\bcode\b/);
    });

    it.skipIf(!available)('rejects a missing redirect_uri with 400 invalid_request naming redirect_uri (docs/rules.md#token-errors)', async () => {
      const client = await approvedClient();
      const res = await server.token({
        grant_type: 'authorization_code',
        code: await code(client),
        client_id: client.clientId,
        client_secret: client.secret!,
      });
      expectOAuthError(res, 400, 'invalid_request', 'redirect_uri');
    });

    it.skipIf(!available)('rejects an empty code with 400 invalid_request naming code (RFC 6749 §3.1: empty is absent)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, '');
      expectOAuthError(res, 400, 'invalid_request', /\bcode\b/);
    });

    it.skipIf(!available)('rejects a redirect_uri other than the authorization request\'s with invalid_grant (RFC 6749 §4.1.3)', async () => {
      const client = await approvedClient({ redirectUris: ['https://app.example.com/callback', 'https://app.example.com/other'] });
      const issuedCode = await code(client);
      const res = await server.exchange(client, issuedCode, { redirect_uri: 'https://app.example.com/other' });
      expectOAuthError(res, 400, 'invalid_grant', 'redirect_uri does not match the authorization request');
      // Exact string match: a trailing slash is another URI.
      const again = await server.exchange(client, await code(client), { redirect_uri: 'https://app.example.com/callback/' });
      expectOAuthError(again, 400, 'invalid_grant', 'redirect_uri does not match the authorization request');
    });

    it.skipIf(!available)('rejects a code issued to another client with invalid_grant (RFC 6749 §4.1.3)', async () => {
      const owner = await approvedClient();
      const thief = await approvedClient();
      const res = await server.exchange(thief, await code(owner));
      expectOAuthError(res, 400, 'invalid_grant', 'another client');
    });

    it.skipIf(!available)('rejects a malformed code with invalid_grant (docs/rules.md#token-formats)', async () => {
      const client = await approvedClient();
      const good = await code(client);
      const flipped = good.slice(0, 10) + (good[10] === 'a' ? 'b' : 'a') + good.slice(11);
      for (const bad of ['abc', 'gac_', flipped, good.replace('gac_', 'gat_'), good + 'x', 'gac_' + '!'.repeat(49)]) {
        const res = await server.exchange(client, bad);
        expectOAuthError(res, 400, 'invalid_grant', /\bcode\b/);
      }
      // The checksum caught the flipped character before storage: the real code still works.
      expectTokens(await server.exchange(client, good), 'PROFILE_READ');
    });

    it.skipIf(!available)('rejects a well-formed code that was never issued with invalid_grant (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, generateToken('authorizationCode'));
      expectOAuthError(res, 400, 'invalid_grant', /\bcode\b/);
    });

    it.skipIf(!available)('rejects a code older than 60 seconds with invalid_grant (docs/rules.md#lifetimes)', async () => {
      const client = await approvedClient();
      const fresh = await code(client);
      server.advance(59);
      expectTokens(await server.exchange(client, fresh), 'PROFILE_READ');
      const stale = await code(client);
      server.advance(61);
      const res = await server.exchange(client, stale);
      expectOAuthError(res, 400, 'invalid_grant', /expired/);
    });

    it.skipIf(!available)('rejects a reused authorization code and revokes its tokens (RFC 6749 §4.1.2, docs/rules.md#code-replay)', async () => {
      const client = await approvedClient();
      const once = await code(client);
      const first = expectTokens(await server.exchange(client, once), 'PROFILE_READ');
      expect((await me(first.access)).status).toBe(200);

      const second = await server.exchange(client, once);
      expectOAuthError(second, 400, 'invalid_grant', /already been used/);

      const profile = await me(first.access);
      expect(profile.status).toBe(401);
      expect(profile.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expectOAuthError(await refresh(client, first.refresh), 400, 'invalid_grant');

      const events = await auditEvents(server, { clientId: client.clientId, type: 'code.replayed' });
      expect(events).toHaveLength(1);
      expect(events[0]!.userId).toBe(user.id);
      expect(JSON.stringify(events[0]!.data)).not.toContain(once);
    });

    it.skipIf(!available)('keeps a code single-use even when its first redemption failed (RFC 6749 §4.1.2)', async () => {
      const client = await approvedClient();
      const once = await code(client);
      expectOAuthError(await server.exchange(client, once, { redirect_uri: 'https://app.example.com/wrong' }), 400, 'invalid_grant');
      expectOAuthError(await server.exchange(client, once), 400, 'invalid_grant');
    });

    it.skipIf(!available)('rejects an unsupported grant_type with 400 unsupported_grant_type (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      for (const grantType of ['password', 'client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'AUTHORIZATION_CODE']) {
        const res = await server.token({ grant_type: grantType, client_id: client.clientId, client_secret: client.secret! });
        expectOAuthError(res, 400, 'unsupported_grant_type', 'grant_type');
      }
    });

    it.skipIf(!available)('rejects a missing grant_type with 400 invalid_request naming grant_type (RFC 6749 §4.1.3)', async () => {
      const client = await approvedClient();
      const res = await server.token({ code: await code(client), redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret! });
      expectOAuthError(res, 400, 'invalid_request', 'grant_type');
    });
  });
});

describe.each(backends)('codes of a revoked authorization on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('refuses a code whose authorization the user revoked before redemption, without reporting a replay (RFC 6749 §4.1.2, docs/rules.md#audit-events)', async () => {
    const dev = await server.user();
    const user = await server.user();
    const client = await server.client(dev);
    const code = await server.code(client, user);
    const [authorized] = await listAuthorizedApps(server.services, user.id);
    await revokeAuthorizedApp(server.services, user.id, authorized!.grantId);
    const res = await server.exchange(client, code);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/revoked/) });
    const replays = await auditEvents(server, { clientId: client.clientId, type: 'code.replayed' });
    expect(replays).toHaveLength(0);
  });
});
