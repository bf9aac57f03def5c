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

export async function sessionUser(ctx: ServiceContext, token: string): Promise<UserRow | undefined> {
  if (token.length > 100) return undefined;
  return ctx.db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .where('s.id_hash', '=', hashToken(token))
    .where('s.expires_at', '>', ctx.clock())
    .executeTakeFirst();
}

export async function endSession(ctx: ServiceContext, token: string): Promise<void> {
  await ctx.db.deleteFrom('sessions').where('id_hash', '=', hashToken(token)).execute();
}
