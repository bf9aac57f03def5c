// DPoP proofs (RFC 9449; docs/rules.md#dpop): a client proves, on each request, that it holds
// the private key its tokens are bound to. This module checks one proof as §4.3 lists the
// checks, spends its jti once across every instance (§11.1, through the DpopProofStore port)
// and makes the stateless server nonces of §8 and §9. Every JOSE operation is jose's.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWTPayload } from 'jose';
import { isAcceptableJti, MAX_JTI_LENGTH } from './jti.ts';

/** §5.1 `dpop_signing_alg_values_supported`: asymmetric algorithms only (§4.2), never `none`. */
export const DPOP_ALGORITHMS = ['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256'] as const;

/** §4.3 point 11 and §11.1: how far a proof's iat may stray from our clock, either way. */
export const PROOF_IAT_SKEW_SECONDS = 60;

/** §8: a nonce is fresh in the window it was made in and the next one, so up to twice this. */
export const NONCE_WINDOW_SECONDS = 300;

/** Storage contract of the replay check (§11.1); src/storage implements it on `dpop_proofs`. */
export interface DpopProofStore {
  /**
   * Records a proof by its key, kept until `expiresAt`. True the first time; false, writing
   * nothing, when that key is already recorded, on this instance or any other (a unique
   * key decides: ARCHITECTURE.md#single-use-is-atomic).
   */
  recordProof(proofKey: string, expiresAt: number): Promise<boolean>;
}

/**
 * §8, §9: nonces any instance can check without storage: the time window they were made in,
 * signed with a key every instance shares (derived from COOKIE_SECRET by the composition root).
 */
export class DpopNonces {
  private readonly key: Buffer;

  /** The key is derived for this purpose alone: a nonce is never a valid signed cookie. */
  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('gatehouse: DPoP nonces').digest();
  }

  private sign(window: string): string {
    return createHmac('sha256', this.key).update(window).digest('base64url');
  }

  issue(now: number): string {
    const window = String(Math.floor(now / (NONCE_WINDOW_SECONDS * 1000)));
    return `${window}.${this.sign(window)}`;
  }

  isFresh(nonce: unknown, now: number): boolean {
    if (typeof nonce !== 'string') return false;
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(nonce);
    if (match === null) return false;
    const [, window, signature] = match as unknown as [string, string, string];
    if (!timingSafeEqual(Buffer.from(signature), Buffer.from(this.sign(window)))) return false;
    const age = Math.floor(now / (NONCE_WINDOW_SECONDS * 1000)) - Number(window);
    return age === 0 || age === 1;
  }
}

/** What the request the proof came with was: the proof must name exactly this (§4.3). */
export interface ProofExpectation {
  /** The request's method (§4.3 point 8). */
  method: string;
  /** The request's URI as the client addressed it: our base URL and the path (§4.3 point 9). */
  url: string;
  /** At a resource server, the access token the proof must hash in `ath` (§4.3 point 12). */
  accessToken?: string;
  /** Whether the proof must carry a fresh nonce of ours (§8); when absent, one it carries is still checked. */
  nonceRequired: boolean;
}

export type DpopFailure = { ok: false; error: 'invalid_dpop_proof' | 'use_dpop_nonce'; description: string };

/** A proof that passed every check but the replay one: spend it with spendProof. */
export interface CheckedProof {
  ok: true;
  /** §6.1: the JWK SHA-256 thumbprint (RFC 7638) of the proof's key, base64url. */
  jkt: string;
  /** The replay key: a hash of the key's thumbprint and the jti (§11.1 lets jti be scoped to the key). */
  proofKey: string;
  /** Until when the proof could be accepted again, so how long its record must stay. */
  acceptableUntil: number;
}

const fail = (description: string): DpopFailure => ({ ok: false, error: 'invalid_dpop_proof', description });

/**
 * The DPoP header of a request: one value, or none. §4.3 point 1: more than one is refused.
 * Undefined when the request had no DPoP header.
 */
export function singleProofHeader(header: string | string[] | undefined): string | DpopFailure | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) return header.length === 1 ? header[0] : fail('send one DPoP header, not several');
  return header;
}

/** §4.3 point 9 with RFC 3986 §6.2.2 and §6.2.3 normalisation: scheme, host and port as URL spells them, no query or fragment. */
export function normalizedHtu(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** §4.3 point 12: base64url of the SHA-256 of the access token's ASCII octets. */
export function accessTokenHash(token: string): string {
  return createHash('sha256').update(token, 'ascii').digest('base64url');
}

/**
 * Checks a proof as RFC 9449 §4.3 lists the checks: one well-formed JWT (points 1, 2),
 * typ dpop+jwt (4), an algorithm of ours (5) with a public key in `jwk` (7) whose signature
 * verifies (6), the claims (3), htm (8), htu (9), a fresh nonce when required (10), iat
 * within PROOF_IAT_SKEW_SECONDS (11), and ath (12). The replay check (§11.1) is spendProof's.
 */
export async function checkProof(proof: string, expected: ProofExpectation, now: number, nonces: DpopNonces): Promise<CheckedProof | DpopFailure> {
  let payload: JWTPayload;
  let jkt: string;
  try {
    const verified = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [...DPOP_ALGORITHMS], currentDate: new Date(now) });
    payload = verified.payload;
    const jwk = verified.protectedHeader.jwk;
    if (jwk === undefined || 'd' in jwk) return fail('the jwk header must hold a public key only');
    jkt = await calculateJwkThumbprint(jwk, 'sha256');
  } catch (error) {
    return fail(`the DPoP proof is not valid: ${describeJoseError(error)}`);
  }
  const { jti, htm, htu, iat } = payload as Record<string, unknown>;
  if (!isAcceptableJti(jti)) return fail(`jti must be a unique string of 1 to ${MAX_JTI_LENGTH} characters`);
  if (typeof htm !== 'string') return fail('htm must be the HTTP method of the request');
  if (htm !== expected.method) return fail(`htm is ${JSON.stringify(htm)} but the request is ${expected.method}`);
  if (typeof htu !== 'string') return fail('htu must be the URI of the request');
  const wanted = normalizedHtu(expected.url);
  if (normalizedHtu(htu) !== wanted) return fail(`htu must be ${wanted ?? expected.url} (without query or fragment)`);
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return fail('iat must be the time the proof was made, in seconds since the epoch');
  if (Math.abs(iat * 1000 - now) > PROOF_IAT_SKEW_SECONDS * 1000) {
    return fail(`iat is more than ${PROOF_IAT_SKEW_SECONDS} seconds away from the server's time: make a new proof, and check the client's clock`);
  }
  if (expected.accessToken !== undefined) {
    if (typeof payload.ath !== 'string') return fail('ath must be the base64url SHA-256 hash of the access token');
    if (payload.ath !== accessTokenHash(expected.accessToken)) return fail('ath does not match the access token');
  }
  if (payload.nonce !== undefined || expected.nonceRequired) {
    if (!nonces.isFresh(payload.nonce, now)) {
      const said = payload.nonce === undefined ? 'the proof must carry the nonce' : 'the nonce is not one of ours or has expired: use the nonce';
      return { ok: false, error: 'use_dpop_nonce', description: `${said} of the DPoP-Nonce header of this answer` };
    }
  }
  return {
    ok: true,
    jkt,
    proofKey: createHash('sha256').update(`${jkt}\n${jti}`).digest('base64url'),
    acceptableUntil: (iat + PROOF_IAT_SKEW_SECONDS) * 1000,
  };
}

/** §11.1: a proof is accepted once; a second use, on any instance, is refused. */
export async function spendProof(store: DpopProofStore, proof: CheckedProof): Promise<DpopFailure | undefined> {
  if (await store.recordProof(proof.proofKey, proof.acceptableUntil)) return undefined;
  return fail('this DPoP proof was already used: make a new proof, with a new jti, for every request');
}

/** jose's error codes in words that say what to fix; nothing of the key or the token is echoed. */
function describeJoseError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
      return 'it must be a signed JWT whose jwk header is a public key';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return `sign it with one of ${DPOP_ALGORITHMS.join(', ')}`;
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'its signature does not verify with its jwk header';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = (error as { claim?: unknown }).claim;
      return claim === 'typ' ? 'its typ header must be dpop+jwt' : `its ${String(claim)} claim is not acceptable`;
    }
    case 'ERR_JWT_EXPIRED':
      return 'it has expired';
    default:
      return 'it must be a JWT of type dpop+jwt signed with the key in its jwk header';
  }
}
