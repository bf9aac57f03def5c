// ID tokens at the token endpoint (src/oauth/id-token.ts, grants/authorization-code.ts) and
// UserInfo's decision (src/oauth/userinfo.ts), on the core over SQLite :memory:. Each token is
// verified with jose against the keys the core publishes (what jwks_uri answers).
import { createHash } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { describe, expect } from 'vitest';
import { idTokenAlgorithmOf } from '../../src/oauth/id-token.ts';
import { answerUserInfo } from '../../src/oauth/userinfo.ts';
import { parseScopeParameter } from '../../src/oauth/scopes.ts';
import { checkScopes } from '../../src/services/clients/input.ts';
import { exchange, ISSUER, it, rejection, T0, type Core, type SeededClient } from './core.ts';

const OIDC = ['openid', 'profile', 'email', 'PROFILE_READ'];

/** A code exchange for a client holding the identity scopes; `alg` as the client registered it. */
async function signIn(core: Core, scopes: string[], options: { nonce?: string; authTime?: number; alg?: string } = {}) {
  const created = await core.client({ scopes: OIDC });
  if (options.alg !== undefined) await core.stores.clients.update(created.id, { idTokenSignedResponseAlg: options.alg });
  const client = { ...created, record: (await core.ctx.store.findClient(created.id))! };
  const userId = await core.user();
  const grant = await core.grant(client, userId, scopes);
  const code = await core.code(client, grant, { nonce: options.nonce ?? null, ...(options.authTime === undefined ? {} : { authTime: options.authTime }) });
  const tokens = await exchange(core, client, code);
  return { client, userId, tokens };
}

/** The ID token verified as a relying party verifies it: against the published keys. */
async function verified(core: Core, client: SeededClient, idToken: string | undefined, alg = 'RS256'): Promise<JWTPayload> {
  expect(idToken).toBeDefined();
  const jwks = createLocalJWKSet({ keys: await core.ctx.signingKeys.published() });
  const { payload } = await jwtVerify(idToken!, jwks, { issuer: ISSUER, audience: client.id, algorithms: [alg], currentDate: new Date(core.clock.now()) });
  return payload;
}

describe('ID tokens (OIDC Core 3.1.3.3)', () => {
  it('OIDC Core 3.1.3.3: a code whose request held openid returns an ID token beside the pair', async ({ core }) => {
    const { client, userId, tokens } = await signIn(core, ['openid', 'PROFILE_READ']);
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'openid PROFILE_READ', id_token: expect.any(String) });
    const claims = await verified(core, client, tokens.id_token);
    expect(claims).toEqual({
      iss: ISSUER,
      sub: userId,
      aud: client.id,
      iat: T0 / 1000,
      exp: T0 / 1000 + 1800,
      auth_time: T0 / 1000,
      at_hash: createHash('sha256').update(tokens.access_token).digest().subarray(0, 16).toString('base64url'),
    });
  });

  it('OIDC Core 3.1.2.1: without openid in the request nothing changes: no ID token', async ({ core }) => {
    const { tokens } = await signIn(core, ['PROFILE_READ']);
    expect(Object.keys(tokens).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
  });

  it('OIDC Core 5.4: name only under profile, email and email_verified only under email', async ({ core }) => {
    const profile = await signIn(core, ['openid', 'profile']);
    expect(await verified(core, profile.client, profile.tokens.id_token)).toMatchObject({ name: 'Ada' });
    expect(await verified(core, profile.client, profile.tokens.id_token)).not.toHaveProperty('email');
    const email = await signIn(core, ['openid', 'email']);
    const claims = await verified(core, email.client, email.tokens.id_token);
    expect(claims).toMatchObject({ email: expect.stringMatching(/@example\.com$/), email_verified: false });
    expect(claims).not.toHaveProperty('name');
  });

  it('OIDC Core 5.4: email_verified is true once a code sent to the sign-in address came back', async ({ core }) => {
    const client = await core.client({ scopes: OIDC });
    const userId = await core.user();
    const user = await core.stores.users.findById(userId);
    await core.stores.verifiedResources.insert({ id: 'vr-1', userId, teamId: null, kind: 'email', value: user!.email, verifiedAt: T0, codeHash: null, codeExpiresAt: null, attempts: 0, createdAt: T0, updatedAt: T0 });
    const code = await core.code(client, await core.grant(client, userId, ['openid', 'email']));
    const tokens = await exchange(core, client, code);
    expect(await verified(core, client, tokens.id_token)).toMatchObject({ email: user!.email, email_verified: true });
  });

  it('OIDC Core 3.1.3.6: the nonce of the request comes back; auth_time is when the user logged in', async ({ core }) => {
    const { client, tokens } = await signIn(core, ['openid'], { nonce: 'n-0S6_WzA2Mj', authTime: T0 - 3_600_000 });
    expect(await verified(core, client, tokens.id_token)).toMatchObject({ nonce: 'n-0S6_WzA2Mj', auth_time: T0 / 1000 - 3600 });
  });

  it('OIDC Core 2: sub is the user id, the same for every client, never the e-mail', async ({ core }) => {
    const first = await signIn(core, ['openid', 'email']);
    const claims = await verified(core, first.client, first.tokens.id_token);
    expect(claims.sub).toBe(first.userId);
    expect(claims.sub).not.toBe(claims.email);
  });

  it.for(['ES256', 'PS256', 'EdDSA'])('OIDC Registration 2: a client that registered %s gets its ID tokens signed so, with a published kid', async (alg, { core }) => {
    const { client, tokens } = await signIn(core, ['openid'], { alg });
    const header = decodeProtectedHeader(tokens.id_token!);
    expect(header.alg).toBe(alg);
    expect((await core.ctx.signingKeys.published()).map((k) => k.kid)).toContain(header.kid);
    const claims = await verified(core, client, tokens.id_token, alg);
    // OIDC Core 3.1.3.6: at_hash with the algorithm's hash (SHA-512 for Ed25519).
    const hash = createHash(alg === 'EdDSA' ? 'sha512' : 'sha256').update(tokens.access_token).digest();
    expect(claims.at_hash).toBe(hash.subarray(0, hash.length / 2).toString('base64url'));
  });

  it('FAPI 2.0 5.4.1: a client of the FAPI 2.0 profile never gets RS256: PS256 by default, and in place of a registered RS256', () => {
    expect(idTokenAlgorithmOf({ fapi2: true, idTokenSignedResponseAlg: null })).toBe('PS256');
    expect(idTokenAlgorithmOf({ fapi2: true, idTokenSignedResponseAlg: 'RS256' })).toBe('PS256');
    expect(idTokenAlgorithmOf({ fapi2: true, idTokenSignedResponseAlg: 'ES256' })).toBe('ES256');
    expect(idTokenAlgorithmOf({ fapi2: false, idTokenSignedResponseAlg: null })).toBe('RS256');
  });
});

describe('offline_access (OIDC Core 11)', () => {
  it('OIDC Core 11: offline_access may be sent with any scope, is dropped and changes nothing', () => {
    expect(parseScopeParameter('openid offline_access PROFILE_READ')).toEqual(['openid', 'PROFILE_READ']);
  });

  it('OIDC Core 11: offline_access alone names nothing to grant: invalid_scope, saying why', async () => {
    await rejection(Promise.resolve().then(() => parseScopeParameter('offline_access')), 'invalid_scope', /offline_access alone grants nothing/);
  });

  it('OIDC Core 11: a client registering offline_access registers nothing more: it needs no review', () => {
    expect(checkScopes(['openid offline_access profile'])).toEqual(['openid', 'profile']);
  });
});

describe('UserInfo (OIDC Core 5.3)', () => {
  const proof = { header: undefined, method: 'GET', url: `${ISSUER}/v2/auth/oauth2/userinfo` };

  it('OIDC Core 5.3.2: answers sub and the claims of the granted scopes only', async ({ core }) => {
    const { userId, tokens } = await signIn(core, ['openid', 'email']);
    const answer = await answerUserInfo(core.ctx, `Bearer ${tokens.access_token}`, proof);
    expect(answer).toEqual({ ok: true, claims: { sub: userId, email: expect.stringMatching(/@example\.com$/), email_verified: false } });
  });

  it('OIDC Core 5.3.3, RFC 6750 3.1: a token whose grant lacks openid is refused with insufficient_scope (403)', async ({ core }) => {
    const { tokens } = await signIn(core, ['PROFILE_READ']);
    expect(await answerUserInfo(core.ctx, `Bearer ${tokens.access_token}`, proof)).toMatchObject({ ok: false, status: 403, error: 'insufficient_scope' });
  });

  it('RFC 6750 3.1: no token is 401 without an error code; a revoked or expired one 401 invalid_token', async ({ core }) => {
    expect(await answerUserInfo(core.ctx, undefined, proof)).toMatchObject({ ok: false, status: 401, error: undefined });
    const { tokens } = await signIn(core, ['openid']);
    core.clock.advance(1801);
    expect(await answerUserInfo(core.ctx, `Bearer ${tokens.access_token}`, proof)).toMatchObject({ ok: false, status: 401, error: 'invalid_token', description: expect.stringMatching(/expired/) });
  });
});
