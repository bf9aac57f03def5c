// docs/rules.md#token-formats: opaque credentials are a type prefix, 32 random bytes in base62 (43 characters)
// and a 6-character CRC32 checksum in base62; only SHA-256 hashes are stored.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateToken, hashesEqual, hashToken, isWellFormed, timeOrderedId, tokenPrefixes, type TokenKind } from '../../src/oauth/token-format.ts';

const kinds = Object.keys(tokenPrefixes) as TokenKind[];
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('token format (docs/rules.md#token-formats)', () => {
  it('uses the prefixes gat_, grt_, gac_, gcs_, gbm_, gti_ and gcr_ for access token, refresh token, code, client secret, booking manageToken, team invite link and connection request', () => {
    expect(tokenPrefixes).toEqual({ accessToken: 'gat_', refreshToken: 'grt_', authorizationCode: 'gac_', clientSecret: 'gcs_', bookingManageToken: 'gbm_', teamInviteToken: 'gti_', connectionRequestToken: 'gcr_' });
  });

  it.each(kinds)('a generated %s is its prefix, 43 base62 characters and a 6-character base62 checksum (53 in all)', (kind) => {
    const token = generateToken(kind);
    expect(token).toHaveLength(53);
    expect(token.startsWith(tokenPrefixes[kind])).toBe(true);
    expect(token.slice(4)).toMatch(/^[0-9A-Za-z]{49}$/);
    expect(isWellFormed(kind, token)).toBe(true);
  });

  it('generates a different token every time (32 random bytes)', () => {
    const tokens = new Set(Array.from({ length: 500 }, () => generateToken('accessToken')));
    expect(tokens.size).toBe(500);
  });

  it('the random part uses the whole base62 alphabet, not just hex digits', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateToken('refreshToken').slice(4, 47)).join(''));
    expect(seen.size).toBeGreaterThan(58);
    for (const ch of seen) expect(ALPHABET).toContain(ch);
  });

  it('the checksum catches any one-character change, at every position (docs/rules.md#token-formats: a mistyped token is rejected without storage)', () => {
    const token = generateToken('accessToken');
    for (let i = 0; i < token.length; i++) {
      for (const replacement of ['0', 'Z', 'z', 'q']) {
        if (token[i] === replacement) continue;
        const typo = token.slice(0, i) + replacement + token.slice(i + 1);
        expect(isWellFormed('accessToken', typo), `change at position ${i} to ${replacement}`).toBe(false);
      }
    }
  });

  it('the checksum catches two swapped neighbouring characters', () => {
    const token = generateToken('clientSecret');
    let swaps = 0;
    for (let i = 4; i < token.length - 7; i++) {
      if (token[i] === token[i + 1]) continue;
      const swapped = token.slice(0, i) + token[i + 1] + token[i] + token.slice(i + 2);
      expect(isWellFormed('clientSecret', swapped)).toBe(false);
      swaps++;
    }
    expect(swaps).toBeGreaterThan(30);
  });

  it('isWellFormed refuses a token of another kind, and a prefix swapped onto another kind\'s token', () => {
    for (const kind of kinds) {
      const token = generateToken(kind);
      for (const other of kinds.filter((k) => k !== kind)) {
        expect(isWellFormed(other, token)).toBe(false);
        expect(isWellFormed(other, tokenPrefixes[other] + token.slice(4))).toBe(false);
      }
    }
  });

  it('isWellFormed refuses wrong lengths, characters outside base62 and non-strings', () => {
    const token = generateToken('authorizationCode');
    expect(isWellFormed('authorizationCode', token.slice(0, -1))).toBe(false);
    expect(isWellFormed('authorizationCode', token + '0')).toBe(false);
    expect(isWellFormed('authorizationCode', token.slice(0, 10) + '-' + token.slice(11))).toBe(false);
    expect(isWellFormed('authorizationCode', token.slice(0, 10) + 'é' + token.slice(11))).toBe(false);
    expect(isWellFormed('authorizationCode', ` ${token.slice(1)}`)).toBe(false);
    expect(isWellFormed('authorizationCode', token.toUpperCase())).toBe(false);
    expect(isWellFormed('authorizationCode', '')).toBe(false);
    expect(isWellFormed('authorizationCode', undefined)).toBe(false);
    expect(isWellFormed('authorizationCode', null)).toBe(false);
    expect(isWellFormed('authorizationCode', 53)).toBe(false);
    expect(isWellFormed('authorizationCode', [token])).toBe(false);
  });

  it('hashToken is the SHA-256 of the token in base64url (43 characters, no padding)', () => {
    const token = generateToken('refreshToken');
    const hash = hashToken(token);
    expect(hash).toBe(createHash('sha256').update(token, 'utf8').digest('base64url'));
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain(token.slice(4, 20));
    // a known vector: SHA-256("abc")
    expect(hashToken('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });

  it('hashToken is deterministic and differs for tokens one character apart', () => {
    const token = generateToken('accessToken');
    expect(hashToken(token)).toBe(hashToken(token));
    const other = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    expect(hashToken(other)).not.toBe(hashToken(token));
  });

  it('hashesEqual compares stored hashes exactly, including ones of different length', () => {
    const a = hashToken(generateToken('accessToken'));
    const b = hashToken(generateToken('accessToken'));
    expect(hashesEqual(a, a)).toBe(true);
    expect(hashesEqual(a, `${a}`)).toBe(true);
    expect(hashesEqual(a, b)).toBe(false);
    expect(hashesEqual(a, a.slice(0, -1))).toBe(false);
    expect(hashesEqual('', a)).toBe(false);
  });

  it('time-ordered ids (grants, refresh tokens) are 22 base62 characters, sort by creation time, and never repeat', () => {
    const now = Date.UTC(2026, 10, 23);
    const ids = Array.from({ length: 2000 }, (_, i) => timeOrderedId(now + Math.floor(i / 10)));
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Ordered by their millisecond; within one millisecond, in random order.
    const byTime = ids.map((id, i) => ({ id, ms: now + Math.floor(i / 10) }));
    for (let i = 10; i < byTime.length; i++) expect(byTime[i]!.id > byTime[i - 10]!.id).toBe(true);
    expect(timeOrderedId(now + 86_400_000 * 365 * 100) > timeOrderedId(now)).toBe(true);
  });

  it('tokens issued before the encoding was rewritten without BigInt are still well-formed, and a changed one is not', () => {
    // Made by the BigInt encoding (main before issue 41): the checksum of a stored or issued token must not change.
    const access = 'gat_iIf6KCNG5zemhqVdcJVi86iXvJ8nY08iR7F1qYBLhKM2OstXu';
    const secret = 'gcs_emMGerg0I4ByzGnYqOslLyiPk9WjLvry0C2oZliYLuy2kpmRY';
    expect(isWellFormed('accessToken', access)).toBe(true);
    expect(isWellFormed('clientSecret', secret)).toBe(true);
    expect(isWellFormed('accessToken', `${access.slice(0, -1)}v`)).toBe(false);
  });

  it('a token body is 32 bytes written in base62 (below 2^256), and a time-ordered id carries its millisecond in its top 48 bits', () => {
    const value = (text: string) => [...text].reduce((n, ch) => n * 62n + BigInt(ALPHABET.indexOf(ch)), 0n);
    const bodies = Array.from({ length: 300 }, () => value(generateToken('accessToken').slice(4, 47)));
    for (const body of bodies) expect(body < 2n ** 256n).toBe(true);
    // 300 bodies of 256 random bits: some top bit set, so no bit of the 32 bytes is lost.
    expect(bodies.some((body) => body >= 2n ** 255n)).toBe(true);
    const now = Date.UTC(2026, 10, 29, 1, 2, 3, 456);
    for (let i = 0; i < 50; i++) expect(value(timeOrderedId(now)) >> 80n).toBe(BigInt(now));
  });
});
