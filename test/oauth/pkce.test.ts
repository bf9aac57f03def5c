// PKCE (RFC 7636), S256 only (docs/rules.md#pkce).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OAuthError } from '../../src/oauth/errors.ts';
import { readCodeChallenge, verifyCodeVerifier } from '../../src/oauth/pkce.ts';

// RFC 7636 Appendix B.
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

function oauthErrorOf(fn: () => unknown): OAuthError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthError);
    return error as OAuthError;
  }
  throw new Error('expected an OAuthError, nothing was thrown');
}

describe('PKCE verification at the token endpoint (RFC 7636 §4.6)', () => {
  it('accepts the RFC 7636 Appendix B verifier for its challenge E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', () => {
    expect(s256(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
    expect(() => verifyCodeVerifier(RFC_CHALLENGE, RFC_VERIFIER)).not.toThrow();
  });

  it('a verifier that differs by one character is invalid_grant', () => {
    const error = oauthErrorOf(() => verifyCodeVerifier(RFC_CHALLENGE, RFC_VERIFIER.slice(0, -1) + 'Y'));
    expect(error.code).toBe('invalid_grant');
    expect(error.status).toBe(400);
    expect(error.description).toMatch(/code_verifier/);
  });

  it('sending the challenge itself as the verifier (plain method) is invalid_grant: only S256 is supported', () => {
    expect(oauthErrorOf(() => verifyCodeVerifier(RFC_CHALLENGE, RFC_CHALLENGE)).code).toBe('invalid_grant');
  });

  it('a missing verifier, when the code was issued with a challenge, is invalid_grant (docs/rules.md#pkce)', () => {
    const error = oauthErrorOf(() => verifyCodeVerifier(RFC_CHALLENGE, undefined));
    expect(error.code).toBe('invalid_grant');
    expect(error.description).toMatch(/code_verifier is required/);
  });

  it('a verifier for a code issued without a challenge is invalid_grant (docs/rules.md#pkce)', () => {
    expect(oauthErrorOf(() => verifyCodeVerifier(null, RFC_VERIFIER)).code).toBe('invalid_grant');
  });

  it('no challenge and no verifier is fine (confidential client without PKCE)', () => {
    expect(() => verifyCodeVerifier(null, undefined)).not.toThrow();
  });

  it('verifiers of exactly 43 and 128 characters of the unreserved alphabet are accepted', () => {
    const short = 'a'.repeat(40) + '-._';
    const long = 'Z9~'.repeat(42) + 'ab';
    expect(short).toHaveLength(43);
    expect(long).toHaveLength(128);
    expect(() => verifyCodeVerifier(s256(short), short)).not.toThrow();
    expect(() => verifyCodeVerifier(s256(long), long)).not.toThrow();
  });

  it('verifiers of 42 or 129 characters, or with characters outside A-Z a-z 0-9 - . _ ~, are invalid_grant even when they hash to the challenge', () => {
    for (const verifier of ['a'.repeat(42), 'a'.repeat(129), 'a'.repeat(42) + '+', 'a'.repeat(42) + '/', 'a'.repeat(42) + '=', 'a'.repeat(42) + ' ']) {
      const error = oauthErrorOf(() => verifyCodeVerifier(s256(verifier), verifier));
      expect(error.code, verifier).toBe('invalid_grant');
      expect(error.description).toMatch(/43-128/);
    }
  });
});

describe('PKCE challenge on the authorization request (docs/rules.md#pkce)', () => {
  it('accepts an S256 challenge with the method given, or omitted (meaning S256)', () => {
    expect(readCodeChallenge(RFC_CHALLENGE, 'S256', true)).toBe(RFC_CHALLENGE);
    expect(readCodeChallenge(RFC_CHALLENGE, undefined, true)).toBe(RFC_CHALLENGE);
    expect(readCodeChallenge(RFC_CHALLENGE, undefined, false)).toBe(RFC_CHALLENGE);
  });

  it('refuses method plain, a lower-case s256 and any other method as invalid_request', () => {
    for (const method of ['plain', 's256', 'S512', '']) {
      const error = oauthErrorOf(() => readCodeChallenge(RFC_CHALLENGE, method, false));
      expect(error.code, method).toBe('invalid_request');
      expect(error.description).toMatch(/S256/);
    }
  });

  it('a public client without code_challenge is invalid_request; a confidential one gets null (PKCE optional)', () => {
    const error = oauthErrorOf(() => readCodeChallenge(undefined, undefined, true));
    expect(error.code).toBe('invalid_request');
    expect(error.description).toMatch(/code_challenge is required/);
    expect(oauthErrorOf(() => readCodeChallenge('', 'S256', true)).code).toBe('invalid_request');
    expect(readCodeChallenge(undefined, undefined, false)).toBeNull();
    expect(readCodeChallenge('', undefined, false)).toBeNull();
  });

  it('code_challenge_method without code_challenge is invalid_request', () => {
    expect(oauthErrorOf(() => readCodeChallenge(undefined, 'S256', false)).code).toBe('invalid_request');
  });

  it('a challenge that is not 43 base64url characters (too short, too long, padded, standard base64) is invalid_request', () => {
    const standard = createHash('sha256').update(RFC_VERIFIER).digest('base64'); // has '+' or '/' and '='
    for (const challenge of [RFC_CHALLENGE.slice(0, 42), RFC_CHALLENGE + 'A', RFC_CHALLENGE + '=', standard, RFC_VERIFIER.replace(/-/g, '+')]) {
      expect(oauthErrorOf(() => readCodeChallenge(challenge, 'S256', false)).code, challenge).toBe('invalid_request');
    }
  });
});
