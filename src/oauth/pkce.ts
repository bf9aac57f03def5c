// PKCE, RFC 7636, S256 only (docs/rules.md#pkce).
import { createHash } from 'node:crypto';
import { invalidGrant, invalidRequest } from './errors.ts';
import { hashesEqual } from './token-format.ts';

// RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is always 43 characters.
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
// RFC 7636 §4.1: 43–128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~".
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Validates the challenge of an authorization request; returns it, or null when absent. */
export function readCodeChallenge(
  challenge: string | undefined,
  method: string | undefined,
  required: boolean,
  /** Who must send one, for the message: public clients, or the FAPI 2.0 profile's. */
  whoMust = 'public clients',
): string | null {
  if (method !== undefined && method !== 'S256') {
    throw invalidRequest('code_challenge_method must be S256 (plain is not supported)');
  }
  if (challenge === undefined || challenge === '') {
    if (required) throw invalidRequest(`code_challenge is required for ${whoMust} (PKCE, S256)`);
    if (method !== undefined) throw invalidRequest('code_challenge_method was sent without code_challenge');
    return null;
  }
  if (!CHALLENGE.test(challenge)) {
    throw invalidRequest('code_challenge must be the 43-character base64url SHA-256 of the code_verifier');
  }
  return challenge;
}

/** RFC 7636 §4.6, checked at the token endpoint. */
export function verifyCodeVerifier(challenge: string | null, verifier: string | undefined): void {
  if (challenge === null) {
    if (verifier !== undefined) {
      throw invalidGrant('code_verifier was sent but the authorization request had no code_challenge');
    }
    return;
  }
  if (verifier === undefined) throw invalidGrant('code_verifier is required: the authorization request had a code_challenge');
  if (!VERIFIER.test(verifier)) {
    throw invalidGrant('code_verifier must be 43-128 characters of A-Z a-z 0-9 - . _ ~');
  }
  const computed = createHash('sha256').update(verifier).digest('base64url');
  if (!hashesEqual(computed, challenge)) throw invalidGrant('code_verifier does not match the code_challenge');
}
