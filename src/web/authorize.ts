// GET/POST /auth/oauth2/authorize: the browser side of RFC 6749 §4.1 (docs/rules.md#authorization-request,
// docs/rules.md#authorize-errors, docs/rules.md#consent, docs/rules.md#silent-authorization). What the browser gets is decided by the core
// (src/oauth/authorize/decision.ts); this module renders it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { documentFirstUse } from '../http/registration-limit.ts';
import { AUTHORIZE_PATH } from '../http/oauth/paths.ts';
import { allowFormRedirectTo } from '../http/security-headers.ts';
import {
  carriedParameters,
  decideAuthorization,
  decideConsent,
  whereAuthorizationReturns,
  type AuthorizationDecision,
  type AuthorizationRequest,
  type AuthorizationReturn,
  type ConsentDecision,
  type Requester,
  type ShowConsent,
} from '../oauth/authorize/index.ts';
import type { User } from '../services/accounts/users.ts';
import { listMembershipsOfUser } from '../services/teams/teams.ts';
import { sendHeldBack, sendRefusal } from './authorize-refusals.ts';
import { consentPage } from './consent-page.ts';
import { html } from './html.ts';
import { sendPage } from './pages.ts';
import { REAUTH_PARAM, type ReauthenticationMarks } from './reauthentication.ts';


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
  return whereAuthorizationReturns(ctx.oauth, raw);
}

export async function authorizeRoutes(app: FastifyInstance, ctx: AppContext, marks: ReauthenticationMarks): Promise<void> {
  /** The browser as the core needs it: who is logged in, since when, and from where. */
  function requester(request: FastifyRequest, raw: Record<string, unknown>): Requester {
    return {
      userId: request.user?.id,
      loggedInSinceAsked: marks.satisfiedBy(raw[REAUTH_PARAM], request.authenticatedAt, ctx.oauth.clock()),
      authenticatedAt: request.authenticatedAt,
      firstUse: documentFirstUse(ctx, request.ip),
    };
  }

  /** Whether the request asks for a login made after it: prompt=login, or max_age (which 0 makes the same). */
  const asksNewLogin = (authz: AuthorizationRequest) => authz.prompt.has('login') || authz.maxAge !== null;

  /** To the login page and back here; prompt=login and max_age take a new mark (reauthentication.ts). */
  function toLogin(reply: FastifyReply, authz: AuthorizationRequest, again: boolean) {
    const query = new URLSearchParams(carriedParameters(authz));
    if (asksNewLogin(authz)) query.set(REAUTH_PARAM, marks.issue(ctx.oauth.clock()));
    const back = `${AUTHORIZE_PATH}?${query.toString()}`;
    return reply.redirect(`/login?next=${encodeURIComponent(back)}${again ? '&reauth=1' : ''}`, 303);
  }

  /** The consent page as the core decided it (decision.ts: askConsent); only what the scopes reach is read here. */
  async function consent(decision: ShowConsent, user: User, csrf: string, reauthMark: string | undefined) {
    const { request: authz, developer, reviewed } = decision;
    const { client } = authz;
    const hidden = carriedParameters(authz).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
    // prompt=login: the decision is checked against the same re-login as the page was.
    if (reauthMark !== undefined) hidden.push(html`<input type="hidden" name="${REAUTH_PARAM}" value="${reauthMark}">`);
    // "Not you?" logs out and comes back to this request, without the old login's mark.
    const again = `${AUTHORIZE_PATH}?${new URLSearchParams(authz.params).toString()}`;
    const shown = { clientId: client.id, name: client.name, description: client.description, homepageUrl: client.homepageUrl };
    // The team and organization scopes are named with the teams and organizations they reach
    // today: an explanation of the platform's membership rule (docs/rules.md#membership-rules),
    // which the core does not know and its decision does not depend on.
    const reachesTeams = authz.scopes?.some((s) => s.startsWith('TEAM_') || s.startsWith('ORG_')) === true;
    const memberships = reachesTeams ? await listMembershipsOfUser(ctx.services, user.id) : [];
    return consentPage({ request: authz, client: shown, developer, account: user, csrf, action: AUTHORIZE_PATH, hidden, again, unverifiedHost: client.unverifiedHost, reviewed, memberships });
  }

  async function render(request: FastifyRequest, reply: FastifyReply, raw: Record<string, unknown>, decision: AuthorizationDecision | ConsentDecision) {
    switch (decision.kind) {
      case 'redirect':
        return reply.redirect(decision.location, 303);
      case 'held_back':
        return sendHeldBack(request, reply, decision);
      case 'error_page':
        return sendRefusal(request, reply, decision);
      case 'login':
        return toLogin(reply, decision.request, decision.again);
      case 'consent': {
        const authz = decision.request;
        allowFormRedirectTo(reply, authz.redirectUri);
        const mark = raw[REAUTH_PARAM];
        const carried = asksNewLogin(authz) && typeof mark === 'string' ? mark : undefined;
        // The core asks for consent only with a session (decideAuthorization: withoutSession).
        return sendPage(reply, request, 200, `Authorize ${authz.client.name}`, await consent(decision, request.user!, reply.generateCsrf(), carried));
      }
    }
  }

  /** RFC 9700 §4.2: the code must not leak through Referer; SECURITY.md: no page is kept. */
  function noLeaks(reply: FastifyReply) {
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'no-store');
  }

  app.get(AUTHORIZE_PATH, async (request, reply) => {
    noLeaks(reply);
    const query = request.query as Record<string, unknown>;
    return render(request, reply, query, await decideAuthorization(ctx.oauth, query, requester(request, query)));
  });

  app.post(AUTHORIZE_PATH, { preHandler: app.csrfProtection }, async (request, reply) => {
    noLeaks(reply);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const { decision, _csrf, ...params } = body;
    void _csrf;
    return render(request, reply, params, await decideConsent(ctx.oauth, params, decision, requester(request, params)));
  });
}
