// The authorization_code grant (src/oauth/grants/authorization-code.ts) called through the
// token endpoint's core, on the real adapter: what the client gets back, and what the stores
// hold afterwards. The HTTP suite (test/http/token-endpoint.test.ts) keeps status, headers and bodies.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { generateToken, hashToken } from '../../../src/oauth/token-format.ts';
import { tableDumps } from '../../helpers/rows.ts';
import { auditTypes, exchange, issued, it, refresh, rejection, T0 } from '../core.ts';

const DAY = 86_400_000;

function pkcePair() {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('redeeming a code (RFC 6749 §4.1.3)', () => {
  it('RFC 6749 §5.1: answers a bearer pair whose access token lives 1800 seconds, with the granted scope', async ({ core }) => {
    const { tokens } = await issued(core);
    expect(tokens).toEqual({
      access_token: expect.stringMatching(/^gat_[0-9A-Za-z]{49}$/),
      refresh_token: expect.stringMatching(/^grt_[0-9A-Za-z]{49}$/),
      token_type: 'bearer',
      expires_in: 1800,
      scope: 'PROFILE_READ',
    });
  });

  it('RFC 6749 §4.1.2: stores the pair by hash under the grant, tied to its code, and spends the code', async ({ core }) => {
    const { client, userId, grant, code, tokens } = await issued(core);
    const binding = { grantId: grant.id, codeHash: hashToken(code), clientId: client.id, userId, scopes: ['PROFILE_READ'], resources: null };
    expect(await core.ctx.store.findAccessToken(hashToken(tokens.access_token))).toEqual({
      hash: hashToken(tokens.access_token),
      ...binding,
      createdAt: T0,
      expiresAt: T0 + 1800 * 1000,
      revokedAt: null,
      clientState: 'approved',
    });
    // docs/operating.md: REFRESH_TOKEN_IDLE_TTL_SECONDS, 90 days unless set.
    expect(await core.ctx.store.findRefreshToken(hashToken(tokens.refresh_token))).toMatchObject({
      ...binding,
      parentId: null,
      createdAt: T0,
      expiresAt: T0 + 90 * DAY,
      spentAt: null,
      successorBox: null,
      revokedAt: null,
    });
    expect((await core.ctx.store.findCode(hashToken(code)))?.consumedAt).toBe(T0);
    const [event] = await core.stores.auditLog.list({ clientId: client.id });
    expect(event).toMatchObject({ type: 'token.issued', clientId: client.id, userId, data: { grantId: grant.id, grant_type: 'authorization_code' } });
  });

  it('SECURITY.md: codes, tokens and client secrets are at rest only as hashes, nor is the random part of one stored', async ({ core }) => {
    const { client, code, tokens } = await issued(core);
    const next = await refresh(core, client, tokens.refresh_token);
    const plain = [client.secret!, code, tokens.access_token, tokens.refresh_token, next.access_token, next.refresh_token];
    const dumps = await tableDumps(core.db, ['access_tokens', 'refresh_tokens', 'authorization_codes', 'client_secrets', 'audit_events', 'grants']);
    for (const [table, dump] of Object.entries(dumps)) {
      for (const value of plain) {
        expect(dump, `${table} holds a plain credential`).not.toContain(value);
        expect(dump, `${table} holds a plain credential body`).not.toContain(value.slice(4, 40));
      }
    }
    for (const token of [tokens.access_token, next.access_token]) expect((await core.ctx.store.findAccessToken(hashToken(token)))?.hash).toMatch(/^[A-Za-z0-9_-]{43,}$/);
  });

  it('docs/integrating.md: the scope comes back in registry order, joined by single spaces', async ({ core }) => {
    const { tokens } = await issued(core, { grantScopes: ['PROFILE_READ', 'TEAM_BOOKING_READ', 'BOOKING_READ'] });
    expect(tokens.scope).toBe('BOOKING_READ PROFILE_READ TEAM_BOOKING_READ');
  });

  it('docs/integrating.md#scopes-and-endpoints: a legacy grant (scopes null) issues scope "" and tokens with no scope list', async ({ core }) => {
    const { tokens } = await issued(core, { scopes: null, grantScopes: null });
    expect(tokens.scope).toBe('');
    expect((await core.ctx.store.findAccessToken(hashToken(tokens.access_token)))?.scopes).toBeNull();
    expect((await core.ctx.store.findRefreshToken(hashToken(tokens.refresh_token)))?.scopes).toBeNull();
  });
});

describe('a code is single use (RFC 6749 §4.1.2)', () => {
  it('RFC 6749 §4.1.2: a code is single use; a replay revokes the tokens it issued', async ({ core }) => {
    const { client, userId, grant, code, tokens } = await issued(core);
    core.clock.advance(5);
    await rejection(exchange(core, client, code), 'invalid_grant', /already been used; tokens issued from it are revoked/);
    expect((await core.ctx.store.findAccessToken(hashToken(tokens.access_token)))?.revokedAt).toBe(T0 + 5000);
    expect((await core.ctx.store.findRefreshToken(hashToken(tokens.refresh_token)))?.revokedAt).toBe(T0 + 5000);
    await rejection(refresh(core, client, tokens.refresh_token), 'invalid_grant', /revoked/);
    const [replayed] = await core.stores.auditLog.list({ clientId: client.id });
    expect(replayed).toMatchObject({ type: 'code.replayed', userId, data: { grantId: grant.id } });
    expect(JSON.stringify(replayed)).not.toContain(code);
  });

  it('RFC 6749 §4.1.2: a replay revokes only what that code issued: the grant and another code\'s tokens under it stay', async ({ core }) => {
    // A remembered consent issues a second code under the same grant (SECURITY.md).
    const first = await issued(core);
    const second = await exchange(core, first.client, await core.code(first.client, first.grant));
    await rejection(exchange(core, first.client, first.code), 'invalid_grant', /already been used/);
    expect((await core.ctx.store.findGrant(first.grant.id))?.revokedAt).toBeNull();
    expect((await core.ctx.store.findAccessToken(hashToken(second.access_token)))?.revokedAt).toBeNull();
    expect((await refresh(core, first.client, second.refresh_token)).scope).toBe('PROFILE_READ');
  });

  it('RFC 6749 §4.1.2: a failed redemption spends the code too, so it cannot be tried again', async ({ core }) => {
    const client = await core.client();
    const grant = await core.grant(client, await core.user());
    const code = await core.code(client, grant);
    await rejection(exchange(core, client, code, { redirect_uri: 'https://app.example.com/wrong' }), 'invalid_grant', /redirect_uri/);
    expect((await core.ctx.store.findCode(hashToken(code)))?.consumedAt).toBe(T0);
    await rejection(exchange(core, client, code), 'invalid_grant', /already been used/);
  });

  it('RFC 6749 §4.1.2: a code of an authorization revoked before redemption is refused as revoked, not reported as a replay', async ({ core }) => {
    const client = await core.client();
    const grant = await core.grant(client, await core.user());
    const code = await core.code(client, grant);
    core.clock.advance(1);
    await core.ctx.store.transaction((tx) => tx.revokeGrant(grant.id, core.clock.now()));
    await rejection(exchange(core, client, code), 'invalid_grant', /the authorization was revoked/);
    expect(await auditTypes(core, client.id)).not.toContain('code.replayed');
  });
});

describe('what a code is checked against (RFC 6749 §4.1.3)', () => {
  it('RFC 6749 §4.1.3: a code issued to another client is invalid_grant', async ({ core }) => {
    const owner = await core.client();
    const thief = await core.client();
    const code = await core.code(owner, await core.grant(owner, await core.user()));
    await rejection(exchange(core, thief, code), 'invalid_grant', /issued to another client/);
  });

  it('docs/integrating.md: a code lives 60 seconds', async ({ core }) => {
    const client = await core.client();
    const grant = await core.grant(client, await core.user());
    const fresh = await core.code(client, grant);
    core.clock.advance(59);
    expect((await exchange(core, client, fresh)).scope).toBe('PROFILE_READ');
    const stale = await core.code(client, grant);
    core.clock.advance(60);
    await rejection(exchange(core, client, stale), 'invalid_grant', /expired/);
  });

  it('RFC 6749 §4.1.3: redirect_uri must be the authorization request\'s, character for character', async ({ core }) => {
    const client = await core.client({ redirectUris: ['https://app.example.com/callback', 'https://app.example.com/other'] });
    const grant = await core.grant(client, await core.user());
    for (const other of ['https://app.example.com/other', 'https://app.example.com/callback/', 'https://APP.example.com/callback']) {
      await rejection(exchange(core, client, await core.code(client, grant), { redirect_uri: other }), 'invalid_grant', /redirect_uri does not match/);
    }
    await rejection(exchange(core, client, await core.code(client, grant), { redirect_uri: '' }), 'invalid_request', /redirect_uri is required/);
  });

  it('docs/integrating.md: a malformed code is refused before storage, so the real one still works', async ({ core }) => {
    const client = await core.client();
    const good = await core.code(client, await core.grant(client, await core.user()));
    const flipped = good.slice(0, 10) + (good[10] === 'a' ? 'b' : 'a') + good.slice(11);
    for (const bad of ['abc', 'gac_', 'gac_' + '!'.repeat(49), flipped, good.replace('gac_', 'gat_'), good + 'x']) {
      await rejection(exchange(core, client, bad), 'invalid_grant', /not a valid authorization code/);
    }
    expect((await core.ctx.store.findCode(hashToken(good)))?.consumedAt).toBeNull();
    expect((await exchange(core, client, good)).scope).toBe('PROFILE_READ');
  });

  it('RFC 6749 §5.2: a well-formed code that was never issued is invalid_grant', async ({ core }) => {
    const client = await core.client();
    await rejection(exchange(core, client, generateToken('authorizationCode')), 'invalid_grant', /unknown/);
  });
});

describe('PKCE at redemption (RFC 7636 §4.5, §4.6)', () => {
  it('RFC 7636 §4.5: a public client redeems with its code_verifier and no secret', async ({ core }) => {
    const client = await core.client({ kind: 'public' });
    const { verifier, challenge } = pkcePair();
    const code = await core.code(client, await core.grant(client, await core.user()), { codeChallenge: challenge });
    expect(client.secret).toBeUndefined();
    expect((await exchange(core, client, code, { code_verifier: verifier })).token_type).toBe('bearer');
  });

  it('RFC 7636 §4.5: a confidential client may send a challenge too, and then redeems with its secret and its code_verifier', async ({ core }) => {
    const client = await core.client();
    const { verifier, challenge } = pkcePair();
    const code = await core.code(client, await core.grant(client, await core.user()), { codeChallenge: challenge });
    expect((await exchange(core, client, code, { code_verifier: verifier })).scope).toBe('PROFILE_READ');
  });

  it('RFC 7636 §4.6: a wrong code_verifier is invalid_grant, and the code is spent', async ({ core }) => {
    const client = await core.client({ kind: 'public' });
    const { verifier, challenge } = pkcePair();
    const code = await core.code(client, await core.grant(client, await core.user()), { codeChallenge: challenge });
    await rejection(exchange(core, client, code, { code_verifier: pkcePair().verifier }), 'invalid_grant', /does not match the code_challenge/);
    // An attacker holding the code gets one guess: the right verifier comes too late.
    await rejection(exchange(core, client, code, { code_verifier: verifier }), 'invalid_grant', /already been used/);
  });

  it('RFC 7636 §4.6: a missing code_verifier is invalid_grant when the code carries a challenge', async ({ core }) => {
    const client = await core.client();
    const code = await core.code(client, await core.grant(client, await core.user()), { codeChallenge: pkcePair().challenge });
    await rejection(exchange(core, client, code), 'invalid_grant', /code_verifier is required/);
  });

  it('RFC 7636 §4.6: a code_verifier for a code issued without a challenge is invalid_grant', async ({ core }) => {
    const client = await core.client();
    const code = await core.code(client, await core.grant(client, await core.user()));
    await rejection(exchange(core, client, code, { code_verifier: pkcePair().verifier }), 'invalid_grant', /no code_challenge/);
  });
});

describe('resource indicators at redemption (RFC 8707 §2.2)', () => {
  it('RFC 8707 §2.2: a code exchange may narrow the audience of the access token; the refresh token keeps the grant\'s', async ({ core }) => {
    const [api, mcp] = core.ctx.resources.known as [string, string];
    const client = await core.client();
    const code = await core.code(client, await core.grant(client, await core.user()), { resources: [api, mcp] });
    const tokens = await exchange(core, client, code, { resource: mcp });
    expect((await core.ctx.store.findAccessToken(hashToken(tokens.access_token)))?.resources).toEqual([mcp]);
    expect((await core.ctx.store.findRefreshToken(hashToken(tokens.refresh_token)))?.resources).toEqual([api, mcp]);
  });

  it('RFC 8707 §2.2: a resource the authorization did not cover is invalid_target, and the code is spent', async ({ core }) => {
    const [, mcp] = core.ctx.resources.known as [string, string];
    const client = await core.client();
    // Authorized without `resource`: the default resource only.
    const code = await core.code(client, await core.grant(client, await core.user()));
    await rejection(exchange(core, client, code, { resource: mcp }), 'invalid_target', /was not part of this authorization/);
    expect((await core.ctx.store.findCode(hashToken(code)))?.consumedAt).toBe(T0);
  });
});
