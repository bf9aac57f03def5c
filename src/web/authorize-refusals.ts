// The pages that refuse an authorization request (RFC 6749 §4.1.2.1 first paragraph,
// SECURITY.md): what the core decided is shown, in words for the person who followed the link.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorPage, FatalReason, HeldBackError, UnknownChoice } from '../oauth/authorize/index.ts';
import { hostOf } from './format.ts';
import { html } from './html.ts';
import { sendErrorPage, sendPage } from './pages.ts';

/** The fatal refusals in words for the person who followed the link, and what to do. */
function fatalExplanation(reason: FatalReason): { title: string; message: string } {
  if (reason === 'client_not_approved') {
    return {
      title: 'This application cannot be used right now',
      message: 'The application you came from is not approved for sign-in at the moment. Go back to the application and try again later, or contact its developer.',
    };
  }
  return {
    title: 'This sign-in link is not valid',
    message: 'The link you followed is not valid; go back to the application and try again. If it happens again, tell the application’s developer.',
  };
}

/** A refusal shown as a page, never a redirect. */
export function sendRefusal(request: FastifyRequest, reply: FastifyReply, refusal: ErrorPage | UnknownChoice) {
  if (refusal.reason === 'unknown_choice') return sendErrorPage(reply, request, 400, 'Unknown choice', 'Choose Allow or Deny.');
  const { title, message } = fatalExplanation(refusal.reason);
  const details = `${refusal.error.code}: ${refusal.error.description}`;
  if (refusal.client === undefined) return sendErrorPage(reply, request, 400, title, message, { details });
  // A known client_id: the person sees which application the link names, in its developer's
  // words, marked as such: a bad redirect URI is also what a link made by someone else
  // with that application's client_id looks like.
  return sendPage(
    reply,
    request,
    400,
    title,
    html`<div class="card"><h1>${title}</h1><p class="error" role="alert" id="error-message">${message}</p>
<p id="error-application">The link names the application registered here as <strong>“${refusal.client.name}”</strong>. That is the name its developer chose, not checked by Gatehouse, and whoever made this link may not be that application.</p>
<p class="small muted" id="error-details">Technical details: <code>${details}</code></p>
<p><a href="/">Back to the start page</a></p></div>`,
  );
}

/** What went wrong, in the words of the person who followed the link. */
function heldBackProblem(code: string): string {
  if (code === 'login_required') return 'it asked to sign you in without showing any page, and you are not logged in';
  if (code === 'consent_required') return 'it asked for access without showing any page, and you have not allowed it';
  if (code === 'invalid_scope') return 'it asked for permissions it may not have';
  return 'its sign-in link is not valid';
}

/**
 * docs/rules.md#agent-clients: an error of a self-registered application the user has not allowed is shown
 * here, naming the application and what went wrong, and the browser is not sent on to the
 * address the application registered for itself.
 */
export function sendHeldBack(request: FastifyRequest, reply: FastifyReply, held: HeldBackError) {
  const { client, error, redirectUri } = held;
  const message =
    `“${client.name}” sent a request that cannot be completed: ${heldBackProblem(error.code)}. ` +
    `You have not allowed this application, so you are not sent on to the address it gave (${hostOf(redirectUri)}). ` +
    'Go back to the application and try again, or contact its developer.';
  return sendErrorPage(reply, request, 400, `${client.name} could not continue`, message, { details: `${error.code}: ${error.description}` });
}
