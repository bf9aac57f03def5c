// Client authentication by a signed JWT: private_key_jwt (RFC 7523 §2.2, §3; OpenID Connect
// Core §9; FAPI 2.0 §5.3.2.1; docs/rules.md#client-authentication). The client signs a short-lived
// JWT with a private key whose public half it registered (jwks); this module checks one
// assertion against those keys and names the replay key its jti is spent under. Every JOSE
// operation is jose's.
import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet, type JWK, type JWTPayload } from 'jose';
import { isAcceptableJti, MAX_JTI_LENGTH } from './jti.ts';

/** RFC 7523 §2.2: the client_assertion_type of a JWT assertion. */
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * FAPI 2.0 §5.4.1: the algorithms a client of the profile may sign with. Ed25519 is EdDSA by its
 * fully-specified name (RFC 9864), which oauth4webapi and openid-client sign Ed25519 keys with.
 */
export const FAPI2_ASSERTION_ALGORITHMS = ['PS256', 'ES256', 'EdDSA', 'Ed25519'] as const;

/** `token_endpoint_auth_signing_alg_values_supported`: the profile's, and RS256 for other clients. Never `none` or HS*. */
export const ASSERTION_ALGORITHMS = [...FAPI2_ASSERTION_ALGORITHMS, 'RS256'] as const;

/** RFC 7519 §4.1.4, §4.1.5: how far exp, nbf and iat may stray from our clock. */
export const ASSERTION_SKEW_SECONDS = 30;

/** An assertion is for one request: exp may be at most this far ahead, so its jti need not be kept long. */
export const MAX_ASSERTION_LIFETIME_SECONDS = 300;

/** The most keys a client may register, and the largest JWK Set: a registration is not a key store. */
export const MAX_JWKS_KEYS = 10;
export const MAX_JWKS_LENGTH = 20_000;

/** FAPI 2.0 §5.4.1, and the least any client should use: a shorter RSA key can be factored. */
const MIN_RSA_BITS = 2048;

/** RFC 7517 §6.2.2, §6.3.2, §6.4: members that only a private or symmetric key has. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

export type AssertionFailure = { ok: false; description: string };

export interface CheckedAssertion {
  ok: true;
  /** The replay key: a hash of the client and the jti, so a jti is spent per client. */
  replayKey: string;
  /** Until when the assertion could be accepted, so how long its record must stay. */
  acceptableUntil: number;
}

export interface AssertionExpectation {
  clientId: string;
  /** RFC 7523 §3 point 3 as the newest drafts narrow it: the issuer identifier is the only audience. */
  issuer: string;
  /** The token endpoint: named in the refusal of an assertion that took it as its audience. */
  tokenEndpoint: string;
  jwks: JSONWebKeySet;
  /** FAPI 2.0 §5.4.1: a client of the profile signs with PS256, ES256 or EdDSA only. */
  fapi2: boolean;
}

const fail = (description: string): AssertionFailure => ({ ok: false, description });

/**
 * Who the assertion says it is: its `sub` (RFC 7523 §3 point 2), read before the signature is
 * checked only to find the client whose keys check it. Undefined when it is not a JWT with one.
 */
export function assertedClientId(assertion: string): string | undefined {
  try {
    const { sub } = decodeJwt(assertion);
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A client's keys as jose verifies with them. A key set imports each key once, on first use:
 * kept per registered JWK Set (a change of keys is another set), a client's keys are not
 * imported again on every token request. Bounded, as client records are.
 */
const keySets = new Map<string, ReturnType<typeof createLocalJWKSet>>();
const KEY_SETS_KEPT = 1000;
function keySetOf(jwks: AssertionExpectation['jwks']): ReturnType<typeof createLocalJWKSet> {
  const key = JSON.stringify(jwks);
  let set = keySets.get(key);
  if (set === undefined) {
    if (keySets.size >= KEY_SETS_KEPT) keySets.clear();
    set = createLocalJWKSet(jwks);
    keySets.set(key, set);
  }
  return set;
}

/**
 * Checks an assertion as RFC 7523 §3 lists the checks: a signature by one of the client's keys
 * with an algorithm it may use (§3 point 9), iss and sub the client_id (points 1, 2), aud the
 * issuer alone (point 3), exp present, not past and not far ahead (point 4), nbf and iat
 * honoured (points 5, 6), a jti (point 7). The replay check is the caller's, with replayKey.
 */
export async function checkClientAssertion(assertion: string, expected: AssertionExpectation, now: number): Promise<CheckedAssertion | AssertionFailure> {
  const algorithms = expected.fapi2 ? [...FAPI2_ASSERTION_ALGORITHMS] : [...ASSERTION_ALGORITHMS];
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(assertion, keySetOf(expected.jwks), {
      algorithms,
      currentDate: new Date(now),
      clockTolerance: ASSERTION_SKEW_SECONDS,
      requiredClaims: ['exp'],
    }));
  } catch (error) {
    return fail(`the client_assertion is not valid: ${describeJoseError(error, algorithms)}`);
  }
  if (payload.iss !== expected.clientId) return fail('the client_assertion\'s iss must be the client_id');
  if (payload.sub !== expected.clientId) return fail('the client_assertion\'s sub must be the client_id');
  const aud = payload.aud;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (audiences.length !== 1 || audiences[0] !== expected.issuer) {
    const named = audiences.includes(expected.tokenEndpoint) ? ', not the token endpoint URL' : '';
    return fail(`the client_assertion's aud must be the issuer identifier ${expected.issuer} alone${named}`);
  }
  const exp = payload.exp!;
  if (exp * 1000 > now + (MAX_ASSERTION_LIFETIME_SECONDS + ASSERTION_SKEW_SECONDS) * 1000) {
    return fail(`the client_assertion's exp is more than ${MAX_ASSERTION_LIFETIME_SECONDS} seconds ahead: make a short-lived assertion for each request`);
  }
  if (payload.iat !== undefined && payload.iat * 1000 > now + ASSERTION_SKEW_SECONDS * 1000) {
    return fail('the client_assertion\'s iat is in the future: check the client\'s clock');
  }
  const { jti } = payload;
  if (!isAcceptableJti(jti)) {
    return fail(`the client_assertion must carry a jti, a unique string of 1 to ${MAX_JTI_LENGTH} characters`);
  }
  return {
    ok: true,
    replayKey: createHash('sha256').update(`client_assertion\n${expected.clientId}\n${jti}`).digest('base64url'),
    acceptableUntil: (exp + ASSERTION_SKEW_SECONDS) * 1000,
  };
}

/** jose's error codes in words that say what to fix; nothing of the assertion or the keys is echoed. */
function describeJoseError(error: unknown, algorithms: readonly string[]): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return `sign it with one of ${algorithms.join(', ')} (never none or a shared secret)`;
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'none of the keys registered for this client matches its alg and kid: sign with a registered key, or register its public key';
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'its signature does not verify with the keys registered for this client';
    case 'ERR_JWT_EXPIRED':
      return 'it has expired: make a new one for each request';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = String((error as { claim?: unknown }).claim);
      if (claim === 'exp') return 'it must carry exp, a few minutes ahead at most';
      if (claim === 'nbf') return 'its nbf is in the future: check the client\'s clock';
      return `its ${claim} claim is not acceptable`;
    }
    default:
      return 'it must be a signed JWT (RFC 7523 §3)';
  }
}

/** Whether JSON text holds a key member only a private or symmetric key has, so that no page shows it back. */
export function holdsPrivateKey(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON, so not a JWK; but a PEM private key pasted in its place is one.
    return /PRIVATE KEY/.test(text);
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  const candidates = Array.isArray(keys) ? keys : [parsed];
  return candidates.some((k) => k !== null && typeof k === 'object' && PRIVATE_MEMBERS.some((m) => m in k));
}

/**
 * A JWK Set as a client may register it (RFC 7591 §2 `jwks`): a JSON object whose `keys` are
 * public asymmetric keys. Returns the set, or what to fix. Private members are refused, not
 * dropped: a developer who pasted a private key must learn it is exposed.
 */
export function checkPublicJwks(value: unknown): JSONWebKeySet | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'jwks must be a JWK Set: a JSON object with a "keys" array';
  const keys = (value as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0) return 'jwks must hold a "keys" array with at least one public key';
  if (keys.length > MAX_JWKS_KEYS) return `jwks may hold at most ${MAX_JWKS_KEYS} keys`;
  const checked: JWK[] = [];
  for (const [i, key] of keys.entries()) {
    if (key === null || typeof key !== 'object' || Array.isArray(key)) return `key ${i + 1} of jwks must be a JSON object (a JWK)`;
    const jwk = key as JWK;
    if (jwk.kty === 'oct') return `key ${i + 1} of jwks is a symmetric key (kty "oct"): register public keys only (RSA, EC or OKP)`;
    if (jwk.kty !== 'RSA' && jwk.kty !== 'EC' && jwk.kty !== 'OKP') return `key ${i + 1} of jwks must have kty RSA, EC or OKP`;
    const secret = PRIVATE_MEMBERS.find((m) => m in jwk);
    if (secret !== undefined) {
      return `key ${i + 1} of jwks holds the private member "${secret}": register the public key only, and treat this private key as exposed`;
    }
    if (jwk.use !== undefined && jwk.use !== 'sig') return `key ${i + 1} of jwks must have use "sig" or no use`;
    let bits: number | undefined;
    try {
      bits = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }).asymmetricKeyDetails?.modulusLength;
    } catch {
      return `key ${i + 1} of jwks is not a valid ${jwk.kty} public key`;
    }
    if (jwk.kty === 'RSA' && (bits ?? 0) < MIN_RSA_BITS) return `key ${i + 1} of jwks is an RSA key of ${bits} bits: use at least ${MIN_RSA_BITS} (FAPI 2.0 §5.4.1)`;
    checked.push(jwk);
  }
  return { keys: checked };
}
