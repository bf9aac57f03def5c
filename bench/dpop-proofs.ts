// DPoP proofs for the load generator (RFC 9449 §4.2): one key pair, and a fresh proof per
// request, signed synchronously so that autocannon's per-request hook can make it. Client
// side of the bench only: the server verifies proofs with its kept JOSE library.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export interface ProofMaker {
  /** The key's RFC 7638 thumbprint, which bound tokens carry. */
  jkt: string;
  proof(method: string, url: string, options?: { accessToken?: string; nonce?: string }): string;
}

export function dpopKey(): ProofMaker {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' }) as { crv: string; kty: string; x: string; y: string };
  // RFC 7638 §3.2: the required members, in lexicographic order, no whitespace.
  const jkt = b64(createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest());
  const header = b64(JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } }));
  return {
    jkt,
    proof(method, url, options = {}) {
      const payload = b64(
        JSON.stringify({
          jti: randomBytes(16).toString('base64url'),
          htm: method,
          htu: url,
          iat: Math.floor(Date.now() / 1000),
          ...(options.accessToken ? { ath: b64(createHash('sha256').update(options.accessToken).digest()) } : {}),
          ...(options.nonce ? { nonce: options.nonce } : {}),
        }),
      );
      return `${header}.${payload}.${b64(signature(privateKey, `${header}.${payload}`))}`;
    },
  };
}

/** ES256 as JWS wants it: r and s, 32 bytes each (RFC 7518 §3.4). */
function signature(key: KeyObject, input: string): Buffer {
  return sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
}
