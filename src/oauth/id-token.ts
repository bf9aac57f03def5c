// ID tokens (OpenID Connect Core §2, §3.1.3.3, §3.1.3.6) and the claims of the identity scopes
// (§5.4), which UserInfo answers too. Signed with the instance's current key for the client's
// algorithm (signing-keys.ts); every JOSE operation is jose's.
import { createHash } from 'node:crypto';
import { SignJWT } from 'jose';
import type { OAuthContext } from './context.ts';
import { isIdTokenAlgorithm, type IdTokenAlgorithm } from './signing-keys.ts';
import type { ClientRecord, IdentityRecord } from './storage.ts';

/** The scope that makes a request an OpenID Connect one (OpenID Connect Core §3.1.2.1). */
export const OPENID = 'openid';

export function isOpenIdRequest(scopes: readonly string[] | null): boolean {
  return scopes !== null && scopes.includes(OPENID);
}

/**
 * The algorithm of the client's ID tokens: the one it registered (OpenID Connect Registration
 * §2 id_token_signed_response_alg), else RS256, which Core §3.1.3.7 makes the default; PS256
 * for a client of the FAPI 2.0 profile, which does not allow RS256 (FAPI 2.0 Security Profile
 * §5.4.1, docs/rules.md#fapi2).
 */
export function idTokenAlgorithmOf(client: Pick<ClientRecord, 'idTokenSignedResponseAlg' | 'fapi2'>): IdTokenAlgorithm {
  const registered = client.idTokenSignedResponseAlg;
  if (isIdTokenAlgorithm(registered) && !(client.fapi2 === true && registered === 'RS256')) return registered;
  return client.fapi2 === true ? 'PS256' : 'RS256';
}

/** The claims the granted scopes release (OpenID Connect Core §5.4): name under profile, email under email. */
export function identityClaims(scopes: readonly string[], identity: IdentityRecord): Record<string, string | boolean> {
  return {
    ...(scopes.includes('profile') ? { name: identity.name } : {}),
    ...(scopes.includes('email') ? { email: identity.email, email_verified: identity.emailVerified } : {}),
  };
}

/**
 * OpenID Connect Core §3.1.3.6 at_hash: the left half of the access token's hash, with the hash
 * of the signing algorithm: SHA-256 for RS256, PS256 and ES256; SHA-512 for EdDSA with
 * Ed25519 (the hash Ed25519 itself uses, as OpenID Connect's EdDSA registration says).
 */
export function accessTokenHash(accessToken: string, alg: IdTokenAlgorithm): string {
  const digest = createHash(alg === 'EdDSA' ? 'sha512' : 'sha256').update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

export interface IdTokenSubject {
  client: ClientRecord;
  /** The user's claims, read in the exchange's transaction; undefined when the user is gone. */
  identity: IdentityRecord | undefined;
  userId: string;
  scopes: readonly string[];
  nonce: string | null;
  /** When the user last logged in, in milliseconds (§2 auth_time). */
  authTime: number;
  accessToken: string;
}

/** The key an ID token for `client` is signed with; read before a transaction, so that no read waits on it. */
export function idTokenSigner(ctx: OAuthContext, client: ClientRecord): Promise<IdTokenSigner> {
  const alg = idTokenAlgorithmOf(client);
  return ctx.signingKeys.signer(alg).then((s) => ({ alg, ...s }));
}

export interface IdTokenSigner {
  alg: IdTokenAlgorithm;
  kid: string;
  key: Awaited<ReturnType<OAuthContext['signingKeys']['signer']>>['key'];
}

/**
 * The ID token of a code exchange (§3.1.3.3). `sub` is the user's id: public (the same for
 * every client, as introspection's `sub`), never reassigned (users are numbered from a series,
 * docs/rules.md#numbered-ids), never the e-mail, which a user may change. It lives as long as
 * the access token issued with it.
 */
export async function mintIdToken(ctx: OAuthContext, { alg, kid, key }: IdTokenSigner, subject: IdTokenSubject): Promise<string> {
  const { identity } = subject;
  const now = Math.floor(ctx.clock() / 1000);
  return new SignJWT({
    auth_time: Math.floor(subject.authTime / 1000),
    ...(subject.nonce === null ? {} : { nonce: subject.nonce }),
    at_hash: accessTokenHash(subject.accessToken, alg),
    ...(identity === undefined ? {} : identityClaims(subject.scopes, identity)),
  })
    .setProtectedHeader({ alg, kid, typ: 'JWT' })
    .setIssuer(ctx.issuer)
    .setSubject(subject.userId)
    .setAudience(subject.client.id)
    .setIssuedAt(now)
    .setExpirationTime(now + ctx.ttl.accessToken)
    .sign(key);
}
