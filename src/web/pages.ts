// Small shared page pieces: the error page and form helpers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type Html } from './html.ts';
import { page } from './layout.ts';

export function sendPage(reply: FastifyReply, request: FastifyRequest, status: number, title: string, body: Html): FastifyReply {
  // docs/rules.md#security-headers: no page is kept by a cache; most show account data, and an error page may too.
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page({ title, user: request.user, body }));
}

/**
 * An error page: what happened and what to do, in words (`message`); the technical reason,
 * for whoever reports it to a developer, in small print (`details`).
 */
export function sendErrorPage(reply: FastifyReply, request: FastifyRequest, status: number, title: string, message: string, options: { details?: string } = {}): FastifyReply {
  return sendPage(
    reply,
    request,
    status,
    title,
    html`<div class="card"><h1>${title}</h1><p class="error" role="alert" id="error-message">${message}</p>
${options.details ? html`<p class="small muted" id="error-details">Technical details: <code>${options.details}</code></p>` : ''}
<p><a href="/">Back to the start page</a></p></div>`,
  );
}

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

const SAFE_NEXT_BASE = 'http://gatehouse.invalid';

/** Only same-site relative paths are followed after login (no open redirects). */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//')) return '/';
  // Browsers drop tabs and newlines inside a URL and read "\" as "/", so "/\t/evil.example"
  // and "/\\evil.example" lead off-site; control characters also cannot go in a header.
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return '/';
  // Resolved as a browser resolves it, the target must stay on this site.
  return new URL(next, SAFE_NEXT_BASE).origin === SAFE_NEXT_BASE ? next : '/';
}
