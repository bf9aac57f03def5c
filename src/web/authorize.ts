// GET/POST /auth/oauth2/authorize: the browser side of RFC 6749 §4.1 (seed §4.1,
// SPEC §2 items 12, 13 and 25). Protocol decisions live in src/oauth/authorize.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context.ts';
import { allowFormRedirectTo } from '../http/security-headers.ts';
import {
  approveAuthorization,
  approveSilently,
  authorizationParameters,
  denyAuthorization,
  recordAuthorizationRequest,
  rememberedGrant,
  silentFailure,
  validateAuthorizationRequest,
  type AuthorizationRequest,
} from '../oauth/authorize.ts';
import { describeScope, familyTitles, type ScopeFamily } from '../oauth/scopes.ts';
import { html } from './html.ts';
import { csrfField, sendErrorPage, sendPage } from './pages.ts';
import { REAUTH_PARAM, type ReauthenticationMarks } from './reauthentication.ts';

export const AUTHORIZE_PATH = '/auth/oauth2/authorize';

function consentPage(request: AuthorizationRequest, csrf: string, reauthMark: string | undefined) {
  const client = request.client;
  const host = new URL(request.redirectUri).host;
  const families = new Map<ScopeFamily, string[]>();
  for (const name of request.scopes ?? []) {
    const def = describeScope(name)!;
    families.set(def.family, [...(families.get(def.family) ?? []), def.description]);
  }
  const hidden = authorizationParameters
    .filter((name) => request.params[name] !== undefined)
    .map((name) => html`<input type="hidden" name="${name}" value="${request.params[name]}">`);
  // prompt=login: the decision is checked against the same re-login as the page was.
  if (reauthMark !== undefined) hidden.push(html`<input type="hidden" name="${REAUTH_PARAM}" value="${reauthMark}">`);
  return html`<div class="card">
<h1><span id="client-name">${client.name}</span> wants to access your account</h1>
${client.homepageUrl ? html`<p>Application website: <a href="${client.homepageUrl}" rel="noopener noreferrer">${client.homepageUrl}</a></p>` : ''}
<p>After you decide, you will be sent back to <strong id="return-host">${host}</strong>.</p>
${request.scopes === null
  ? html`<p class="notice" id="legacy-notice">This application was registered before permissions existed. If you allow it, it can read and change <strong>everything in your account</strong>.</p>`
  : html`<h2>It will be able to:</h2>${[...families].map(
      ([family, descriptions]) => html`<section><h3>${familyTitles[family]}</h3><ul class="scopes">${descriptions.map((d) => html`<li>${d}</li>`)}</ul></section>`,
    )}`}
<form method="post" action="${AUTHORIZE_PATH}">
  ${csrfField(csrf)}
  ${hidden}
  <div class="actions">
    <button type="submit" name="decision" value="allow">Allow</button>
    <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
  </div>
</form>
<p class="muted">You can revoke this access at any time in <a href="/settings/authorized-apps">Authorized apps</a>.</p>
</div>`;
}

/**
 * The registered redirect URI an authorization request at `path` (a login page's `next`)
 * would send the browser back to; undefined when it is not such a request, or its client or
 * redirect URI is not trustworthy (the endpoint would show an error page, not redirect).
 */
export async function authorizationReturn(ctx: AppContext, path: string): Promise<string | undefined> {
  const url = new URL(path, 'http://gatehouse.invalid');
  if (url.pathname !== AUTHORIZE_PATH) return undefined;
  // The query as the endpoint reads it: a repeated parameter as a list.
  const raw: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of url.searchParams) {
    const seen = raw[name];
    raw[name] = seen === undefined ? value : [seen, value].flat();
  }
  const result = await validateAuthorizationRequest(ctx.oauth, raw);
  if (result.kind === 'fatal') return undefined;
  return result.kind === 'valid' ? result.request.redirectUri : (raw.redirect_uri as string);
}

export async function authorizeRoutes(app: FastifyInstance, ctx: AppContext, marks: ReauthenticationMarks): Promise<void> {
  /** To the login page and back here; prompt=login takes a new mark (reauthentication.ts). */
  function toLogin(reply: FastifyReply, authz: AuthorizationRequest, again: boolean) {
    const query = new URLSearchParams(authz.params);
    if (authz.prompt.has('login')) query.set(REAUTH_PARAM, marks.issue(ctx.oauth.clock()));
    const back = `${AUTHORIZE_PATH}?${query.toString()}`;
    return reply.redirect(`/login?next=${encodeURIComponent(back)}${again ? '&reauth=1' : ''}`, 303);
  }

  async function handle(request: FastifyRequest, reply: FastifyReply, raw: Record<string, unknown>, decision?: unknown) {
    reply.header('referrer-policy', 'no-referrer'); // SPEC §7: the code must not leak through Referer
    reply.header('cache-control', 'no-store');
    const result = await validateAuthorizationRequest(ctx.oauth, raw);
    if (result.kind === 'fatal') {
      return sendErrorPage(reply, request, 400, 'This authorization request cannot be completed', result.error.description);
    }
    if (result.kind === 'redirect') return reply.redirect(result.location, 303);
    const authz = result.request;
    const silent = authz.prompt.has('none');
    const user = request.user;
    if (user === undefined) {
      // SPEC §2 item 25: prompt=none never shows a page, the login page included.
      if (silent) return reply.redirect(silentFailure(ctx.oauth, authz, 'login_required'), 303);
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
    if (silent) return reply.redirect(silentFailure(ctx.oauth, authz, 'consent_required'), 303);
    allowFormRedirectTo(reply, authz.redirectUri);
    const carried = authz.prompt.has('login') && typeof mark === 'string' ? mark : undefined;
    return sendPage(reply, request, 200, `Authorize ${authz.client.name}`, consentPage(authz, reply.generateCsrf(), carried));
  }

  app.get(AUTHORIZE_PATH, async (request, reply) => handle(request, reply, request.query as Record<string, unknown>));

  app.post(AUTHORIZE_PATH, { preHandler: app.csrfProtection }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const { decision, _csrf, ...params } = body;
    void _csrf;
    return handle(request, reply, params, decision ?? 'missing');
  });
}
