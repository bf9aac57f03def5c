// The refresh_token grant (src/oauth/grants/refresh-token.ts) called through the token
// endpoint's core, on the real adapter: rotation, the replay window, reuse detection, idle
// expiry and scope, asserted on the answer and on the stores.
import { describe, expect } from 'vitest';
import { generateToken, hashToken } from '../../../src/oauth/token-format.ts';
import { auditTypes, exchange, issued, it, refresh, rejection, T0 } from '../core.ts';

describe('rotation (RFC 6749 §6)', () => {
  it('RFC 6749 §6: a refresh answers a new pair with the same scope, and leaves the earlier access token alone', async ({ core }) => {
    const first = await issued(core, { grantScopes: ['BOOKING_READ', 'PROFILE_READ'] });
    const next = await refresh(core, first.client, first.tokens.refresh_token);
    expect(next).toEqual({
      access_token: expect.stringMatching(/^gat_/),
      refresh_token: expect.stringMatching(/^grt_/),
      token_type: 'bearer',
      expires_in: 1800,
      scope: 'BOOKING_READ PROFILE_READ',
    });
    expect(next.access_token).not.toBe(first.tokens.access_token);
    expect(next.refresh_token).not.toBe(first.tokens.refresh_token);
    expect((await core.ctx.store.findAccessToken(hashToken(first.tokens.access_token)))?.revokedAt).toBeNull();
    expect(await auditTypes(core, first.client.id)).toEqual(['token.issued', 'token.refreshed']);
    // SECURITY.md: the event names the client and the user, and holds no credential.
    const [refreshed] = await core.stores.auditLog.list({ clientId: first.client.id });
    expect(refreshed).toMatchObject({ type: 'token.refreshed', clientId: first.client.id, userId: first.userId });
    for (const credential of [first.tokens.access_token, first.tokens.refresh_token, next.access_token, next.refresh_token, first.client.secret!]) {
      expect(JSON.stringify(refreshed)).not.toContain(credential);
    }
  });

  it('RFC 6749 §6: the old token is spent with its successor sealed, and the successor descends from it and from the same code', async ({ core }) => {
    const first = await issued(core);
    core.clock.advance(10);
    const next = await refresh(core, first.client, first.tokens.refresh_token);
    const old = await core.ctx.store.findRefreshToken(hashToken(first.tokens.refresh_token));
    expect(old).toMatchObject({ spentAt: T0 + 10_000, successorBox: expect.any(String), revokedAt: null });
    // The database never holds the successor in plain text (SECURITY.md).
    expect(old!.successorBox).not.toContain(next.refresh_token);
    expect(await core.ctx.store.findRefreshToken(hashToken(next.refresh_token))).toMatchObject({
      parentId: old!.id,
      grantId: first.grant.id,
      codeHash: hashToken(first.code),
      createdAt: T0 + 10_000,
      spentAt: null,
    });
    // The successor is the one that rotates next, and the chain goes on from it.
    const successor = await core.ctx.store.findRefreshToken(hashToken(next.refresh_token));
    const third = await refresh(core, first.client, next.refresh_token);
    expect((await core.ctx.store.findRefreshToken(hashToken(third.refresh_token)))?.parentId).toBe(successor!.id);
    expect(await auditTypes(core, first.client.id)).toEqual(['token.issued', 'token.refreshed', 'token.refreshed']);
  });

  it('docs/integrating.md: the spent token presented again within 30 seconds answers the very same pair, rotating nothing', async ({ core }) => {
    const first = await issued(core);
    const next = await refresh(core, first.client, first.tokens.refresh_token);
    core.clock.advance(30);
    expect(await refresh(core, first.client, first.tokens.refresh_token)).toEqual(next);
    expect((await core.ctx.store.findRefreshToken(hashToken(next.refresh_token)))?.spentAt).toBeNull();
    expect(await auditTypes(core, first.client.id)).toEqual(['token.issued', 'token.refreshed']);
    // Nothing was revoked: the answer is the same pair, still alive.
    for (const pair of [first.tokens, next]) {
      expect((await core.ctx.store.findRefreshToken(hashToken(pair.refresh_token)))?.revokedAt).toBeNull();
      expect((await core.ctx.store.findAccessToken(hashToken(pair.access_token)))?.revokedAt).toBeNull();
    }
  });

  it('RFC 6749 §6: a refresh token rotates; the old one is refused afterwards, and that revokes the whole grant (RFC 9700 §4.14.2)', async ({ core }) => {
    const first = await issued(core);
    const second = await refresh(core, first.client, first.tokens.refresh_token);
    const third = await refresh(core, first.client, second.refresh_token);
    core.clock.advance(31);
    await rejection(refresh(core, first.client, first.tokens.refresh_token), 'invalid_grant', /already been used; every token of this grant is revoked/);

    const at = T0 + 31_000;
    expect((await core.ctx.store.findGrant(first.grant.id))?.revokedAt).toBe(at);
    for (const pair of [first.tokens, second, third]) {
      expect((await core.ctx.store.findAccessToken(hashToken(pair.access_token)))?.revokedAt).toBe(at);
      const chain = await core.ctx.store.findRefreshToken(hashToken(pair.refresh_token));
      expect({ revokedAt: chain?.revokedAt, successorBox: chain?.successorBox }).toEqual({ revokedAt: at, successorBox: null });
    }
    await rejection(refresh(core, first.client, third.refresh_token), 'invalid_grant', /revoked/);
    const [reused] = await core.stores.auditLog.list({ clientId: first.client.id });
    expect(reused).toMatchObject({ type: 'refresh_token.reused', userId: first.userId, data: { grantId: first.grant.id } });
    expect(JSON.stringify(reused)).not.toContain(first.tokens.refresh_token);
    expect(await auditTypes(core, first.client.id)).toEqual(['token.issued', 'token.refreshed', 'token.refreshed', 'refresh_token.reused']);
  });

  it('docs/integrating.md#webhooks: a reuse is written to the client\'s events URL outbox in the same transaction; a client without one gets nothing', async ({ core }) => {
    const told = await issued(core);
    await core.stores.webhookDeliveries.setClientEventsUrl(told.client.id, 'https://app.example.com/events', T0);
    await core.stores.webhookDeliveries.replaceClientEventsSecret(told.client.id, null, 'whsec_c2VjcmV0', T0);
    const untold = await issued(core);
    for (const { client, tokens } of [told, untold]) {
      await refresh(core, client, tokens.refresh_token);
      core.clock.advance(31);
      await rejection(refresh(core, client, tokens.refresh_token), 'invalid_grant');
    }
    const deliveries = await core.stores.webhookDeliveries.list({ clientId: told.client.id }, 10, 0);
    expect(deliveries.map((d) => d.event)).toEqual(['grant.revoked_reuse']);
    expect(JSON.parse(deliveries[0]!.payload)).toMatchObject({ type: 'grant.revoked_reuse', data: { clientId: told.client.id, userId: told.userId, grantIds: [told.grant.id] } });
    expect(await core.stores.webhookDeliveries.list({ clientId: untold.client.id }, 10, 0)).toEqual([]);
  });

  it('RFC 9700 §4.14.2: a public client\'s spent token after the window revokes its grant, as a confidential one\'s does', async ({ core }) => {
    const first = await issued(core, { kind: 'public' });
    await refresh(core, first.client, first.tokens.refresh_token);
    core.clock.advance(31);
    await rejection(refresh(core, first.client, first.tokens.refresh_token), 'invalid_grant', /already been used/);
    expect((await core.ctx.store.findGrant(first.grant.id))?.revokedAt).not.toBeNull();
  });
});

describe('what a refresh token is checked against (RFC 6749 §6)', () => {
  it('RFC 6749 §6: a scope equal to the grant\'s, in any order or separator, is accepted', async ({ core }) => {
    const first = await issued(core, { grantScopes: ['BOOKING_READ', 'PROFILE_READ'] });
    const next = await refresh(core, first.client, first.tokens.refresh_token, { scope: 'PROFILE_READ,BOOKING_READ' });
    expect(next.scope).toBe('BOOKING_READ PROFILE_READ');
    expect((await refresh(core, first.client, next.refresh_token, { scope: 'BOOKING_READ PROFILE_READ' })).scope).toBe('BOOKING_READ PROFILE_READ');
  });

  it('RFC 6749 §6: a scope other than the grant\'s is invalid_scope and leaves the token unspent', async ({ core }) => {
    const first = await issued(core, { grantScopes: ['BOOKING_READ', 'PROFILE_READ'] });
    for (const scope of ['PROFILE_READ', 'BOOKING_READ PROFILE_READ PROFILE_WRITE', 'PROFILE_WRITE', 'NOT_A_SCOPE', 'profile_read booking_read']) {
      await rejection(refresh(core, first.client, first.tokens.refresh_token, { scope }), 'invalid_scope', /scope differs from the original grant/);
    }
    expect((await core.ctx.store.findRefreshToken(hashToken(first.tokens.refresh_token)))?.spentAt).toBeNull();
    expect((await refresh(core, first.client, first.tokens.refresh_token)).scope).toBe('BOOKING_READ PROFILE_READ');
  });

  it('RFC 6749 §6: a refresh token of another client is invalid_grant and stays usable by its own', async ({ core }) => {
    const first = await issued(core);
    const other = await core.client();
    await rejection(refresh(core, other, first.tokens.refresh_token), 'invalid_grant', /issued to another client/);
    expect((await refresh(core, first.client, first.tokens.refresh_token)).scope).toBe('PROFILE_READ');
  });

  it('RFC 7009 §2.1: a refresh token of a revoked grant is invalid_grant', async ({ core }) => {
    const first = await issued(core);
    await core.ctx.store.transaction((tx) => tx.revokeGrant(first.grant.id, T0));
    await rejection(refresh(core, first.client, first.tokens.refresh_token), 'invalid_grant', /has been revoked/);
  });

  it('docs/operating.md: a refresh token unused for REFRESH_TOKEN_IDLE_TTL_SECONDS is invalid_grant; each rotation renews the window', async ({ core }) => {
    core.ctx.ttl.refreshIdle = 100;
    const first = await issued(core);
    core.clock.advance(90);
    const second = await refresh(core, first.client, first.tokens.refresh_token);
    core.clock.advance(90); // 180 s after the code, 90 s after the rotation
    const third = await refresh(core, first.client, second.refresh_token);
    core.clock.advance(100);
    await rejection(refresh(core, first.client, third.refresh_token), 'invalid_grant', /expired/);
  });

  it('RFC 6749 §5.2: a missing refresh_token is invalid_request; a malformed, unknown or access token is invalid_grant', async ({ core }) => {
    const first = await issued(core);
    await rejection(refresh(core, first.client, ''), 'invalid_request', /refresh_token is required/);
    const flipped = first.tokens.refresh_token.slice(0, -1) + (first.tokens.refresh_token.endsWith('a') ? 'b' : 'a');
    for (const bad of ['x', flipped, first.tokens.access_token]) {
      await rejection(refresh(core, first.client, bad), 'invalid_grant', /not a valid refresh token/);
    }
    await rejection(refresh(core, first.client, generateToken('refreshToken')), 'invalid_grant', /refresh_token is not valid/);
  });

  it('docs/integrating.md#scopes-and-endpoints: a legacy grant refreshes with scope "" and stays legacy', async ({ core }) => {
    const first = await issued(core, { scopes: null, grantScopes: null });
    const next = await refresh(core, first.client, first.tokens.refresh_token);
    expect(next.scope).toBe('');
    expect((await core.ctx.store.findAccessToken(hashToken(next.access_token)))?.scopes).toBeNull();
  });
});

describe('resource indicators on refresh (RFC 8707 §2.2)', () => {
  it('RFC 8707 §2.2: a refresh may narrow the new access token; the refresh chain keeps the grant\'s resources', async ({ core }) => {
    const [api, mcp] = core.ctx.resources.known as [string, string];
    const client = await core.client();
    const code = await core.code(client, await core.grant(client, await core.user()), { resources: [api, mcp] });
    const first = await exchange(core, client, code);
    expect((await core.ctx.store.findAccessToken(hashToken(first.access_token)))?.resources).toEqual([api, mcp]);
    const narrowed = await refresh(core, client, first.refresh_token, { resource: api });
    expect((await core.ctx.store.findAccessToken(hashToken(narrowed.access_token)))?.resources).toEqual([api]);
    expect((await core.ctx.store.findRefreshToken(hashToken(narrowed.refresh_token)))?.resources).toEqual([api, mcp]);
    // A refresh that names no resource gets the whole grant again.
    const whole = await refresh(core, client, narrowed.refresh_token);
    expect((await core.ctx.store.findAccessToken(hashToken(whole.access_token)))?.resources).toEqual([api, mcp]);
  });

  it('RFC 8707 §2.2: a resource outside the grant is invalid_target and spends nothing', async ({ core }) => {
    const [, mcp] = core.ctx.resources.known as [string, string];
    const first = await issued(core);
    await rejection(refresh(core, first.client, first.tokens.refresh_token, { resource: mcp }), 'invalid_target');
    expect((await core.ctx.store.findRefreshToken(hashToken(first.tokens.refresh_token)))?.spentAt).toBeNull();
  });
});
