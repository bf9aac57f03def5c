// prompt=login (docs/rules.md#silent-authorization; OpenID Connect Core §3.1.2.1): the user logs in again
// after the request, even with a live session. The authorization URL that goes through the
// login page carries a mark: the time the new login was asked for, signed so that nobody
// can move it back. A session counts when its login came at or after that time, so the
// login that answered the mark satisfies it and no loop can follow; a mark lasts ten
// minutes, so a URL kept for later asks again.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The authorization request parameter that carries the mark (ignored by the protocol core). */
export const REAUTH_PARAM = 'reauth';

const MARK_TTL_MS = 10 * 60 * 1000;
const MARK_PATTERN = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

export class ReauthenticationMarks {
  private readonly key: Buffer;

  /** The key is derived for this purpose alone: a mark is never a valid signed cookie. */
  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('gatehouse: prompt=login marks').digest();
  }

  private sign(time: string): Buffer {
    return createHmac('sha256', this.key).update(time).digest();
  }

  issue(now: number): string {
    const time = String(now);
    return `${time}.${this.sign(time).toString('base64url')}`;
  }

  /** Whether the session's login came after the mark was issued, within the mark's lifetime. */
  satisfiedBy(mark: unknown, authenticatedAt: number | undefined, now: number): boolean {
    if (typeof mark !== 'string' || authenticatedAt === undefined) return false;
    const match = MARK_PATTERN.exec(mark);
    if (match === null) return false;
    const [, time, signature] = match as unknown as [string, string, string];
    if (!timingSafeEqual(Buffer.from(signature, 'base64url'), this.sign(time))) return false;
    const askedAt = Number(time);
    return now - askedAt <= MARK_TTL_MS && authenticatedAt >= askedAt;
  }
}
