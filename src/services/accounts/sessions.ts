// Browser sessions, kept in the database so any instance serves any request (docs/rules.md#scale-out).
// The cookie holds a random token; the store holds only its hash.
import { randomBytes } from 'node:crypto';
import { hashToken } from '../../oauth/token-format.ts';
import type { ServiceContext } from '../context.ts';
import type { User } from './store.ts';

export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

export async function createSession(ctx: ServiceContext, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock();
  await ctx.stores.sessions.insert({ idHash: hashToken(token), userId, createdAt: now, expiresAt: now + SESSION_TTL_MS });
  return token;
}

export interface SessionInfo {
  user: User;
  /** When the user logged in: a session is created only by a login (docs/rules.md#silent-authorization). */
  authenticatedAt: number;
}

export async function sessionUser(ctx: ServiceContext, token: string): Promise<SessionInfo | undefined> {
  if (token.length > 100) return undefined;
  const found = await ctx.stores.sessions.findLive(hashToken(token), ctx.clock());
  return found === undefined ? undefined : { user: found.user, authenticatedAt: found.createdAt };
}

export async function endSession(ctx: ServiceContext, token: string): Promise<void> {
  await ctx.stores.sessions.delete(hashToken(token));
}
