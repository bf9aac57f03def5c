// Who is logged in: the session cookie resolved against the sessions table.
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { createSession, endSession, SESSION_TTL_MS, sessionUser } from '../services/accounts/sessions.ts';
import type { User } from '../services/accounts/users.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user?: User;
    /** When the logged-in user entered their password for this session (docs/rules.md#silent-authorization). */
    authenticatedAt?: number;
  }
}

export const SESSION_COOKIE = 'gh_session';

export function attachSessionUser(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('preHandler', async (request) => attachSession(ctx, request, request.cookies[SESSION_COOKIE]));
}

/**
 * The same for a page answered outside the pages' scope, where the cookie plugin does not
 * run: the page for an address no route matches shows the account of whoever is logged in
 * (its menu, Log out), not "Log in".
 */
export async function attachSessionUserOutsidePages(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const header = request.headers.cookie;
  if (request.user !== undefined || header === undefined) return;
  await attachSession(ctx, request, fastifyCookie.parse(header)[SESSION_COOKIE]);
}

async function attachSession(ctx: AppContext, request: FastifyRequest, token: string | undefined): Promise<void> {
  const session = token ? await sessionUser(ctx.services, token) : undefined;
  if (session !== undefined) {
    request.user = session.user;
    request.authenticatedAt = session.authenticatedAt;
  }
}

/** A login replaces the browser's previous session, which ends (a re-login, docs/rules.md#silent-authorization). */
export async function startSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await endSession(ctx.services, previous);
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
