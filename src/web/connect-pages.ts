// /settings/connect/:token (docs/rules.md#connect-pages): where an application sends its user
// to connect a calendar or a conferencing app, as the platform sends them to the provider's
// OAuth. Gatehouse runs none, so the signed-in user confirms here what will be recorded (a
// calendar account's address, or that the app is connected), then goes back to the
// application. The requests are the platform wing's; this page reaches them through the
// ConnectionRequests that app.ts hands it, since src/web may not import src/platform.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { allowFormRedirectTo } from '../http/security-headers.ts';
import type { User } from '../services/accounts/users.ts';
import { signedIn } from './access.ts';
import { breakableUrl, hostOf, time } from './format.ts';
import { formBody, textField } from './forms.ts';
import { html, type Html } from './html.ts';
import { logoImage } from './logos.ts';
import { noticeOf, redirectWithNotice } from './notices.ts';
import { csrfField, sendErrorPage, sendPage } from './pages.ts';

export const CONNECT_PAGES = '/settings/connect';

/** A waiting request as the page shows it. */
export interface PendingConnection {
  userId: string;
  clientId: string;
  clientName: string;
  kind: 'calendar' | 'conferencing';
  /** What is connected: Google Calendar, Outlook Calendar, Zoom, Microsoft Teams. */
  title: string;
  /** Whose OAuth the platform would run, and Gatehouse does not: Google, Microsoft, Zoom. */
  runBy: string;
  /** Where the user goes once connected: a calendar's redir (null: none), a conferencing app's returnTo. */
  returnTo: string | null;
  /** Where a conferencing app's user goes when it is not connected; null for a calendar. */
  onErrorReturnTo: string | null;
  expiresAt: number;
}

/** What the page asks of the connection requests the platform wing keeps (src/platform/connection-requests/service.ts). */
export interface ConnectionRequests {
  /** The live request of that token; undefined when it is malformed, unknown, expired or used. */
  find(token: string): Promise<PendingConnection | undefined>;
  /** Uses the user's request and records its connection, in one transaction. */
  confirm(
    userId: string,
    token: string,
    account: string,
  ): Promise<
    | { outcome: 'gone' }
    | { outcome: 'not_yours' }
    | { outcome: 'connected'; request: PendingConnection; goTo: string | null }
    | { outcome: 'already_connected'; goTo: string }
    /** A calendar account refused: 400 not an address, 409 connected already. */
    | { outcome: 'refused'; request: PendingConnection; status: 400 | 409; message: string }
  >;
  /** Uses the user's request, recording nothing. */
  cancel(userId: string, token: string): Promise<{ outcome: 'gone' } | { outcome: 'not_yours' } | { outcome: 'cancelled'; goTo: string | null }>;
}

const pagePath = (token: string) => `${CONNECT_PAGES}/${encodeURIComponent(token)}`;

/** One page for every token that does not work, so that none can be told from another. */
function sendGone(reply: FastifyReply, request: FastifyRequest): FastifyReply {
  return sendErrorPage(
    reply,
    request,
    404,
    'This link does not work',
    'This connect link does not work: it expired, was used already, or was never made. Go back to the application and start connecting again: it will give you a new link.',
  );
}

/**
 * docs/rules.md#connect-pages: the request is another user's; nothing of that account is
 * named. The page says whose session this is and offers to switch: logging out leads to the
 * login page, which comes back to this link.
 */
function sendNotYours(reply: FastifyReply, request: FastifyRequest, user: User, token: string): FastifyReply {
  return sendPage(
    reply,
    request,
    403,
    'Made for another account',
    html`<div class="card"><h1>Made for another account</h1>
<p class="error" role="alert" id="error-message">This connect link was made for another account than the one you are signed in with, so it cannot connect anything to yours. Sign in with the account you use in the application, or go back to it and start again.</p>
<div class="account-row" id="signed-in-as">
<p>You are signed in as <strong>${user.name}</strong> <span class="muted">(${user.email})</span>.</p>
<form method="post" action="/logout" class="inline">${csrfField(reply.generateCsrf())}<input type="hidden" name="next" value="${pagePath(token)}"><button type="submit" class="link" id="switch-account">Log out and sign in with another account</button></form>
</div>
<p><a href="/">Back to the start page</a></p></div>`,
  );
}

/** For the login page: the application whose connect link is being opened (login.ts). */
export function connectPageApplication(requests: ConnectionRequests) {
  return async (token: string) => {
    const pending = await requests.find(token);
    return pending && { clientId: pending.clientId, name: pending.clientName };
  };
}

/** Where each button may send the browser: the form's 303s must pass the page's form-action (docs/rules.md#security-headers). */
function allowReturns(reply: FastifyReply, request: PendingConnection): void {
  const returns = [request.returnTo, request.onErrorReturnTo].filter((r): r is string => r !== null);
  if (returns.length > 0) allowFormRedirectTo(reply, ...returns);
}

/**
 * The question: who asks, what will be recorded, that nothing else happens, and Connect or
 * Cancel. A calendar needs its account's address, required and checked as POST
 * /v2/calendars/:provider/connect checks it; a conferencing app nothing.
 */
function connectPage(r: PendingConnection, token: string, csrf: string, account: string, error?: string): Html {
  const calendar = r.kind === 'calendar';
  const back = r.returnTo ?? r.onErrorReturnTo;
  return html`<div class="card">
<div class="title-row">${logoImage(r, 48)}<h1 id="connect-title">${calendar ? `Connect your ${r.title} account?` : `Connect ${r.title}?`}</h1></div>
<p id="connect-asker"><strong>${r.clientName}</strong> asks to connect ${calendar ? html`your <strong>${r.title}</strong> account` : html`<strong>${r.title}</strong>`} to your Gatehouse account${calendar ? '' : ', for your meetings'}.</p>
<p class="notice" id="connect-records">Gatehouse runs none of ${r.runBy}’s OAuth and does not sign in to ${r.title} for you: it records only what you confirm here, ${calendar
    ? html`the address of your ${r.title} account. ${r.clientName} then sees it among your connected calendars; nothing is read from or written to that calendar.`
    : html`that ${r.title} is connected to your account. ${r.clientName} then sees it among your conferencing apps; no meeting link is made from it. There is nothing to fill in.`}</p>
<form method="post" action="${pagePath(token)}">${csrfField(csrf)}
${calendar
  ? html`<label for="account">The e-mail address of your ${r.title} account</label>
${error ? html`<p class="field-error" id="account-error">${error}</p>` : ''}
<input id="account" name="account" type="email" maxlength="254" autocomplete="email" required value="${account}"${error ? html` aria-invalid="true" aria-describedby="account-error"` : ''}>`
  : ''}
<div class="actions"><button type="submit" name="decision" value="connect">Connect</button><button type="submit" name="decision" value="cancel" class="secondary" formnovalidate>Cancel</button></div>
</form>
<p class="muted small" id="connect-return">${back === null
    ? html`This link works until ${time(r.expiresAt)}, once.`
    : html`After you decide, you will be sent back to <strong>${hostOf(back)}</strong> <span class="muted">(<code>${breakableUrl(back)}</code>)</span>. This link works until ${time(r.expiresAt)}, once.`}</p>
</div>`;
}

export async function connectPagesRoutes(web: FastifyInstance, ctx: AppContext, requests: ConnectionRequests): Promise<void> {
  /** Where a connection made or cancelled without a return address ends: a notice says which, once. */
  web.get(CONNECT_PAGES, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const notice = await noticeOf(ctx, request);
    return sendPage(
      reply,
      request,
      200,
      notice.heading ?? 'Connections',
      html`<div class="card"><h1 id="connect-done-title">${notice.heading ?? 'Connections'}</h1>
${notice.flash ? html`<p class="flash" role="status" id="flash">${notice.flash}</p>` : html`<p class="muted" id="nothing">Applications send you to a page here to connect a calendar or a conferencing app to your account. Open the link the application gave you.</p>`}
</div>`,
    );
  });

  // Someone not signed in logs in first and comes back here (signedIn).
  web.get<{ Params: { token: string } }>(`${CONNECT_PAGES}/:token`, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const pending = await requests.find(request.params.token);
    if (pending === undefined) return sendGone(reply, request);
    if (pending.userId !== user.id) return sendNotYours(reply, request, user, request.params.token);
    allowReturns(reply, pending);
    reply.header('cache-control', 'no-store');
    return sendPage(reply, request, 200, `Connect ${pending.title}`, connectPage(pending, request.params.token, reply.generateCsrf(), ''));
  });

  web.post<{ Params: { token: string } }>(`${CONNECT_PAGES}/:token`, { preHandler: web.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const { token } = request.params;
    const body = formBody(request);
    const decision = textField(body, 'decision', 20);
    if (decision !== 'connect' && decision !== 'cancel') {
      // The one 404 or 403 page first, as for any other answer about this token.
      const pending = await requests.find(token);
      if (pending === undefined) return sendGone(reply, request);
      if (pending.userId !== user.id) return sendNotYours(reply, request, user, token);
      return sendErrorPage(reply, request, 400, 'Connect or cancel', 'Choose Connect or Cancel on the connect page.');
    }
    if (decision === 'cancel') {
      const cancelled = await requests.cancel(user.id, token);
      if (cancelled.outcome === 'gone') return sendGone(reply, request);
      if (cancelled.outcome === 'not_yours') return sendNotYours(reply, request, user, token);
      if (cancelled.goTo !== null) return reply.redirect(cancelled.goTo, 303);
      return redirectWithNotice(ctx, request, reply, CONNECT_PAGES, { heading: 'Not connected', flash: 'You cancelled: nothing was connected to your account.' });
    }
    const account = textField(body, 'account', 1000);
    const done = await requests.confirm(user.id, token, account);
    switch (done.outcome) {
      case 'gone':
        return sendGone(reply, request);
      case 'not_yours':
        return sendNotYours(reply, request, user, token);
      case 'already_connected':
        return reply.redirect(done.goTo, 303);
      case 'refused':
        // docs/rules.md#forms-and-pages: the form again, the message by its field; the request still waits.
        allowReturns(reply, done.request);
        return sendPage(reply, request, done.status, `Connect ${done.request.title}`, connectPage(done.request, token, reply.generateCsrf(), account, done.message));
      case 'connected': {
        if (done.goTo !== null) return reply.redirect(done.goTo, 303);
        const what = done.request.kind === 'calendar' ? `Your ${done.request.title} account ${account.toLowerCase()} is` : `${done.request.title} is`;
        return redirectWithNotice(ctx, request, reply, CONNECT_PAGES, { heading: 'Connected', flash: `${what} connected to your account. You can go back to ${done.request.clientName}.` });
      }
    }
  });
}
