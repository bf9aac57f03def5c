// The DPoP proof checks of the protocol core (src/oauth/dpop.ts; RFC 9449 §4.3, §8, §11.1;
// docs/rules.md#dpop), called directly, with the replay store on SQLite :memory: through the
// real adapter (test/oauth/core.ts). What only HTTP shows is test/http/token-endpoint/dpop.ts.
import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect } from 'vitest';
import { checkProof, DpopNonces, NONCE_WINDOW_SECONDS, normalizedHtu, PROOF_IAT_SKEW_SECONDS, spendProof } from '../../src/oauth/dpop.ts';
import { it, T0 } from './core.ts';

const URL_ = 'https://gatehouse.example.com/v2/auth/oauth2/token';
const nonces = new DpopNonces('unit tests');

async function signed(alg: string, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  const payload = { htm: 'POST', htu: URL_, jti: randomUUID(), iat: T0 / 1000, ...claims };
  const jwt = await new SignJWT(payload).setProtectedHeader({ alg, typ: 'dpop+jwt', jwk, ...header }).sign(privateKey);
  return { jwt, jkt: await calculateJwkThumbprint(jwk) };
}

const expectation = { method: 'POST', url: URL_, nonceRequired: false };

describe('DPoP proofs (RFC 9449 §4.3)', () => {
  it('RFC 9449 §4.2: ES256, EdDSA (also as RFC 9864 names it, Ed25519), RS256 and PS256 proofs verify and give the key\'s RFC 7638 thumbprint', async () => {
    for (const alg of ['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256']) {
      const { jwt, jkt } = await signed(alg);
      expect(await checkProof(jwt, expectation, T0, nonces)).toMatchObject({ ok: true, jkt });
    }
  });

  it('RFC 9449 §4.3 points 4, 5, 8, 9, 11: typ, algorithm, htm, htu and iat are each refused as invalid_dpop_proof', async () => {
    const cases: Array<[Promise<{ jwt: string }>, string]> = [
      [signed('ES256', {}, { typ: 'JWT' }), 'dpop+jwt'],
      [signed('ES384'), 'ES256, EdDSA, Ed25519, RS256, PS256'],
      [signed('ES256', { htm: 'GET' }), 'htm'],
      [signed('ES256', { htu: 'https://gatehouse.example.com/v2/auth/oauth2/revoke' }), 'htu'],
      [signed('ES256', { iat: T0 / 1000 - PROOF_IAT_SKEW_SECONDS - 1 }), 'iat'],
      [signed('ES256', { iat: T0 / 1000 + PROOF_IAT_SKEW_SECONDS + 1 }), 'iat'],
      [signed('ES256', { jti: undefined }), 'jti'],
    ];
    for (const [made, words] of cases) {
      const result = await checkProof((await made).jwt, expectation, T0, nonces);
      expect(result).toMatchObject({ ok: false, error: 'invalid_dpop_proof' });
      expect((result as { description: string }).description).toContain(words);
    }
  });

  it('RFC 9449 §4.3 point 9: htu is compared without query and fragment, after RFC 3986 §6.2.2 and §6.2.3 normalisation', () => {
    expect(normalizedHtu('HTTPS://Gatehouse.Example.com:443/v2/auth/oauth2/token?x=1#f')).toBe(URL_);
    expect(normalizedHtu('urn:x')).toBeUndefined();
  });

  it('RFC 9449 §4.3 point 12: at a resource, ath must be the hash of the presented token', async () => {
    const token = 'gat_example';
    const ath = createHash('sha256').update(token).digest('base64url');
    const good = await signed('ES256', { ath });
    expect(await checkProof(good.jwt, { ...expectation, accessToken: token }, T0, nonces)).toMatchObject({ ok: true });
    expect(await checkProof(good.jwt, { ...expectation, accessToken: `${token}2` }, T0, nonces)).toMatchObject({ ok: false, error: 'invalid_dpop_proof' });
    expect(await checkProof((await signed('ES256')).jwt, { ...expectation, accessToken: token }, T0, nonces)).toMatchObject({ ok: false, error: 'invalid_dpop_proof' });
  });

  it('RFC 9449 §8: a required nonce must be one of ours from this window or the last; another instance with the same secret accepts it', async () => {
    const missing = await signed('ES256');
    expect(await checkProof(missing.jwt, { ...expectation, nonceRequired: true }, T0, nonces)).toMatchObject({ ok: false, error: 'use_dpop_nonce' });
    const nonce = nonces.issue(T0);
    const fresh = await signed('ES256', { nonce });
    expect(await checkProof(fresh.jwt, { ...expectation, nonceRequired: true }, T0, new DpopNonces('unit tests'))).toMatchObject({ ok: true });
    expect(await checkProof(fresh.jwt, { ...expectation, nonceRequired: true }, T0, new DpopNonces('another secret'))).toMatchObject({ ok: false, error: 'use_dpop_nonce' });
    expect(nonces.isFresh(nonce, T0 + NONCE_WINDOW_SECONDS * 1000)).toBe(true);
    expect(nonces.isFresh(nonce, T0 + 2 * NONCE_WINDOW_SECONDS * 1000)).toBe(false);
  });

  it('RFC 9449 §11.1: a proof is spent once; the second spend is refused (the database\'s unique key decides)', async ({ core }) => {
    const { jwt } = await signed('ES256');
    const checked = await checkProof(jwt, expectation, T0, nonces);
    if (!checked.ok) throw new Error(checked.description);
    expect(await spendProof(core.ctx.dpop.proofs, checked)).toBeUndefined();
    expect(await spendProof(core.ctx.dpop.proofs, checked)).toMatchObject({ error: 'invalid_dpop_proof', description: expect.stringContaining('already used') });
  });
});
