// A client's key pair for private_key_jwt (RFC 7523 §2.2; docs/rules.md#client-authentication), and the
// assertions a client would sign with it: made with jose, as a client application would.
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JSONWebKeySet, type JWK } from 'jose';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface ClientKey {
  alg: string;
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** The JWK Set a client registers: its public key alone. */
  jwks: JSONWebKeySet;
}

export async function clientKey(alg = 'ES256'): Promise<ClientKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  // No alg member: a key may then be used with any algorithm its type allows (EdDSA or Ed25519, say).
  const publicJwk = { ...(await exportJWK(publicKey)), kid, use: 'sig' };
  return { alg, kid, privateKey, publicJwk, jwks: { keys: [publicJwk] } };
}

export interface AssertionClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  /** Seconds from now; null leaves exp out. */
  expIn?: number | null;
  iat?: number;
  nbf?: number;
  /** null leaves jti out. */
  jti?: string | null;
}

/** An assertion for `clientId` with audience `issuer`, valid for 60 s unless the claims say otherwise. */
export async function signAssertion(key: ClientKey, clientId: string, issuer: string, claims: AssertionClaims = {}, header: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    iss: claims.iss ?? clientId,
    sub: claims.sub ?? clientId,
    aud: claims.aud ?? issuer,
    iat: claims.iat ?? now,
  };
  if (claims.expIn !== null) payload.exp = now + (claims.expIn ?? 60);
  if (claims.nbf !== undefined) payload.nbf = claims.nbf;
  if (claims.jti !== null) payload.jti = claims.jti ?? randomUUID();
  return new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: key.kid, ...header }).sign(key.privateKey);
}

/** The body fields of private_key_jwt. */
export const assertionFields = (assertion: string): Record<string, string> => ({ client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion });
