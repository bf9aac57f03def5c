// /settings/email (docs/rules.md#profile): a change of the sign-in address that an application
// asked for through PATCH /v2/me waits here for its user, signed in, to confirm or dismiss it.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { confirmEmailChange, dismissEmailChange, pendingEmailChange, type PendingEmailChange } from '../services/accounts/email-change.ts';
import { ServiceError } from '../services/errors.ts';
import { signedIn } from './access.ts';
import { time } from './format.ts';
import { html } from './html.ts';
import { noticeOf, redirectWithNotice } from './notices.ts';
import { csrfField, sendPage } from './pages.ts';

export const EMAIL_CHANGE = '/settings/email';

function changeCard(pending: PendingEmailChange, csrf: string) {
  // The form names the address shown, so that Confirm applies this one and no newer request.
  const confirm = pending.verified
    ? html`<form method="post" action="${EMAIL_CHANGE}/confirm" class="inline">${csrfField(csrf)}<input type="hidden" name="email" value="${pending.email}"><button type="submit">Confirm the new address</button></form>`
    : '';
  return html`<section class="card" id="email-change">
<h2>A change of your sign-in address is waiting</h2>
<p><strong id="asked-by">${pending.clientName ?? 'An application since deleted'}</strong> asked on ${time(pending.requestedAt)} to change the address you sign in with to <strong id="new-email">${pending.email}</strong>.</p>
${pending.verified
  ? html`<p class="notice">Confirm only if you asked for it: you will sign in with this address from now on. Nothing changes unless you confirm, and the request lapses on ${time(pending.expiresAt)}.</p>`
  : html`<p class="notice" id="unverified">${pending.email} is not yet a verified address of yours, so it cannot be confirmed: the application that asked must first have a code sent to it, and you give that code back through the application. Then come back here. The request lapses on ${time(pending.expiresAt)}.</p>`}
<div class="actions">
${confirm}
<form method="post" action="${EMAIL_CHANGE}/dismiss" class="inline">${csrfField(csrf)}<button type="submit" class="secondary">Dismiss</button></form>
</div>
</section>`;
}

export async function emailChangeRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(EMAIL_CHANGE, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const notice = await noticeOf(ctx, request);
    const pending = await pendingEmailChange(ctx.services, user.id);
    return sendPage(
      reply,
      request,
      200,
      'Sign-in address',
      html`<div class="card"><h1>Sign-in address</h1>
${notice.flash ? html`<p class="flash" role="status" id="flash">${notice.flash}</p>` : ''}
<p>You sign in as <strong id="current-email">${user.email}</strong>.</p>
${pending === undefined ? html`<p class="muted" id="no-change">No change of your sign-in address is waiting.</p>` : ''}
</div>
${pending === undefined ? '' : changeCard(pending, reply.generateCsrf())}`,
    );
  });

  app.post(`${EMAIL_CHANGE}/confirm`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    try {
      const shown = (request.body as { email?: unknown } | undefined)?.email;
      const email = await confirmEmailChange(ctx.services, user.id, typeof shown === 'string' ? shown : '');
      return redirectWithNotice(ctx, request, reply, EMAIL_CHANGE, { flash: `Your sign-in address is now ${email}.` });
    } catch (error) {
      if (error instanceof ServiceError) return redirectWithNotice(ctx, request, reply, EMAIL_CHANGE, { flash: error.message });
      throw error;
    }
  });

  app.post(`${EMAIL_CHANGE}/dismiss`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    try {
      await dismissEmailChange(ctx.services, user.id);
      return redirectWithNotice(ctx, request, reply, EMAIL_CHANGE, { flash: 'The change was dismissed: your sign-in address stays as it is.' });
    } catch (error) {
      if (error instanceof ServiceError) return redirectWithNotice(ctx, request, reply, EMAIL_CHANGE, { flash: error.message });
      throw error;
    }
  });
}
