// POST/redirect/GET with something to show once (docs/rules.md#forms-and-pages): a form's handler leaves
// a notice for the session and redirects to `path?notice=<id>`; that page takes the notice
// on its first load. A reload, a bookmark or another browser finds nothing.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { leaveNotice, takeNotice } from '../services/accounts/notices.ts';
import { SESSION_COOKIE } from './session.ts';

export interface PageNotice {
  /** The page's heading, where the page has none of its own (the end of a connect page, docs/rules.md#connect-pages). */
  heading?: string;
  /** A confirmation shown at the top of the page. */
  flash?: string;
  /** A refusal shown in the page's secrets section. */
  secretError?: string;
  /** A refusal shown in the page's events URL section (a rotation sent twice). */
  eventsUrlError?: string;
  /** A client secret just created: shown this once. */
  newSecret?: { secret: string; lastFour: string };
  /** An events signing secret just created (docs/integrating.md#webhooks): shown this once. */
  newEventsSecret?: string;
}

const NOTICE_PARAM = 'notice';

/** A 303 to `path` (with an optional #fragment) that carries the notice. */
export async function redirectWithNotice(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, path: string, notice: PageNotice, fragment = ''): Promise<FastifyReply> {
  const token = request.cookies[SESSION_COOKIE];
  // Only a signed-in page posts here, so a session exists; without one, nothing is kept.
  if (token === undefined) return reply.redirect(`${path}${fragment}`, 303);
  const id = await leaveNotice(ctx.services, token, notice);
  const joiner = path.includes('?') ? '&' : '?';
  return reply.redirect(`${path}${joiner}${NOTICE_PARAM}=${id}${fragment}`, 303);
}

/** The notice the address names, taken now; an empty notice when there is none. */
export async function noticeOf(ctx: AppContext, request: FastifyRequest): Promise<PageNotice> {
  const id = (request.query as Record<string, unknown> | undefined)?.[NOTICE_PARAM];
  const token = request.cookies[SESSION_COOKIE];
  if (typeof id !== 'string' || token === undefined) return {};
  const content = await takeNotice(ctx.services, token, id);
  return isPageNotice(content) ? content : {};
}

function isPageNotice(value: unknown): value is PageNotice {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  const secret = v.newSecret as Record<string, unknown> | undefined;
  return (
    (v.heading === undefined || typeof v.heading === 'string') &&
    (v.flash === undefined || typeof v.flash === 'string') &&
    (v.secretError === undefined || typeof v.secretError === 'string') &&
    (v.eventsUrlError === undefined || typeof v.eventsUrlError === 'string') &&
    (v.newEventsSecret === undefined || typeof v.newEventsSecret === 'string') &&
    (secret === undefined || (typeof secret.secret === 'string' && typeof secret.lastFour === 'string'))
  );
}
