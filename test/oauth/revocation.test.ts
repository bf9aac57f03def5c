// Token revocation (RFC 7009, src/oauth/revocation.ts: handleRevocation) called directly:
// what a revocation ends, and that anything else changes nothing and tells nothing.
import { describe, expect } from 'vitest';
import { handleRevocation } from '../../src/oauth/revocation.ts';
import { generateToken, hashToken } from '../../src/oauth/token-format.ts';
import { auditTypes, basic, credentials, issued, it, refresh, rejection, T0, type Core, type SeededClient } from './core.ts';

function revoke(core: Core, caller: SeededClient, token: string | undefined, extra: Record<string, string> = {}) {
  return handleRevocation(core.ctx, { body: { ...credentials(caller), ...(token === undefined ? {} : { token }), ...extra }, authorization: undefined });
}

async function revokedAt(core: Core, tokens: { access_token: string; refresh_token: string }) {
  return {
    access: (await core.ctx.store.findAccessToken(hashToken(tokens.access_token)))?.revokedAt,
    refresh: (await core.ctx.store.findRefreshToken(hashToken(tokens.refresh_token)))?.revokedAt,
  };
}

describe('what a revocation ends (RFC 7009 §2.1)', () => {
  it('RFC 7009 §2.1: revoking an access token ends that token alone; its refresh token still works', async ({ core }) => {
    const t = await issued(core);
    core.clock.advance(3);
    await revoke(core, t.client, t.tokens.access_token, { token_type_hint: 'access_token' });
    expect(await revokedAt(core, t.tokens)).toEqual({ access: T0 + 3000, refresh: null });
    expect((await refresh(core, t.client, t.tokens.refresh_token)).scope).toBe('PROFILE_READ');
  });

  it('RFC 7009 §2.1: revoking a refresh token ends its grant and every access token issued under it', async ({ core }) => {
    const t = await issued(core);
    const rotated = await refresh(core, t.client, t.tokens.refresh_token);
    core.clock.advance(3);
    await revoke(core, t.client, rotated.refresh_token, { token_type_hint: 'refresh_token' });
    const at = T0 + 3000;
    expect((await core.ctx.store.findGrant(t.grant.id))?.revokedAt).toBe(at);
    expect(await revokedAt(core, rotated)).toEqual({ access: at, refresh: at });
    expect((await revokedAt(core, t.tokens)).access).toBe(at);
    await rejection(refresh(core, t.client, rotated.refresh_token), 'invalid_grant', /revoked/);
  });

  it('RFC 7009 §2.1: the hint is only a hint; the token says what it is', async ({ core }) => {
    const a = await issued(core);
    await revoke(core, a.client, a.tokens.refresh_token, { token_type_hint: 'access_token' });
    expect(await revokedAt(core, a.tokens)).toEqual({ access: T0, refresh: T0 });
    const b = await issued(core);
    await revoke(core, b.client, b.tokens.access_token, { token_type_hint: 'refresh_token' });
    expect((await revokedAt(core, b.tokens)).access).toBe(T0);
  });

  it('RFC 7009 §2.1: a public client revokes its own token with client_id alone, or Basic with an empty password', async ({ core }) => {
    const a = await issued(core, { kind: 'public' });
    await revoke(core, a.client, a.tokens.refresh_token);
    expect((await revokedAt(core, a.tokens)).refresh).toBe(T0);
    const b = await issued(core, { kind: 'public' });
    await handleRevocation(core.ctx, { body: { token: b.tokens.access_token }, authorization: basic(b.client.id, '') });
    expect((await revokedAt(core, b.tokens)).access).toBe(T0);
  });

  it('SECURITY.md: a revocation is recorded as token.revoked with its client and user, once', async ({ core }) => {
    const t = await issued(core);
    await revoke(core, t.client, t.tokens.refresh_token);
    await revoke(core, t.client, t.tokens.refresh_token);
    const [event] = await core.stores.auditLog.list({ clientId: t.client.id });
    expect(event).toMatchObject({ type: 'token.revoked', actorId: t.client.id, userId: t.userId, data: { grantId: t.grant.id, token_type: 'refresh_token' } });
    expect(await auditTypes(core, t.client.id)).toEqual(['token.issued', 'token.revoked']);
  });
});

describe('what changes nothing (RFC 7009 §2.2)', () => {
  it('RFC 7009 §2.2: revoking an unknown token answers 200', async ({ core }) => {
    const t = await issued(core);
    for (const token of [generateToken('accessToken'), generateToken('refreshToken'), `${t.tokens.access_token.slice(0, -3)}abc`, 'not-a-token', 'gat_', 'x'.repeat(4000)]) {
      await expect(revoke(core, t.client, token)).resolves.toBeUndefined();
    }
    expect(await revokedAt(core, t.tokens)).toEqual({ access: null, refresh: null });
    expect(await auditTypes(core, t.client.id)).toEqual(['token.issued']);
  });

  it('RFC 7009 §2.2: another client\'s token answers 200 and stays as it was', async ({ core }) => {
    const victim = await issued(core);
    const other = await core.client();
    await revoke(core, other, victim.tokens.access_token);
    await revoke(core, other, victim.tokens.refresh_token);
    expect(await revokedAt(core, victim.tokens)).toEqual({ access: null, refresh: null });
    expect((await core.ctx.store.findGrant(victim.grant.id))?.revokedAt).toBeNull();
  });

  it('RFC 7009 §2.1: a client that fails to authenticate revokes nothing', async ({ core }) => {
    const t = await issued(core);
    const impostor = { ...t.client, secret: generateToken('clientSecret') };
    await rejection(revoke(core, impostor, t.tokens.access_token), 'invalid_client');
    expect(await revokedAt(core, t.tokens)).toEqual({ access: null, refresh: null });
  });

  it('RFC 7009 §2.1: the token parameter is required', async ({ core }) => {
    const client = await core.client();
    await rejection(revoke(core, client, undefined), 'invalid_request', /^token is required$/);
  });
});
