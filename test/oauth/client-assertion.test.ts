// The private_key_jwt assertion checks of the protocol core (src/oauth/client-assertion.ts; RFC 7523
// §3; docs/rules.md#client-authentication), called directly. The replay check and what only
// HTTP shows are test/http/token-endpoint/private-key-jwt.ts.
import { generateKeyPairSync } from 'node:crypto';
import { generateKeyPair, exportJWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { assertedClientId, checkClientAssertion, checkPublicJwks, MAX_ASSERTION_LIFETIME_SECONDS } from '../../src/oauth/client-assertion.ts';
import { clientKey, signAssertion } from '../helpers/client-keys.ts';

const ISSUER = 'https://gatehouse.example.com';
const TOKEN_ENDPOINT = `${ISSUER}/v2/auth/oauth2/token`;
const CLIENT = 'client-a';

async function check(alg: string, claims: Parameters<typeof signAssertion>[3] = {}, options: { fapi2?: boolean } = {}) {
  const key = await clientKey(alg);
  const jwt = await signAssertion(key, CLIENT, ISSUER, claims);
  return checkClientAssertion(jwt, { clientId: CLIENT, issuer: ISSUER, tokenEndpoint: TOKEN_ENDPOINT, jwks: key.jwks, fapi2: options.fapi2 === true }, Date.now());
}

describe('private_key_jwt assertions (RFC 7523 §3)', () => {
  it('RFC 7523 §3 point 9: PS256, ES256, EdDSA (also named Ed25519) and RS256 verify against the registered key; the replay key is per client and jti', async () => {
    const replayKeys = new Set<string>();
    for (const alg of ['PS256', 'ES256', 'EdDSA', 'Ed25519', 'RS256']) {
      const result = await check(alg, { jti: 'j-1' });
      expect(result, alg).toMatchObject({ ok: true, replayKey: expect.any(String) });
      if (result.ok) replayKeys.add(result.replayKey);
    }
    // The same jti of the same client is one replay key whatever key signed it; another jti is another.
    expect(replayKeys.size).toBe(1);
    const other = await check('ES256', { jti: 'j-2' });
    expect(other).toMatchObject({ ok: true });
    if (other.ok) expect(replayKeys.has(other.replayKey)).toBe(false);
  });

  it('FAPI 2.0 §5.4.1: a client of the profile may sign with PS256, ES256 or EdDSA, not RS256', async () => {
    expect(await check('RS256', {}, { fapi2: true })).toEqual({ ok: false, description: expect.stringContaining('sign it with one of PS256, ES256, EdDSA, Ed25519 (') });
    expect(await check('PS256', {}, { fapi2: true })).toMatchObject({ ok: true });
  });

  it('RFC 7523 §3 points 1, 2: iss and sub must be the client_id', async () => {
    expect(await check('ES256', { iss: 'someone' })).toEqual({ ok: false, description: expect.stringContaining('iss must be the client_id') });
    expect(await check('ES256', { sub: 'someone' })).toEqual({ ok: false, description: expect.stringContaining('sub must be the client_id') });
  });

  it('RFC 7523 §3 point 3: aud is the issuer alone, as a string or a one-element array; the token endpoint URL is named when sent', async () => {
    expect(await check('ES256', { aud: [ISSUER] })).toMatchObject({ ok: true });
    expect(await check('ES256', { aud: TOKEN_ENDPOINT })).toEqual({ ok: false, description: expect.stringContaining('not the token endpoint URL') });
    expect(await check('ES256', { aud: [ISSUER, TOKEN_ENDPOINT] })).toMatchObject({ ok: false });
    expect(await check('ES256', { aud: `${ISSUER}/` })).toMatchObject({ ok: false });
  });

  it('RFC 7523 §3 points 4, 5, 6, 7: exp required, in the future and not far ahead; nbf and iat not in the future; jti required', async () => {
    expect(await check('ES256', { expIn: null })).toEqual({ ok: false, description: expect.stringContaining('must carry exp') });
    expect(await check('ES256', { expIn: -3600 })).toEqual({ ok: false, description: expect.stringContaining('expired') });
    expect(await check('ES256', { expIn: MAX_ASSERTION_LIFETIME_SECONDS })).toMatchObject({ ok: true });
    expect(await check('ES256', { expIn: MAX_ASSERTION_LIFETIME_SECONDS + 3600 })).toMatchObject({ ok: false });
    expect(await check('ES256', { nbf: Math.floor(Date.now() / 1000) + 3600 })).toMatchObject({ ok: false });
    expect(await check('ES256', { iat: Math.floor(Date.now() / 1000) + 3600 })).toMatchObject({ ok: false });
    expect(await check('ES256', { jti: null })).toEqual({ ok: false, description: expect.stringContaining('jti') });
    expect(await check('ES256', { jti: 'x'.repeat(257) })).toMatchObject({ ok: false });
  });

  it('RFC 7523 §3 point 2: the client is found by sub, read before the signature; anything else is no client', async () => {
    const key = await clientKey();
    expect(assertedClientId(await signAssertion(key, CLIENT, ISSUER))).toBe(CLIENT);
    expect(assertedClientId('not.a.jwt')).toBeUndefined();
  });
});

describe('registered keys (RFC 7591 §2 jwks)', () => {
  it('RFC 7517: public RSA, EC and OKP keys are accepted, as given', async () => {
    const keys = await Promise.all(['RS256', 'ES256', 'EdDSA'].map(async (alg) => exportJWK((await generateKeyPair(alg, { extractable: true })).publicKey)));
    expect(checkPublicJwks({ keys })).toEqual({ keys });
  });

  it('RFC 7517 §6.2.2, §6.4: a private key or a symmetric key is refused, saying which key and why', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    expect(checkPublicJwks({ keys: [await exportJWK(privateKey)] })).toMatch(/key 1 of jwks holds the private member "d": register the public key only/);
    expect(checkPublicJwks({ keys: [{ kty: 'oct', k: 'c2VjcmV0' }] })).toMatch(/symmetric key \(kty "oct"\)/);
  });

  it('RFC 7517 §5: not a JWK Set, no keys, a broken key or an encryption key is refused', () => {
    expect(checkPublicJwks([])).toMatch(/JWK Set/);
    expect(checkPublicJwks({ keys: [] })).toMatch(/at least one public key/);
    expect(checkPublicJwks({ keys: [{ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' }] })).toMatch(/not a valid EC public key/);
    expect(checkPublicJwks({ keys: [{ kty: 'RSA', n: 'AQAB', e: 'AQAB', use: 'enc' }] })).toMatch(/use "sig"/);
    expect(checkPublicJwks({ keys: Array.from({ length: 11 }, () => ({ kty: 'EC' })) })).toMatch(/at most 10 keys/);
  });

  it('FAPI 2.0 §5.4.1: an RSA key shorter than 2048 bits is refused, naming its size', async () => {
    // jose will not make so short a key: node:crypto will.
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(checkPublicJwks({ keys: [publicKey.export({ format: 'jwk' })] })).toMatch(/RSA key of 1024 bits: use at least 2048/);
  });
});
