// Opaque credentials (docs/rules.md#token-formats): prefix, 32 random bytes in base62, 6-character CRC32
// checksum in base62. The checksum lets a mistyped or forged token be refused without a
// storage read and lets secret scanners recognise a leaked one. Only SHA-256 hashes are stored.
import { createHash, randomFillSync, timingSafeEqual } from 'node:crypto';
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

/**
 * Base62 of a big-endian number given as 16-bit limbs (each < 65536), most significant first,
 * left-padded with '0' to `length`: long division in plain numbers, four digits (62^4) per
 * pass. The bench's profile of the token endpoint had the BigInt version (an allocation per
 * digit) among its costs. The limbs are overwritten.
 */
function base62(limbs: number[], length: number): string {
  let out = '';
  let start = 0;
  while (start < limbs.length) {
    let remainder = 0;
    for (let i = start; i < limbs.length; i++) {
      const value = remainder * 65536 + limbs[i]!;
      limbs[i] = Math.floor(value / 14_776_336);
      remainder = value % 14_776_336;
    }
    while (start < limbs.length && limbs[start] === 0) start++;
    for (let d = 0; d < 4 && (start < limbs.length || remainder > 0); d++) {
      out = ALPHABET[remainder % 62]! + out;
      remainder = Math.floor(remainder / 62);
    }
  }
  return out.padStart(length, '0');
}

// Random bytes are drawn from the CSPRNG 4 KiB at a time rather than with one call per token,
// as node:crypto's randomUUID does; each byte is handed out once and then overwritten.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** `count` fresh random bytes (an even count) as 16-bit limbs, appended to `limbs`. */
function randomLimbs(count: number, limbs: number[] = []): number[] {
  if (poolOffset + count > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  for (let i = poolOffset; i < poolOffset + count; i += 2) limbs.push(pool.readUInt16BE(i));
  pool.fill(0, poolOffset, poolOffset + count);
  poolOffset += count;
  return limbs;
}

/** A number below 2^53 as four 16-bit limbs. */
function numberLimbs(value: number): number[] {
  const high = Math.floor(value / 2 ** 32);
  const low = value >>> 0;
  return [Math.floor(high / 65536), high % 65536, low >>> 16, low & 0xffff];
}

function checksum(text: string): string {
  return base62(numberLimbs(crc32(text)), CHECKSUM_LENGTH);
}

export function generateToken(kind: TokenKind): string {
  const body = base62(randomLimbs(32), BODY_LENGTH);
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
  return base62(randomLimbs(10, numberLimbs(Math.max(0, Math.floor(now)))), 22);
}

/** Random identifier for rows and client ids (not a credential). */
export function randomId(bytes = 16): string {
  // An odd count takes one more byte, whose high bits are dropped: the same bits and length as before.
  const limbs = randomLimbs(bytes + (bytes % 2));
  if (bytes % 2 === 1) limbs[0] = limbs[0]! & 0xff;
  return base62(limbs, Math.ceil((bytes * 8) / 5.954));
}
