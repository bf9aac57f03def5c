// POST /v2/auth/oauth2/token on every backend: the refresh grant: rotation, reuse, idle expiry (docs/rules.md#token-endpoint; docs/rules.md#lifetimes, docs/rules.md#refresh-rotation).
// The shared setup is in ./setup.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../../src/oauth/token-format.ts';
import { backends } from '../../helpers/backends.ts';
import { accessTokenOf, auditEvents, refreshTokenOf } from '../../helpers/stores.ts';
import { startTestServer, type TestServer, type TestUser } from '../../helpers/server.ts';
import { expectOAuthError, expectTokens, pkcePair, useTokenEndpoint } from './setup.ts';

describe.each(backends)('token endpoint on $name', ({ name, available }) => {
  const t = useTokenEndpoint(name, available);
  const { code, approvedClient, issued, refresh, me } = t;
  let server: TestServer;
  let user: TestUser;
  beforeAll(() => {
    ({ server, user } = t);
  });

  // ---------------------------------------------------------------- refresh

  describe('refresh', () => {
    it.skipIf(!available)('returns a new access and refresh token with the same scope (docs/rules.md#token-endpoint, docs/rules.md#refresh-rotation)', async () => {
      const first = await issued({ scope: 'PROFILE_READ BOOKING_READ' });
      const res = await refresh(first.client, first.refresh);
      const next = expectTokens(res, 'BOOKING_READ PROFILE_READ');
      expect(next.access).not.toBe(first.access);
      expect(next.refresh).not.toBe(first.refresh);
      expect((await me(next.access)).status).toBe(200);
      // The earlier access token is not revoked by a normal rotation.
      expect((await me(first.access)).status).toBe(200);
    });

    it.skipIf(!available)('refreshes with client_secret_basic and with a JSON body (docs/rules.md#client-authentication, docs/rules.md#token-endpoint)', async () => {
      const first = await issued();
      const viaBasic = await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh }, { basic: [first.client.clientId, first.client.secret!] });
      const second = expectTokens(viaBasic, 'PROFILE_READ');
      const viaJson = await server.token(
        { grant_type: 'refresh_token', refresh_token: second.refresh, client_id: first.client.clientId, client_secret: first.client.secret! },
        { json: true },
      );
      expectTokens(viaJson, 'PROFILE_READ');
    });

    it.skipIf(!available)('spends the old refresh token: the database records one rotation with the old token as parent (docs/rules.md#refresh-rotation)', async () => {
      const first = await issued();
      const next = expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
      const old = (await refreshTokenOf(server, first.refresh))!;
      const successor = (await refreshTokenOf(server, next.refresh))!;
      expect(old.parentId).toBeNull();
      expect(old.spentAt).not.toBeNull();
      expect(successor.parentId).toBe(old.id);
      expect(successor.spentAt).toBeNull();
      // Each pair is stored with the event of its issue (OAuthStore.createTokenPair): one rotation.
      const issues = () => auditEvents(server, { clientId: first.client.clientId, type: ['token.issued', 'token.refreshed'] });
      expect((await issues()).map((e) => e.type)).toEqual(['token.issued', 'token.refreshed']);
      // The successor is the one that rotates next; the spent one does not rotate again.
      const third = expectTokens(await refresh(first.client, next.refresh), 'PROFILE_READ');
      expect((await refreshTokenOf(server, third.refresh))!.parentId).toBe(successor.id);
      expect((await issues()).map((e) => e.type)).toEqual(['token.issued', 'token.refreshed', 'token.refreshed']);
    });

    it.skipIf(!available)('answers the spent token again within 30 seconds with the very same pair (docs/rules.md#refresh-rotation)', async () => {
      const first = await issued();
      const res = await refresh(first.client, first.refresh);
      expectTokens(res, 'PROFILE_READ');
      server.advance(29);
      const again = await refresh(first.client, first.refresh);
      expect(again.status).toBe(200);
      expect(again.headers.get('cache-control')).toBe('no-store');
      expect(again.body).toEqual(res.body);
      // No second rotation happened, and nothing was revoked.
      expect(await auditEvents(server, { clientId: first.client.clientId, type: 'token.refreshed' })).toHaveLength(1);
      for (const token of [first.refresh, res.body.refresh_token as string]) expect((await refreshTokenOf(server, token))!.revokedAt).toBeNull();
      expect((await me(res.body.access_token as string)).status).toBe(200);
    });

    /** A spent token back after the window: the whole grant ends, whatever the client's kind. */
    async function expectReplayRevokesGrant(first: Awaited<ReturnType<typeof issued>>) {
      const second = expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
      const third = expectTokens(await refresh(first.client, second.refresh), 'PROFILE_READ');
      server.advance(31);
      const reused = await refresh(first.client, first.refresh);
      expectOAuthError(reused, 400, 'invalid_grant', /already been used/);

      for (const access of [first.access, second.access, third.access]) {
        const profile = await me(access);
        expect(profile.status).toBe(401);
        expect(profile.headers.get('www-authenticate')).toContain('error="invalid_token"');
      }
      expectOAuthError(await refresh(first.client, third.refresh), 400, 'invalid_grant');

      // Three pairs were issued, each stored with its event, and all of them ended.
      expect(await auditEvents(server, { clientId: first.client.clientId, type: ['token.issued', 'token.refreshed'] })).toHaveLength(3);
      const chain = await Promise.all([first.refresh, second.refresh, third.refresh].map(async (t) => (await refreshTokenOf(server, t))!));
      expect(chain.every((r) => r.revokedAt !== null && r.successorBox === null)).toBe(true);
      const access = await Promise.all([first.access, second.access, third.access].map(async (t) => (await accessTokenOf(server, t))!));
      expect(access.every((r) => r.revokedAt !== null)).toBe(true);
      expect(new Set([...chain, ...access].map((r) => r.grantId)).size).toBe(1);
      expect((await server.oauth.findGrant(chain[0]!.grantId))!.revokedAt).not.toBeNull();
      const events = await auditEvents(server, { clientId: first.client.clientId, type: 'refresh_token.reused' });
      expect(events).toHaveLength(1);
      expect(events[0]!.userId).toBe(user.id);
      expect(JSON.stringify(events[0]!.data)).not.toContain(first.refresh);
    }

    it.skipIf(!available)('revokes the whole grant when a spent token comes back after the window (RFC 9700 §4.14.2, docs/rules.md#refresh-rotation)', async () => {
      await expectReplayRevokesGrant(await issued());
    });

    it.skipIf(!available)('revokes the whole grant when a public client\'s spent token comes back after the window, as for a confidential one (RFC 9700 §4.14.2, docs/rules.md#refresh-rotation)', async () => {
      const client = await approvedClient({ kind: 'public' });
      expect(client.secret).toBeNull();
      const { verifier, challenge } = pkcePair();
      const res = await server.exchange(client, await code(client, { code_challenge: challenge, code_challenge_method: 'S256' }), { code_verifier: verifier });
      const { access, refresh: refreshToken } = expectTokens(res, 'PROFILE_READ');
      await expectReplayRevokesGrant({ client, access, refresh: refreshToken, body: res.body! });
    });

    it.skipIf(!available)('accepts a scope parameter equal to the original grant (docs/rules.md#refresh-scope)', async () => {
      const first = await issued({ scope: 'PROFILE_READ BOOKING_READ' });
      const next = expectTokens(await refresh(first.client, first.refresh, { scope: 'PROFILE_READ,BOOKING_READ' }), 'BOOKING_READ PROFILE_READ');
      expectTokens(await refresh(first.client, next.refresh, { scope: 'BOOKING_READ PROFILE_READ' }), 'BOOKING_READ PROFILE_READ');
    });

    it.skipIf(!available)('rejects a scope parameter that differs from the original grant with invalid_scope and leaves the token usable (docs/rules.md#refresh-scope)', async () => {
      const first = await issued({ scope: 'PROFILE_READ BOOKING_READ' });
      for (const scope of ['PROFILE_READ', 'PROFILE_READ BOOKING_READ PROFILE_WRITE', 'PROFILE_WRITE', 'NOT_A_SCOPE', 'profile_read booking_read']) {
        const res = await refresh(first.client, first.refresh, { scope });
        expectOAuthError(res, 400, 'invalid_scope', 'scope');
      }
      expectTokens(await refresh(first.client, first.refresh), 'BOOKING_READ PROFILE_READ');
    });

    it.skipIf(!available)('rejects a refresh token issued to another client with invalid_grant and leaves it usable (RFC 6749 §6)', async () => {
      const first = await issued();
      const other = await approvedClient();
      const res = await refresh(other, first.refresh);
      expectOAuthError(res, 400, 'invalid_grant', 'another client');
      expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
    });

    it.skipIf(!available)('rejects a missing, malformed or unknown refresh token (RFC 6749 §5.2)', async () => {
      const first = await issued();
      const missing = await server.token({ grant_type: 'refresh_token', client_id: first.client.clientId, client_secret: first.client.secret! });
      expectOAuthError(missing, 400, 'invalid_request', 'refresh_token');
      for (const bad of ['x', first.access, first.refresh.slice(0, -1) + (first.refresh.endsWith('a') ? 'b' : 'a')]) {
        expectOAuthError(await refresh(first.client, bad), 400, 'invalid_grant', 'refresh_token');
      }
      expectOAuthError(await refresh(first.client, generateToken('refreshToken')), 400, 'invalid_grant', 'refresh_token');
    });

    it.skipIf(!available)('refuses to refresh for a client suspended after issuing (docs/rules.md#client-states)', async () => {
      const first = await issued();
      const { reviewClient } = await import('../../../src/services/clients/review.ts');
      await reviewClient(server.services, first.client.clientId, 'suspend', null);
      expectOAuthError(await refresh(first.client, first.refresh), 400, 'unauthorized_client', 'suspended');
      await reviewClient(server.services, first.client.clientId, 'approve', null);
      expectTokens(await refresh(first.client, first.refresh), 'PROFILE_READ');
    });

    it.skipIf(!available)('issues a legacy client scope "" and refreshes it (docs/rules.md#legacy-clients)', async () => {
      const client = await approvedClient({ scopes: null });
      const issuedCode = await code(client, { scope: 'PROFILE_READ BOOKING_READ' });
      const first = expectTokens(await server.exchange(client, issuedCode), '');
      expect((await me(first.access)).status).toBe(200);
      const next = expectTokens(await refresh(client, first.refresh), '');
      expect((await me(next.access)).status).toBe(200);
      expectTokens(await refresh(client, next.refresh), '');
    });
  });
});

describe.each(backends)('refresh idle expiry on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name, { REFRESH_TOKEN_IDLE_TTL_SECONDS: '100' });
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)('rejects a refresh token unused for REFRESH_TOKEN_IDLE_TTL_SECONDS with invalid_grant; each rotation renews the window (docs/rules.md#lifetimes)', async () => {
    const dev = await server.user();
    const user = await server.user();
    const client = await server.client(dev);
    const first = await server.exchange(client, await server.code(client, user));
    expect(first.status).toBe(200);
    const refreshWith = (token: unknown) =>
      server.token({ grant_type: 'refresh_token', refresh_token: token as string, client_id: client.clientId, client_secret: client.secret! });

    server.advance(90);
    const second = await refreshWith(first.body.refresh_token);
    expect(second.status).toBe(200);
    server.advance(90); // 180 s after issue, 90 s after the rotation
    const third = await refreshWith(second.body.refresh_token);
    expect(third.status).toBe(200);

    server.advance(101);
    const expired = await refreshWith(third.body.refresh_token);
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
    expect(expired.headers.get('cache-control')).toBe('no-store');
  });
});
