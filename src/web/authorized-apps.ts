// /settings/authorized-apps (docs/rules.md#consent): the applications a user approved, with
// their logos, their scopes in plain words (those that can make changes marked, as on the
// consent page), when each last got a token, and Revoke, which asks for confirmation on a page
// of its own and then ends every token of that application for this user at once.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { MAX_CLIENT_ID_LENGTH } from '../oauth/client-metadata.ts';
import { everAuthorized, listAuthorizedApps, revokeAuthorizedApp, type AuthorizedApp } from '../services/clients/authorized-apps.ts';
import { signedIn } from './access.ts';
import { scopeGroups } from './consent-page.ts';
import { breakableUrl, time } from './format.ts';
import { html, type Html } from './html.ts';
import { logoImage } from './logos.ts';
import { csrfField, sendErrorPage, sendPage } from './pages.ts';

export const AUTHORIZED_APPS = '/settings/authorized-apps';

const revokePath = (clientId: string) => `${AUTHORIZED_APPS}/${encodeURIComponent(clientId)}/revoke`;

/**
 * When the application last used its access, as far as can be known without a write on every
 * API call: the newest token it got for this user (a code exchange or a refresh). Tokens
 * past retention (docs/rules.md#retention) are gone, so an old one says "not recently".
 */
function lastUsed(app: AuthorizedApp): Html {
  return html`<p class="muted" id="last-used-${app.clientId}">${app.lastUsedAt === null
    ? 'Last used: not recently (no token it got is still on record).'
    : html`Last used: ${time(app.lastUsedAt)}, when it last got a token (signing you in or refreshing).`}</p>`;
}

function canDo(app: AuthorizedApp): Html {
  return app.scopes === null
    ? html`<p class="notice bad">Read and change <strong>everything in ${app.forUser ? 'your account' : app.teams.length > 1 ? 'the teams above' : 'the team above'}</strong> (an application registered before permissions existed).</p>`
    : scopeGroups(app.scopes);
}

/** docs/rules.md#team-authorization: for whom it acts, when that is a team the user authorized it for. */
function actsFor(app: AuthorizedApp): Html {
  if (app.teams.length === 0) return html``;
  const teams = app.teams.map((name, i) => html`${i > 0 ? ', ' : ''}<strong>${name}</strong>`);
  return html`<p id="acts-for-${app.clientId}">It acts ${app.forUser ? 'for you, and ' : ''}for the team${app.teams.length > 1 ? 's' : ''} ${teams}, as you authorized it as an owner or admin.</p>`;
}

function appCard(app: AuthorizedApp) {
  return html`<section class="card app" data-client="${app.clientId}" aria-labelledby="app-${app.clientId}">
<div class="title-row">${logoImage(app, 40)}<h2 id="app-${app.clientId}">${app.name}</h2></div>
${app.homepageUrl ? html`<p><a href="${app.homepageUrl}" rel="noopener noreferrer">${breakableUrl(app.homepageUrl)}</a></p>` : ''}
<p class="muted">You approved it on ${time(app.firstApprovedAt)}${app.lastApprovedAt !== app.firstApprovedAt ? html`, most recently on ${time(app.lastApprovedAt)}` : ''}.</p>
${lastUsed(app)}
${actsFor(app)}
<h3>It can:</h3>
${canDo(app)}
<div class="actions"><a class="button danger" href="${revokePath(app.clientId)}">Revoke access<span class="visually-hidden"> for ${app.name}</span></a></div>
</section>`;
}

/** The confirmation before revoking: what ends, Revoke and Cancel. */
function revokePage(app: AuthorizedApp, csrf: string) {
  return html`<p class="crumbs"><a href="${AUTHORIZED_APPS}">Authorized apps</a></p>
<div class="card">
<div class="title-row">${logoImage(app, 40)}<h1 id="revoke-title">Revoke access for ${app.name}?</h1></div>
${lastUsed(app)}
<p class="notice bad" id="revoke-consequence">Every token it holds for your account${app.teams.length > 0 ? ', and for the teams you authorized it for,' : ''} stops working at once. To use it again you will have to allow it again.</p>
${actsFor(app)}
<h2>It can now:</h2>
${canDo(app)}
<form method="post" action="${revokePath(app.clientId)}">${csrfField(csrf)}
<div class="actions"><button type="submit" class="danger">Revoke access for ${app.name}</button><a class="button secondary" href="${AUTHORIZED_APPS}">Cancel</a></div></form>
</div>`;
}

export async function authorizedAppsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(AUTHORIZED_APPS, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const apps = await listAuthorizedApps(ctx.services, user.id);
    const revokedId = (request.query as { revoked?: unknown }).revoked;
    // Only the name of an application this user did authorize is shown back.
    const revokedName = typeof revokedId === 'string' && revokedId.length <= MAX_CLIENT_ID_LENGTH ? await everAuthorized(ctx.services, user.id, revokedId) : undefined;
    return sendPage(
      reply,
      request,
      200,
      'Authorized apps',
      html`<div class="card"><h1>Authorized apps</h1>
${revokedName ? html`<p class="flash" role="status" id="flash">You revoked access for <strong>${revokedName}</strong>. Its tokens stopped working at once.</p>` : ''}
<p>Applications you allowed to act for you, or for a team you are an owner or admin of. Revoking one ends every token it holds for your account, and for those teams, at once; it would have to ask you again.</p>
${apps.length === 0 ? html`<p class="muted" id="no-apps">You have not authorized any application.</p>` : ''}
</div>
${apps.map((a) => appCard(a))}`,
    );
  });

  app.get<{ Params: { clientId: string } }>(`${AUTHORIZED_APPS}/:clientId/revoke`, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const found = (await listAuthorizedApps(ctx.services, user.id)).find((a) => a.clientId === request.params.clientId);
    if (found === undefined) return sendErrorPage(reply, request, 404, 'Not found', 'You have not authorized this application, or its access was already revoked.');
    reply.header('cache-control', 'no-store');
    return sendPage(reply, request, 200, `Revoke access for ${found.name}`, revokePage(found, reply.generateCsrf()));
  });

  app.post<{ Params: { clientId: string } }>(`${AUTHORIZED_APPS}/:clientId/revoke`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const { clientId } = request.params;
    await revokeAuthorizedApp(ctx.services, user.id, clientId);
    return reply.redirect(`${AUTHORIZED_APPS}?revoked=${encodeURIComponent(clientId)}`, 303);
  });
}
