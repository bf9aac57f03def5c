// Browser sessions, kept in the database so any instance serves any request (SPEC §8).
// The cookie holds a random token; the table holds only its hash.
import { randomBytes } from 'node:crypto';
import { hashToken } from '../oauth/token-format.ts';
import type { ServiceContext } from './context.ts';
import type { UserRow } from './users.ts';

export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

export async function createSession(ctx: ServiceContext, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock();
  await ctx.db
    .insertInto('sessions')
    .values({ id_hash: hashToken(token), user_id: userId, created_at: now, expires_at: now + SESSION_TTL_MS })
    .execute();
  return token;
}

export interface SessionInfo {
  user: UserRow;
  /** When the user logged in: a session is created only by a login (SPEC §2 item 25). */
  authenticatedAt: number;
}

export async function sessionUser(ctx: ServiceContext, token: string): Promise<SessionInfo | undefined> {
  if (token.length > 100) return undefined;
  const row = await ctx.db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select('s.created_at as authenticated_at')
    .where('s.id_hash', '=', hashToken(token))
    .where('s.expires_at', '>', ctx.clock())
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { authenticated_at, ...user } = row;
  return { user, authenticatedAt: authenticated_at };
}

export async function endSession(ctx: ServiceContext, token: string): Promise<void> {
  await ctx.db.deleteFrom('sessions').where('id_hash', '=', hashToken(token)).execute();
}
