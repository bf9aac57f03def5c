// The signing keys of ID tokens (src/oauth/signing-keys.ts) on the real adapter over SQLite
// :memory:: sealed under the operator's secret, made once, rotated by generation.
import { describe, expect } from 'vitest';
import { KeySealer, makeSigningKeySet, SigningKeys, SigningKeyUnreadable } from '../../src/oauth/signing-keys.ts';
import { hashToken } from '../../src/oauth/token-format.ts';
import { exchange, it, T0 } from './core.ts';

describe('signing keys (docs/operating.md#signing-keys)', () => {
  it('docs/operating.md#signing-keys: a sealed private key opens with its secret and kid only', async () => {
    const [key] = await makeSigningKeySet(new KeySealer('the operator secret, 32 characters at least'), 1, T0);
    const opened = await new KeySealer('the operator secret, 32 characters at least').open(key!.kid, key!.sealedPrivateJwk);
    expect(opened).toHaveProperty('d');
    await expect(new KeySealer('another secret, 32 characters at least....').open(key!.kid, key!.sealedPrivateJwk)).rejects.toBeInstanceOf(SigningKeyUnreadable);
    await expect(new KeySealer('the operator secret, 32 characters at least').open('another-kid', key!.sealedPrivateJwk)).rejects.toThrow(/SIGNING_KEYS_SECRET/);
    expect(key!.publicJwk).not.toHaveProperty('d');
  });

  it('docs/operating.md#signing-keys: the first set is made once; a set of a generation that exists is not added again', async ({ core }) => {
    expect(await core.ctx.signingKeys.ensureFirst()).toBe(true);
    expect(await core.ctx.signingKeys.ensureFirst()).toBe(false);
    const store = core.stores.signingKeys;
    expect(await store.addSigningKeys(await makeSigningKeySet(new KeySealer('core tests signing keys secret'), 1, T0))).toBe(false);
    expect((await store.listSigningKeys()).map((k) => k.generation)).toEqual([1, 1, 1]);
  });

  it('docs/operating.md#signing-keys: a key set sealed under another secret is refused when signing, naming the setting', async ({ core }) => {
    await core.ctx.signingKeys.ensureFirst();
    const elsewhere = new SigningKeys(core.stores.signingKeys, new KeySealer('not the secret the keys were made with'), core.clock.now, { refreshSeconds: 30, idTokenTtlSeconds: 1800 });
    await expect(elsewhere.signer('RS256')).rejects.toThrow(/cannot be opened with this SIGNING_KEYS_SECRET/);
  });

  it('docs/operating.md#signing-keys: keys that cannot be opened fail only the exchanges that need an ID token, and leave their code unspent', async ({ core }) => {
    await core.ctx.signingKeys.ensureFirst();
    core.ctx.signingKeys = new SigningKeys(core.stores.signingKeys, new KeySealer('not the secret the keys were made with'), core.clock.now, { refreshSeconds: 30, idTokenTtlSeconds: 1800 });
    const client = await core.client({ scopes: ['openid', 'PROFILE_READ'] });
    const userId = await core.user();
    const plain = await core.code(client, await core.grant(client, userId, ['PROFILE_READ']));
    expect((await exchange(core, client, plain)).id_token).toBeUndefined();
    const openid = await core.code(client, await core.grant(client, userId, ['openid']));
    await expect(exchange(core, client, openid)).rejects.toBeInstanceOf(SigningKeyUnreadable);
    expect((await core.ctx.store.findCode(hashToken(openid)))?.consumedAt).toBeNull();
  });
});
