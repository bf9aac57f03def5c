// /settings/authorized-apps (docs/rules.md#consent): the applications a user approved, with
// their scopes in plain words, and Revoke, which ends every token of that application for
// this user at once.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { MAX_CLIENT_ID_LENGTH } from '../oauth/client-metadata.ts';
import { everAuthorized, listAuthorizedApps, revokeAuthorizedApp, type AuthorizedApp } from '../services/clients/authorized-apps.ts';
import { signedIn } from './access.ts';
import { breakableUrl, scopeList, time } from './format.ts';
import { html } from './html.ts';
import { csrfField, sendPage } from './pages.ts';

export const AUTHORIZED_APPS = '/settings/authorized-apps';

function appCard(app: AuthorizedApp, csrf: string) {
  return html`<section class="card app" data-client="${app.clientId}" aria-labelledby="app-${app.clientId}">
<div class="title-row"><h2 id="app-${app.clientId}">${app.name}</h2></div>
${app.homepageUrl ? html`<p><a href="${app.homepageUrl}" rel="noopener noreferrer">${breakableUrl(app.homepageUrl)}</a></p>` : ''}
<p class="muted">You approved it on ${time(app.firstApprovedAt)}${app.lastApprovedAt !== app.firstApprovedAt ? html`, most recently on ${time(app.lastApprovedAt)}` : ''}.</p>
<h3>It can:</h3>
${app.scopes === null
  ? html`<p class="notice bad">Read and change <strong>everything in your account</strong> (an application registered before permissions existed).</p>`
  : scopeList(app.scopes, [], { names: false })}
<form method="post" action="${AUTHORIZED_APPS}/${encodeURIComponent(app.clientId)}/revoke">
${csrfField(csrf)}
<div class="actions"><button type="submit" class="danger">Revoke access<span class="visually-hidden"> for ${app.name}</span></button></div>
</form>
</section>`;
}

export async function authorizedAppsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(AUTHORIZED_APPS, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const apps = await listAuthorizedApps(ctx.services, user.id);
    const revokedId = (request.query as { revoked?: unknown }).revoked;
    // Only the name of an application this user did authorize is shown back.
    const revokedName = typeof revokedId === 'string' && revokedId.length <= MAX_CLIENT_ID_LENGTH ? await everAuthorized(ctx.services, user.id, revokedId) : undefined;
    const csrf = reply.generateCsrf();
    return sendPage(
      reply,
      request,
      200,
      'Authorized apps',
      html`<div class="card"><h1>Authorized apps</h1>
${revokedName ? html`<p class="flash" role="status" id="flash">You revoked access for <strong>${revokedName}</strong>. Its tokens stopped working at once.</p>` : ''}
<p>Applications you allowed to act for you. Revoking one ends every token it holds for your account at once; it would have to ask you again.</p>
${apps.length === 0 ? html`<p class="muted" id="no-apps">You have not authorized any application.</p>` : ''}
</div>
${apps.map((a) => appCard(a, csrf))}`,
    );
  });

  app.post<{ Params: { clientId: string } }>(`${AUTHORIZED_APPS}/:clientId/revoke`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const { clientId } = request.params;
    await revokeAuthorizedApp(ctx.services, user.id, clientId);
    return reply.redirect(`${AUTHORIZED_APPS}?revoked=${encodeURIComponent(clientId)}`, 303);
  });
}
