// GET and POST /auth/oauth2/logout: OpenID Connect RP-initiated logout (docs/integrating.md#sign-in-with-gatehouse).
// What the browser gets is decided by the core (src/oauth/end-session.ts); this module ends the
// session and renders the answer: a 303 to the client's registered post-logout URI, the
// logged-out page, or the question whether to log out (a CSRF-checked form).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { END_SESSION_PATH } from '../http/oauth/paths.ts';
import { allowFormRedirectTo } from '../http/security-headers.ts';
import { decideEndSession, endSessionParameters, type EndSessionDecision } from '../oauth/end-session.ts';
import { html } from './html.ts';
import { csrfField, sendPage } from './pages.ts';
import { closeSession } from './session.ts';

/** Where the confirmation form posts. */
const CONFIRM_PATH = `${END_SESSION_PATH}/confirm`;

export async function endSessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  async function render(request: FastifyRequest, reply: FastifyReply, decision: EndSessionDecision) {
    reply.header('referrer-policy', 'no-referrer');
    if (decision.kind === 'end') {
      await closeSession(ctx, request, reply);
      request.user = undefined;
      if (decision.location !== undefined) return reply.redirect(decision.location, 303);
      return sendPage(reply, request, 200, 'Logged out', html`<div class="card" id="logged-out"><h1>You are logged out</h1>
<p>${decision.clientName === undefined ? 'You are logged out of Gatehouse.' : html`You are logged out of Gatehouse. <strong>${decision.clientName}</strong> named no return address it registered, so you stay here.`}</p>
<p><a href="/login">Log in again</a></p></div>`);
    }
    if (decision.location !== undefined) allowFormRedirectTo(reply, decision.location);
    const hidden = Object.entries(decision.carried).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
    const who = request.user === undefined ? 'Gatehouse' : html`Gatehouse as <strong>${request.user.email}</strong>`;
    return sendPage(reply, request, 200, 'Log out', html`<div class="card" id="confirm-logout"><h1>Log out?</h1>
<p>${decision.clientName === undefined ? html`An application asks you to log out of ${who}.` : html`<strong>${decision.clientName}</strong> asks you to log out of ${who}.`}</p>
<form method="post" action="${CONFIRM_PATH}">${csrfField(reply.generateCsrf())}${hidden}<div class="actions"><button type="submit">Log out</button> <a href="/">Stay logged in</a></div></form></div>`);
  }

  const read = (raw: unknown) => {
    const source = (raw ?? {}) as Record<string, unknown>;
    return Object.fromEntries(endSessionParameters.filter((name) => source[name] !== undefined).map((name) => [name, source[name]]));
  };

  app.get(END_SESSION_PATH, async (request, reply) => render(request, reply, await decideEndSession(ctx.oauth, read(request.query), request.user?.id, false)));

  // OpenID Connect RP-Initiated Logout §2: the application may send the request as a form
  // POST; it carries no CSRF token of ours, so it is never taken as the user's answer.
  app.post(END_SESSION_PATH, async (request, reply) => render(request, reply, await decideEndSession(ctx.oauth, read(request.body), request.user?.id, false)));

  // The user's answer to the question: CSRF-checked, as every form of the pages.
  app.post(CONFIRM_PATH, { preHandler: app.csrfProtection }, async (request, reply) => render(request, reply, await decideEndSession(ctx.oauth, read(request.body), request.user?.id, true)));
}
