// POST /v2/auth/oauth2/token on every backend: PKCE (RFC 7636; docs/rules.md#client-authentication).
// The shared setup is in ./setup.ts.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../../src/oauth/token-format.ts';
import { backends } from '../../helpers/backends.ts';
import type { TestServer } from '../../helpers/server.ts';
import { expectOAuthError, expectTokens, FORM, pkcePair, TOKEN, useTokenEndpoint } from './setup.ts';

describe.each(backends)('token endpoint on $name', ({ name, available }) => {
  const t = useTokenEndpoint(name, available);
  const { code, approvedClient, issued, refresh, me } = t;
  let server: TestServer;
  beforeAll(() => {
    ({ server } = t);
  });

  // ---------------------------------------------------------------- PKCE

  describe('PKCE', () => {
    it.skipIf(!available)('exchanges a public client\'s code with code_verifier and no secret (RFC 7636 §4.5, docs/rules.md#client-authentication)', async () => {
      const client = await approvedClient({ kind: 'public' });
      expect(client.secret).toBeNull();
      const { verifier, challenge } = pkcePair();
      const issuedCode = await code(client, { code_challenge: challenge, code_challenge_method: 'S256' });
      const { access, refresh: refreshToken } = expectTokens(await server.exchange(client, issuedCode, { code_verifier: verifier }), 'PROFILE_READ');
      expect((await me(access)).status).toBe(200);
      // A public client refreshes with client_id alone.
      expectTokens(await refresh(client, refreshToken), 'PROFILE_READ');
    });

    it.skipIf(!available)('accepts an omitted code_challenge_method as S256 (docs/rules.md#pkce)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { verifier, challenge } = pkcePair();
      const issuedCode = await code(client, { code_challenge: challenge });
      expectTokens(await server.exchange(client, issuedCode, { code_verifier: verifier }), 'PROFILE_READ');
    });

    it.skipIf(!available)('exchanges a confidential client\'s code with PKCE (docs/rules.md#pkce: optional for confidential)', async () => {
      const client = await approvedClient();
      const { verifier, challenge } = pkcePair();
      const issuedCode = await code(client, { code_challenge: challenge, code_challenge_method: 'S256' });
      expectTokens(await server.exchange(client, issuedCode, { code_verifier: verifier }), 'PROFILE_READ');
    });

    it.skipIf(!available)('rejects a public client that sends a client_secret with 401 invalid_client (docs/rules.md#client-record, docs/rules.md#client-authentication)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { verifier, challenge } = pkcePair();
      const issuedCode = await code(client, { code_challenge: challenge });
      const res = await server.exchange(client, issuedCode, { code_verifier: verifier, client_secret: generateToken('clientSecret') });
      expectOAuthError(res, 401, 'invalid_client', /public/);
      const viaBasic = await server.token(
        { grant_type: 'authorization_code', code: issuedCode, redirect_uri: client.redirectUri, code_verifier: verifier },
        { basic: [client.clientId, 'anything'] },
      );
      expectOAuthError(viaBasic, 401, 'invalid_client');
      expect(viaBasic.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    });

    it.skipIf(!available)('identifies a public client that refreshes with HTTP Basic client_id and an empty password, as client-oauth2 sends it (docs/rules.md#client-authentication)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { verifier, challenge } = pkcePair();
      const first = expectTokens(await server.exchange(client, await code(client, { code_challenge: challenge }), { code_verifier: verifier }), 'PROFILE_READ');
      const emptyPassword = `Basic ${Buffer.from(`${client.clientId}:`).toString('base64')}`;
      const res = await server.post(TOKEN, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.refresh }).toString(), { ...FORM, authorization: emptyPassword });
      expectTokens(res, 'PROFILE_READ');
    });

    it.skipIf(!available)('still refuses a confidential client that sends HTTP Basic with an empty password: 401 invalid_client with WWW-Authenticate: Basic (RFC 6749 §2.3.1)', async () => {
      const first = await issued();
      const emptyPassword = `Basic ${Buffer.from(`${first.client.clientId}:`).toString('base64')}`;
      const res = await server.post(TOKEN, new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.refresh }).toString(), { ...FORM, authorization: emptyPassword });
      expectOAuthError(res, 401, 'invalid_client', 'client_secret is required');
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    });

    it.skipIf(!available)('rejects a missing code_verifier with invalid_grant (RFC 7636 §4.6, docs/rules.md#pkce)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { challenge } = pkcePair();
      const res = await server.exchange(client, await code(client, { code_challenge: challenge }));
      expectOAuthError(res, 400, 'invalid_grant', 'code_verifier');
    });

    it.skipIf(!available)('rejects a wrong code_verifier with invalid_grant (RFC 7636 §4.6, docs/rules.md#pkce)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { challenge } = pkcePair();
      const res = await server.exchange(client, await code(client, { code_challenge: challenge }), { code_verifier: pkcePair().verifier });
      expectOAuthError(res, 400, 'invalid_grant', 'code_verifier');
    });

    it.skipIf(!available)('rejects a code_verifier equal to the challenge (plain) with invalid_grant (docs/rules.md#pkce: S256 only)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const { challenge } = pkcePair();
      const res = await server.exchange(client, await code(client, { code_challenge: challenge }), { code_verifier: challenge });
      expectOAuthError(res, 400, 'invalid_grant', 'code_verifier');
    });

    it.skipIf(!available)('rejects a malformed code_verifier with invalid_grant (RFC 7636 §4.1, docs/rules.md#pkce)', async () => {
      const client = await approvedClient({ kind: 'public' });
      for (const bad of ['short', 'a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(50)} ${'b'.repeat(10)}`, `${'a'.repeat(50)}+/=`]) {
        // The challenge is the verifier's own S256 hash: only the verifier's shape is wrong.
        const challenge = createHash('sha256').update(bad).digest('base64url');
        const res = await server.exchange(client, await code(client, { code_challenge: challenge }), { code_verifier: bad });
        expectOAuthError(res, 400, 'invalid_grant', 'code_verifier');
      }
    });

    it.skipIf(!available)('rejects a code_verifier for a code issued without a challenge with invalid_grant (docs/rules.md#pkce)', async () => {
      const client = await approvedClient();
      const res = await server.exchange(client, await code(client), { code_verifier: pkcePair().verifier });
      expectOAuthError(res, 400, 'invalid_grant', 'code_verifier');
    });

    it.skipIf(!available)('redirects code_challenge_method=plain back with error=invalid_request (docs/rules.md#pkce, docs/rules.md#authorize-errors)', async () => {
      for (const kind of ['public', 'confidential'] as const) {
        const client = await approvedClient({ kind });
        const back = await server.authorize(server.browser(), {
          client_id: client.clientId,
          redirect_uri: client.redirectUri,
          response_type: 'code',
          scope: 'PROFILE_READ',
          state: 'st-1',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'plain',
        });
        expect(back.origin + back.pathname).toBe(client.redirectUri);
        expect(back.searchParams.get('error')).toBe('invalid_request');
        expect(back.searchParams.get('error_description')).toMatch(/code_challenge_method/);
        expect(back.searchParams.get('state')).toBe('st-1');
        expect(back.searchParams.get('iss')).toBe(server.config.issuer);
        expect(back.searchParams.get('code')).toBeNull();
      }
    });

    it.skipIf(!available)('redirects a public client\'s request without code_challenge back with error=invalid_request (docs/rules.md#authorization-request)', async () => {
      const client = await approvedClient({ kind: 'public' });
      const back = await server.authorize(server.browser(), {
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        response_type: 'code',
        scope: 'PROFILE_READ',
        state: 'st-2',
      });
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toMatch(/code_challenge/);
      expect(back.searchParams.get('state')).toBe('st-2');
    });
  });
});
