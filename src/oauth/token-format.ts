// Opaque credentials (docs/rules.md#token-formats): prefix, 32 random bytes in base62, 6-character CRC32
// checksum in base62. The checksum lets a mistyped or forged token be refused without a
// storage read and lets secret scanners recognise a leaked one. Only SHA-256 hashes are stored.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const tokenPrefixes = {
  accessToken: 'gat_',
  refreshToken: 'grt_',
  authorizationCode: 'gac_',
  clientSecret: 'gcs_',
  /** docs/rules.md#public-booking: the secret of a booker's confirmation link, to cancel or reschedule. */
  bookingManageToken: 'gbm_',
  /** docs/rules.md#invite-links: the secret of a team's invite link, to join the team. */
  teamInviteToken: 'gti_',
  /** docs/rules.md#connect-pages: the secret of a connect page's address, to confirm a calendar or conferencing connection. */
  connectionRequestToken: 'gcr_',
} as const;
export type TokenKind = keyof typeof tokenPrefixes;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43; // ceil(256 / log2(62))
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32
const BASE62 = /^[0-9A-Za-z]+$/;

function base62(value: bigint, length: number): string {
  let out = '';
  while (value > 0n) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(length, '0');
}

function checksum(text: string): string {
  return base62(BigInt(crc32(text)), CHECKSUM_LENGTH);
}

export function generateToken(kind: TokenKind): string {
  const body = base62(BigInt('0x' + randomBytes(32).toString('hex')), BODY_LENGTH);
  const head = tokenPrefixes[kind] + body;
  return head + checksum(head);
}

/** True when the string has the shape and checksum of a token of this kind. Pure: no I/O. */
export function isWellFormed(kind: TokenKind, token: unknown): token is string {
  const prefix = tokenPrefixes[kind];
  if (typeof token !== 'string' || token.length !== prefix.length + BODY_LENGTH + CHECKSUM_LENGTH) return false;
  if (!token.startsWith(prefix)) return false;
  const rest = token.slice(prefix.length);
  if (!BASE62.test(rest)) return false;
  const head = token.slice(0, token.length - CHECKSUM_LENGTH);
  return checksum(head) === token.slice(-CHECKSUM_LENGTH);
}

/** Which of our credentials `text` starts like, if any: what a log may say instead of it. */
export function credentialKind(text: string): TokenKind | undefined {
  const lower = text.trimStart().toLowerCase();
  return (Object.keys(tokenPrefixes) as TokenKind[]).find((kind) => lower.startsWith(tokenPrefixes[kind]));
}

/** The storage key of a credential. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Constant-time equality of two stored hashes. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A random id that sorts by creation time: 48 bits of milliseconds, then 80 random bits, in
 * the 22 base62 characters of randomId(). For the rows every exchange and refresh writes
 * (grants, refresh tokens): keyed or indexed by it, they go to the end of their B-trees
 * rather than onto a random page, and the group's commit writes fewer pages (bench profile:
 * the commit was the largest cost of an exchange). Not a credential: its time is no secret
 * (a grant id reaches its own client in webhook events, which carry their time anyway).
 */
export function timeOrderedId(now: number): string {
  const random = BigInt('0x' + randomBytes(10).toString('hex'));
  return base62((BigInt(Math.max(0, Math.floor(now))) << 80n) | random, 22);
}

/** Random identifier for rows and client ids (not a credential). */
export function randomId(bytes = 16): string {
  return base62(BigInt('0x' + randomBytes(bytes).toString('hex')), Math.ceil((bytes * 8) / 5.954));
}
