// Small shared page pieces: the error page and form helpers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type Html } from './html.ts';
import { page } from './layout.ts';

export function sendPage(reply: FastifyReply, request: FastifyRequest, status: number, title: string, body: Html): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').send(page({ title, user: request.user, body }));
}

export function sendErrorPage(reply: FastifyReply, request: FastifyRequest, status: number, title: string, message: string): FastifyReply {
  return sendPage(
    reply,
    request,
    status,
    title,
    html`<div class="card"><h1>${title}</h1><p class="error" role="alert">${message}</p><p><a href="/">Back to the start page</a></p></div>`,
  );
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

/** Only same-site relative paths are followed after login (no open redirects). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}
