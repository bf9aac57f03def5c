// Who is logged in: the session cookie resolved against the sessions table.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context.ts';
import { createSession, endSession, SESSION_TTL_MS, sessionUser } from '../services/sessions.ts';
import type { UserRow } from '../services/users.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user?: UserRow;
  }
}

export const SESSION_COOKIE = 'gh_session';

export function attachSessionUser(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('preHandler', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.user = await sessionUser(ctx.services, token);
  });
}

export async function startSession(ctx: AppContext, reply: FastifyReply, userId: string): Promise<void> {
  const token = await createSession(ctx.services, userId);
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.secureCookies,
    maxAge: SESSION_TTL_MS / 1000,
  });
}

export async function closeSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await endSession(ctx.services, token);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
