// POST /v2/auth/oauth2/token on every backend: client authentication and secret rotation (RFC 6749 §2.3, §5.2; docs/rules.md#client-states, docs/rules.md#client-authentication, docs/rules.md#token-errors, docs/rules.md#audit-events).
// The shared setup is in ./setup.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../../src/oauth/token-format.ts';
import { backends } from '../../helpers/backends.ts';
import { auditEvents } from '../../helpers/stores.ts';
import type { TestServer, TestUser } from '../../helpers/server.ts';
import { expectNothingLeaked, expectOAuthError, expectTokens, FORM, TOKEN, useTokenEndpoint } from './setup.ts';

describe.each(backends)('token endpoint on $name', ({ name, available }) => {
  const t = useTokenEndpoint(name, available);
  const { code, approvedClient, issued, refresh, me } = t;
  let server: TestServer;
  let dev: TestUser;
  let user: TestUser;
  beforeAll(() => {
    ({ server, dev, user } = t);
  });

  // ---------------------------------------------------------------- client authentication

  describe('client authentication', () => {
    it.skipIf(!available)('rejects HTTP Basic and client_secret in the body at once with 400 invalid_request (docs/rules.md#client-authentication)', async () => {
      const client = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri, client_secret: client.secret! },
        { basic: [client.clientId, client.secret!] },
      );
      expectOAuthError(res, 400, 'invalid_request', /one client authentication method/);
    });

    it.skipIf(!available)('rejects a request without client authentication with 401 invalid_client (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      const res = await server.token({ grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri });
      expectOAuthError(res, 401, 'invalid_client', 'client_id');
    });

    it.skipIf(!available)('rejects a confidential client that sends client_id without a secret with 401 invalid_client (RFC 6749 §3.2.1)', async () => {
      const client = await approvedClient();
      const res = await server.token({
        grant_type: 'authorization_code',
        code: await code(client),
        redirect_uri: client.redirectUri,
        client_id: client.clientId,
      });
      expectOAuthError(res, 401, 'invalid_client', 'client_secret');
    });

    it.skipIf(!available)('rejects an unknown client_id with 401 invalid_client (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client), { client_id: 'no-such-client' });
      expectOAuthError(res, 401, 'invalid_client');
    });

    it.skipIf(!available)('rejects a wrong client_secret in the body with 401 invalid_client (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      const other = await approvedClient();
      const good = await code(client);
      for (const wrong of [other.secret!, generateToken('clientSecret'), 'secret', client.secret! + 'x', client.secret!.toUpperCase()]) {
        const res = await server.exchange(client, good, { client_secret: wrong });
        expectOAuthError(res, 401, 'invalid_client', 'client_secret');
        expectNothingLeaked(res, [client.secret, other.secret]);
      }
      // A request whose client failed to authenticate consumed nothing.
      expectTokens(await server.exchange(client, good), 'PROFILE_READ');
    });

    it.skipIf(!available)('answers a wrong secret sent with HTTP Basic with 401 invalid_client and WWW-Authenticate: Basic (RFC 6749 §5.2)', async () => {
      const client = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: generateToken('authorizationCode'), redirect_uri: client.redirectUri },
        { basic: [client.clientId, generateToken('clientSecret')] },
      );
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    });

    it.skipIf(!available)('answers an unknown client sent with HTTP Basic with 401 invalid_client and WWW-Authenticate: Basic (RFC 6749 §5.2)', async () => {
      const res = await server.token(
        { grant_type: 'authorization_code', code: generateToken('authorizationCode'), redirect_uri: 'https://app.example.com/callback' },
        { basic: ['no-such-client', generateToken('clientSecret')] },
      );
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    });

    it.skipIf(!available)('answers an undecodable Basic header with 401 invalid_client and WWW-Authenticate: Basic (RFC 6749 §2.3.1)', async () => {
      const body = new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'https://app.example.com/callback' }).toString();
      for (const header of ['Basic bm8tY29sb24=' /* "no-colon" */, `Basic ${Buffer.from('%zz:%zz').toString('base64')}`]) {
        const res = await server.post(TOKEN, body, { ...FORM, authorization: header });
        expectOAuthError(res, 401, 'invalid_client');
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
      }
    });

    it.skipIf(!available)('rejects a client_id in the body that differs from the Basic one with 400 invalid_request (RFC 6749 §2.3)', async () => {
      const client = await approvedClient();
      const other = await approvedClient();
      const res = await server.token(
        { grant_type: 'authorization_code', code: await code(client), redirect_uri: client.redirectUri, client_id: other.clientId },
        { basic: [client.clientId, client.secret!] },
      );
      expectOAuthError(res, 400, 'invalid_request', 'client_id');
    });

    it.skipIf(!available)('answers a pending client that authenticates with 400 unauthorized_client (docs/rules.md#client-states, docs/rules.md#token-errors)', async () => {
      const client = await approvedClient({ state: 'pending' });
      const res = await server.exchange(client, generateToken('authorizationCode'));
      expectOAuthError(res, 400, 'unauthorized_client', 'pending');
    });

    it.skipIf(!available)('answers a suspended client that authenticates with 400 unauthorized_client (docs/rules.md#client-states, docs/rules.md#token-errors)', async () => {
      const client = await approvedClient({ state: 'suspended' });
      const res = await server.exchange(client, generateToken('authorizationCode'));
      expectOAuthError(res, 400, 'unauthorized_client', 'suspended');
    });

    it.skipIf(!available)('answers a rejected client that authenticates with 400 unauthorized_client (docs/rules.md#client-states, docs/rules.md#token-errors)', async () => {
      const client = await approvedClient({ state: 'rejected' });
      const res = await server.exchange(client, generateToken('authorizationCode'));
      expectOAuthError(res, 400, 'unauthorized_client', 'rejected');
    });

    it.skipIf(!available)('answers a pending client with a wrong secret with 401 invalid_client, not its state (RFC 6749 §5.2)', async () => {
      const client = await approvedClient({ state: 'pending' });
      const res = await server.exchange(client, generateToken('authorizationCode'), { client_secret: generateToken('clientSecret') });
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.body!.error_description).not.toMatch(/pending/);
    });
  });

  // ---------------------------------------------------------------- secrets and events

  describe('secrets and events', () => {
    it.skipIf(!available)('accepts both active secrets during rotation, refuses a removed one at once, and keeps issued tokens (docs/rules.md#secret-rotation)', async () => {
      const { addSecret, listSecrets, removeSecret } = await import('../../../src/services/clients/secrets.ts');
      const first = await issued();
      const oldSecret = first.client.secret!;
      const oldId = (await listSecrets(server.services, first.client.clientId))[0]!.id;
      // The exchange marked the secret as used, so the developer can tell it is in use.
      expect((await listSecrets(server.services, first.client.clientId))[0]!.lastUsedAt).not.toBeNull();

      const added = await addSecret(server.services, first.client.clientId, dev.id);
      const withNew = { ...first.client, secret: added.secret };
      const viaNew = expectTokens(await refresh(withNew, first.refresh), 'PROFILE_READ');
      const viaOld = expectTokens(await refresh(first.client, viaNew.refresh), 'PROFILE_READ');

      await removeSecret(server.services, first.client.clientId, oldId, dev.id);
      const refused = await refresh(first.client, viaOld.refresh);
      expectOAuthError(refused, 401, 'invalid_client', 'client_secret');
      expectNothingLeaked(refused, [oldSecret, added.secret]);
      // Rotation never touches issued tokens: the access tokens still work, the refresh
      // token refused above is still unspent and works with the new secret.
      expect((await me(first.access)).status).toBe(200);
      expect((await me(viaOld.access)).status).toBe(200);
      expectTokens(await refresh(withNew, viaOld.refresh), 'PROFILE_READ');
    });

    it.skipIf(!available)('records token.issued and token.refreshed events with client and user, and no credential (docs/rules.md#audit-events)', async () => {
      const first = await issued();
      const next = expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
      const events = await auditEvents(server, { clientId: first.client.clientId, type: ['token.issued', 'token.refreshed'] });
      expect(events.map((e) => e.type)).toEqual(['token.issued', 'token.refreshed']);
      for (const e of events) {
        expect(e.userId).toBe(user.id);
        for (const value of [first.access, first.refresh, next.access, next.refresh, first.client.secret!]) {
          expect(JSON.stringify(e)).not.toContain(value);
        }
      }
      // A replay within the window answers from the stored pair and rotates nothing.
      await refresh(first.client, first.refresh);
      const after = await auditEvents(server, { clientId: first.client.clientId, type: 'token.refreshed' });
      expect(after).toHaveLength(1);
    });
  });
});
