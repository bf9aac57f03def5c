// One-time notices (docs/rules.md#forms-and-pages): after a form's redirect, the page it leads to shows
// what the POST produced — a client secret shown once above all — and a reload shows
// nothing more. The notice is kept server-side, bound to the browser's session, and taken
// (deleted) by the first read. It is sealed (AES-256-GCM) under a key derived from the
// session's cookie token, which the database never holds (only its hash): a secret waiting
// in a notice is no more readable at rest than the hashed secret itself (docs/rules.md#credentials-at-rest).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { hashToken } from '../../oauth/token-format.ts';
import type { ServiceContext } from '../context.ts';

/** Long enough to follow a redirect on a slow connection; short enough not to linger. */
export const NOTICE_TTL_MS = 10 * 60 * 1000;

/** A notice id: random, so that one session cannot name another's notice by guessing. */
const ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

function keyOf(sessionToken: string): Buffer {
  return createHmac('sha256', sessionToken).update('gatehouse: one-time notice').digest();
}

function seal(sessionToken: string, id: string, content: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(sessionToken), iv);
  cipher.setAAD(Buffer.from(id)); // a sealed text moved to another row does not open
  const body = Buffer.concat([cipher.update(JSON.stringify(content), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

function open(sessionToken: string, id: string, sealed: string): unknown {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (iv === undefined || tag === undefined || body === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(sessionToken), iv);
    decipher.setAAD(Buffer.from(id));
    decipher.setAuthTag(tag);
    return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Keeps `content` for the session's next page; returns the notice's id for the redirect. */
export async function leaveNotice(ctx: ServiceContext, sessionToken: string, content: unknown): Promise<string> {
  const id = randomBytes(16).toString('base64url');
  const now = ctx.clock();
  await ctx.stores.notices.insert({ id, sessionHash: hashToken(sessionToken), sealed: seal(sessionToken, id, content), createdAt: now, expiresAt: now + NOTICE_TTL_MS });
  return id;
}

/** The notice's content, once; undefined when it was read already, expired, or is another session's. */
export async function takeNotice(ctx: ServiceContext, sessionToken: string, id: string): Promise<unknown> {
  if (!ID_PATTERN.test(id)) return undefined;
  const sealed = await ctx.stores.notices.take(id, hashToken(sessionToken), ctx.clock());
  return sealed === undefined ? undefined : open(sessionToken, id, sealed);
}
