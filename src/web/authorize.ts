// GET/POST /auth/oauth2/authorize: the browser side of RFC 6749 §4.1 (seed §4.1,
// SPEC §2 items 12, 13 and 25). Protocol decisions live in src/oauth/authorize.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { documentFirstUse } from '../http/registration-limit.ts';
import { allowFormRedirectTo } from '../http/security-headers.ts';
import {
  approveAuthorization,
  approveSilently,
  carriedParameters,
  denyAuthorization,
  recordAuthorizationRequest,
  rememberedGrant,
  silentFailure,
  validateAuthorizationRequest,
  type AuthorizationRequest,
  type ErrorAnswer,
  type FatalReason,
  type HeldBackError,
} from '../oauth/authorize.ts';
import { isDocumentClientId } from '../oauth/client-metadata.ts';
import { findUserById, type User } from '../services/accounts/users.ts';
import { requireStoredClient } from '../services/clients/view.ts';
import { consentPage } from './consent-page.ts';
import { hostOf } from './format.ts';
import { html } from './html.ts';
import { sendErrorPage, sendPage } from './pages.ts';
import { REAUTH_PARAM, type ReauthenticationMarks } from './reauthentication.ts';

export const AUTHORIZE_PATH = '/auth/oauth2/authorize';

/** What a login page's `next` says about the authorization request it returns to. */
export interface AuthorizationReturn {
  /**
   * The registered redirect URI the request would send the browser back to; undefined when
   * its client or redirect URI is not trustworthy (the endpoint would show an error page).
   */
  redirectUri: string | undefined;
  /** The application asking, when the request is valid: the login page names it. */
  client: { clientId: string; name: string } | undefined;
}

/** The authorization request at `path` (a login page's `next`); undefined when it is not one. */
export async function authorizationReturn(ctx: AppContext, path: string): Promise<AuthorizationReturn | undefined> {
  const url = new URL(path, 'http://gatehouse.invalid');
  if (url.pathname !== AUTHORIZE_PATH) return undefined;
  // The query as the endpoint reads it: a repeated parameter as a list.
  const raw: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of url.searchParams) {
    const seen = raw[name];
    raw[name] = seen === undefined ? value : [seen, value].flat();
  }
  const result = await validateAuthorizationRequest(ctx.oauth, raw);
  if (result.kind === 'fatal') return { redirectUri: undefined, client: undefined };
  // Held back for nobody yet: the user about to log in may have allowed the application.
  if (result.kind === 'held_back') return { redirectUri: result.redirectUri, client: undefined };
  if (result.kind === 'redirect') return { redirectUri: raw.redirect_uri as string, client: undefined };
  return { redirectUri: result.request.redirectUri, client: { clientId: result.request.client.id, name: result.request.client.name } };
}

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

/** What went wrong, in the words of the person who followed the link. */
function heldBackProblem(code: string): string {
  if (code === 'login_required') return 'it asked to sign you in without showing any page, and you are not logged in';
  if (code === 'consent_required') return 'it asked for access without showing any page, and you have not allowed it';
  if (code === 'invalid_scope') return 'it asked for permissions it may not have';
  return 'its sign-in link is not valid';
}

/**
 * README, Security: an error of a self-registered application the user has not allowed is shown
 * here, naming the application and what went wrong, and the browser is not sent on to the
 * address the application registered for itself.
 */
function sendHeldBack(request: FastifyRequest, reply: FastifyReply, held: HeldBackError) {
  const { client, error, redirectUri } = held;
  const message =
    `“${client.name}” sent a request that cannot be completed: ${heldBackProblem(error.code)}. ` +
    `You have not allowed this application, so you are not sent on to the address it gave (${hostOf(redirectUri)}). ` +
    'Go back to the application and try again, or contact its developer.';
  return sendErrorPage(reply, request, 400, `${client.name} could not continue`, message, { details: `${error.code}: ${error.description}` });
}

/** An error for the application: redirected back to it, or held back on a page. */
function answerError(request: FastifyRequest, reply: FastifyReply, answer: ErrorAnswer) {
  return answer.kind === 'redirect' ? reply.redirect(answer.location, 303) : sendHeldBack(request, reply, answer);
}

export async function authorizeRoutes(app: FastifyInstance, ctx: AppContext, marks: ReauthenticationMarks): Promise<void> {
  /** To the login page and back here; prompt=login takes a new mark (reauthentication.ts). */
  function toLogin(reply: FastifyReply, authz: AuthorizationRequest, again: boolean) {
    const query = new URLSearchParams(carriedParameters(authz));
    if (authz.prompt.has('login')) query.set(REAUTH_PARAM, marks.issue(ctx.oauth.clock()));
    const back = `${AUTHORIZE_PATH}?${query.toString()}`;
    return reply.redirect(`/login?next=${encodeURIComponent(back)}${again ? '&reauth=1' : ''}`, 303);
  }

  async function consent(authz: AuthorizationRequest, user: User, csrf: string, reauthMark: string | undefined) {
    // The client as validation read it: reading it again could only disagree with what was checked.
    const { client } = authz;
    const developer = await findUserById(ctx.services, client.ownerId);
    const hidden = carriedParameters(authz).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
    // prompt=login: the decision is checked against the same re-login as the page was.
    if (reauthMark !== undefined) hidden.push(html`<input type="hidden" name="${REAUTH_PARAM}" value="${reauthMark}">`);
    // "Not you?" logs out and comes back to this request, without the old login's mark.
    const again = `${AUTHORIZE_PATH}?${new URLSearchParams(authz.params).toString()}`;
    const shown = { clientId: client.id, name: client.name, description: client.description, homepageUrl: client.homepageUrl };
    // README, Connect an AI agent (MCP): an application that registered itself and was let in by an open policy
    // was reviewed by nobody, and the page must not say otherwise. A document client is
    // unverified unless an admin approved it or trusts its host; a registered one unless an
    // admin decided on it.
    const selfRegistered = (await ctx.oauth.isSelfRegistered?.(client)) === true;
    const reviewed =
      !selfRegistered ||
      (isDocumentClientId(client.id) ? client.unverifiedHost === undefined : (await requireStoredClient(ctx.services, client.id)).reviewedAt !== null);
    return consentPage({ request: authz, client: shown, developer: developer?.name, account: user, csrf, action: AUTHORIZE_PATH, hidden, again, unverifiedHost: client.unverifiedHost, reviewed });
  }

  async function handle(request: FastifyRequest, reply: FastifyReply, raw: Record<string, unknown>, decision?: unknown) {
    reply.header('referrer-policy', 'no-referrer'); // SPEC §7: the code must not leak through Referer
    reply.header('cache-control', 'no-store');
    const user = request.user;
    const result = await validateAuthorizationRequest(ctx.oauth, raw, user?.id, documentFirstUse(ctx, request.ip));
    if (result.kind === 'fatal') {
      const { title, message } = fatalExplanation(result.reason);
      return sendErrorPage(reply, request, 400, title, message, { details: `${result.error.code}: ${result.error.description}` });
    }
    if (result.kind !== 'valid') return answerError(request, reply, result);
    const authz = result.request;
    const silent = authz.prompt.has('none');
    if (user === undefined) {
      // OpenID Connect Core §3.1.2.1: prompt=none never shows the login page; its error goes back to the
      // application, or is held back on a page (README, Security).
      if (silent) return answerError(request, reply, await silentFailure(ctx.oauth, authz, 'login_required'));
      return toLogin(reply, authz, false);
    }
    if (decision === 'deny') return reply.redirect(denyAuthorization(ctx.oauth, authz), 303);
    // SPEC §2 item 25: prompt=login wants a login that came after this request.
    const mark = raw[REAUTH_PARAM];
    if (authz.prompt.has('login') && !marks.satisfiedBy(mark, request.authenticatedAt, ctx.oauth.clock())) {
      return toLogin(reply, authz, true);
    }
    if (decision === 'allow') return reply.redirect(await approveAuthorization(ctx.oauth, authz, user.id), 303);
    if (decision !== undefined) {
      return sendErrorPage(reply, request, 400, 'Unknown choice', 'Choose Allow or Deny.');
    }
    await recordAuthorizationRequest(ctx.oauth, authz, user.id);
    const grant = await rememberedGrant(ctx.oauth, authz, user.id);
    const location = grant && (await approveSilently(ctx.oauth, authz, user.id, grant));
    if (location !== undefined) return reply.redirect(location, 303);
    if (silent) return answerError(request, reply, await silentFailure(ctx.oauth, authz, 'consent_required', user.id));
    allowFormRedirectTo(reply, authz.redirectUri);
    const carried = authz.prompt.has('login') && typeof mark === 'string' ? mark : undefined;
    return sendPage(reply, request, 200, `Authorize ${authz.client.name}`, await consent(authz, user, reply.generateCsrf(), carried));
  }

  app.get(AUTHORIZE_PATH, async (request, reply) => handle(request, reply, request.query as Record<string, unknown>));

  app.post(AUTHORIZE_PATH, { preHandler: app.csrfProtection }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const { decision, _csrf, ...params } = body;
    void _csrf;
    return handle(request, reply, params, decision ?? 'missing');
  });
}
