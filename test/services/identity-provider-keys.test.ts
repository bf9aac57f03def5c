// The identity providers' keys (src/services/identity-providers/keys.ts;
// docs/integrating.md#enterprise-managed-agents): fetched only where the outbound guard allows
// (docs/rules.md#outbound-urls), only as public signing keys, kept per issuer and address so
// one issuer's key set never verifies another's ID-JAG.
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { IdentityProviderKeysUnavailable, type TrustedIdentityProvider } from '../../src/oauth/identity-assertion.ts';
import { createIdentityProviderKeys, signingKeys, type FetchKeys } from '../../src/services/identity-providers/keys.ts';
import { testResolver } from '../helpers/test-dns.ts';

const trust = (over: Partial<TrustedIdentityProvider> = {}): TrustedIdentityProvider => ({
  id: 'idp-1',
  organizationId: '1',
  issuer: 'https://idp.acme.example',
  jwksUri: 'https://idp.example.com/keys',
  domains: ['acme.example'],
  scopes: null,
  ...over,
});

async function signed() {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1' };
  const token = await new SignJWT({ sub: 'x' }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).sign(privateKey);
  const [header] = token.split('.');
  return { jwk, token, header: JSON.parse(Buffer.from(header!, 'base64url').toString()) };
}

describe('identity provider keys', () => {
  const guarded = { allowPrivate: false, resolve: testResolver };

  it('docs/rules.md#outbound-urls: a jwks_uri on a private address, or over http, is never fetched', async () => {
    let fetched = 0;
    const fetchKeys: FetchKeys = async () => {
      fetched += 1;
      return { status: 200, body: '{"keys":[]}' };
    };
    const keys = createIdentityProviderKeys(guarded, () => 0, fetchKeys);
    const { header } = await signed();
    const privately = keys(trust({ jwksUri: 'https://private.example.com/keys' }))(header, {} as never);
    await expect(privately).rejects.toThrow(IdentityProviderKeysUnavailable);
    await expect(privately).rejects.toThrow(/resolves to a non-public address: it must be on a public address/);
    await expect(keys(trust({ jwksUri: 'http://idp.example.com/keys' }))(header, {} as never)).rejects.toThrow(/must use https/);
    expect(fetched).toBe(0);
  });

  it('RFC 7517: only public signing keys of a JWK Set are used; a set without one is refused', () => {
    expect(signingKeys('not json')).toBe('its jwks_uri did not answer JSON');
    expect(signingKeys('{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}')).toBe('its jwks_uri publishes no public signing key');
    const pub = { kty: 'EC', crv: 'P-256', x: 'a', y: 'b', kid: 'sig' };
    expect(signingKeys(JSON.stringify({ keys: [pub, { ...pub, kid: 'priv', d: 'secret' }, { ...pub, kid: 'enc', use: 'enc' }] }))).toEqual({ keys: [pub] });
  });

  it("a key set is kept per issuer: the same address named by another issuer's trust is fetched for it, and a kept set is reused", async () => {
    const { jwk, header, token } = await signed();
    const fetchedFor: string[] = [];
    const fetchKeys: FetchKeys = async (target) => {
      fetchedFor.push(target.url.href);
      return { status: 200, body: JSON.stringify({ keys: [jwk] }) };
    };
    const keys = createIdentityProviderKeys(guarded, () => 0, fetchKeys);
    const [, payload, signature] = token.split('.');
    const flattened = { payload: payload!, signature: signature! };
    await keys(trust())(header, flattened);
    await keys(trust())(header, flattened);
    expect(fetchedFor).toEqual(['https://idp.example.com/keys']);
    await keys(trust({ id: 'idp-2', issuer: 'https://other-idp.example' }))(header, flattened);
    expect(fetchedFor).toEqual(['https://idp.example.com/keys', 'https://idp.example.com/keys']);
  });
});
