// Developer settings (docs/rules.md#surfaces, docs/rules.md#cli): a logged-in user's OAuth clients — list, register,
// view, edit. Secrets and the legacy migration have routes of their own beside this file.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { updateClient } from '../../services/clients/changes.ts';
import { createClient } from '../../services/clients/registration.ts';
import { listClients, type ClientView } from '../../services/clients/view.ts';
import { ServiceError } from '../../services/errors.ts';
import { ownedClient, signedIn } from '../access.ts';
import { formBody, lines, sentence, statusOf, type FieldErrors } from '../forms.ts';
import { awaitingBadge, stateBadge, time } from '../format.ts';
import { html } from '../html.ts';
import { noticeOf, redirectWithNotice } from '../notices.ts';
import { sendPage } from '../pages.ts';
import { checkClientForm, clientForm, kindOf, readClientForm, valuesOf, type ClientFormValues } from './client-form.ts';
import { eventsUrlRoutes } from './events-url-routes.ts';
import { migrationRoutes } from './migration-routes.ts';
import { DEVELOPER_CLIENTS, clientPath } from './paths.ts';
import { noticeFrom, sendClientPage, type NoticeKey } from './render.ts';
import { secretRoutes } from './secret-routes.ts';

type IdParams = { Params: { id: string } };

function listPage(clients: ClientView[]) {
  return html`<div class="card">
<div class="title-row"><h1>Your OAuth clients</h1><a class="button" href="${DEVELOPER_CLIENTS}/new">Register a client</a></div>
<p>Applications you register here can ask users for access to their accounts. A new client waits for a platform admin’s review before it can be used.</p>
${clients.length === 0
  ? html`<p class="muted" id="no-clients">You have not registered any client yet.</p>`
  : html`<div class="table-wrap"><table class="clients stack">
<thead><tr><th scope="col">Name</th><th scope="col">State</th><th scope="col">Kind</th><th scope="col">Registered</th></tr></thead>
<tbody>${clients.map(
    (c) => html`<tr data-client="${c.clientId}"><td data-label="Name"><a href="${clientPath(c.clientId)}">${c.name}</a>${c.legacy ? html` <span class="badge legacy">Legacy</span>` : ''}${c.proposedRedirectUris.length + c.proposedScopes.length > 0 ? html` ${awaitingBadge()}` : ''}</td>
<td data-label="State">${stateBadge(c.state)}</td><td data-label="Kind">${c.kind}</td><td data-label="Registered">${time(c.createdAt)}</td></tr>`,
  )}</tbody></table></div>`}
</div>`;
}

function editIntro(c: ClientView) {
  if (c.state === 'approved' || c.state === 'suspended') {
    return html`<p class="notice" id="edit-rules">Name, description, homepage and logo change at once, and so do removed redirect URIs and scopes. <strong>Added redirect URIs and scopes wait for a platform admin’s review</strong>; until then the approved configuration stays live.</p>`;
  }
  if (c.state === 'rejected') return html`<p class="notice" id="edit-rules">Saving resubmits the client for review.</p>`;
  return html`<p class="notice" id="edit-rules">The client is waiting for review; your changes apply at once and the reviewer sees them.</p>`;
}

function registerPage(request: FastifyRequest, reply: FastifyReply, status: number, values: ClientFormValues, errors: FieldErrors) {
  return sendPage(
    reply,
    request,
    status,
    'Register an OAuth client',
    html`<p class="crumbs"><a href="${DEVELOPER_CLIENTS}">Your OAuth clients</a></p><div class="card"><h1>Register an OAuth client</h1>
<p>The client starts <strong>pending</strong>: a platform admin reviews it before users can authorize it.</p>
${clientForm({ action: DEVELOPER_CLIENTS, csrf: reply.generateCsrf(), values, errors, submitLabel: 'Register client', cancelHref: DEVELOPER_CLIENTS })}</div>`,
  );
}

function editPage(request: FastifyRequest, reply: FastifyReply, status: number, client: ClientView, values: ClientFormValues, errors: FieldErrors) {
  return sendPage(
    reply,
    request,
    status,
    `Edit ${client.name}`,
    html`<p class="crumbs"><a href="${DEVELOPER_CLIENTS}">Your OAuth clients</a> › <a href="${clientPath(client.clientId)}">${client.name}</a></p>
<div class="card"><div class="title-row"><h1>Edit ${client.name}</h1>${stateBadge(client.state)}</div>
${editIntro(client)}
${clientForm({ action: `${clientPath(client.clientId)}/edit`, csrf: reply.generateCsrf(), values, errors, client, submitLabel: client.state === 'rejected' ? 'Save and resubmit' : 'Save changes', cancelHref: clientPath(client.clientId) })}</div>`,
  );
}

/** Registration: the form checked field by field, then the service; the client page shows the first secret once. */
async function handleRegister(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const user = signedIn(request, reply);
  if (!user) return reply;
  const values = readClientForm(formBody(request));
  const errors = checkClientForm(values, { kind: true, scopes: true });
  if (Object.keys(errors).length > 0) return registerPage(request, reply, 400, values, errors);
  try {
    const { client, secret } = await createClient(ctx.services, {
      ownerId: user.id,
      name: values.name,
      description: values.description,
      homepageUrl: values.homepage_url,
      logoUrl: values.logo_url,
      kind: kindOf(values),
      redirectUris: lines(values.redirect_uris),
      scopes: values.scopes,
      requirePushedAuthorizationRequests: values.require_par,
      dpopBoundAccessTokens: values.dpop_bound_access_tokens,
      fapi2: values.fapi2,
      ...(values.token_endpoint_auth_method !== '' ? { tokenEndpointAuthMethod: values.token_endpoint_auth_method } : {}),
      ...(values.jwks.trim() !== '' ? { jwks: values.jwks } : {}),
      idTokenSignedResponseAlg: values.id_token_signed_response_alg,
      postLogoutRedirectUris: lines(values.post_logout_redirect_uris),
    });
    // docs/rules.md#forms-and-pages: the client page shows the first secret once, so a reload of it
    // registers nothing.
    return redirectWithNotice(ctx, request, reply, clientPath(client.clientId), {
      flash: 'Registered. The client is pending: a platform admin reviews it before users can authorize it.',
      ...(secret === null ? {} : { newSecret: { secret, lastFour: secret.slice(-4) } }),
    });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return registerPage(request, reply, statusOf(error), values, { [error.field ?? 'name']: sentence(error.message) });
  }
}

/** An edit: applied, held for review or resubmitted, as the service decides (docs/rules.md#client-states, docs/rules.md#client-changes). */
async function handleEdit(ctx: AppContext, request: FastifyRequest<IdParams>, reply: FastifyReply) {
  const user = signedIn(request, reply);
  if (!user) return reply;
  const client = await ownedClient(ctx.services, user, request.params.id);
  const values = { ...readClientForm(formBody(request)), kind: client.kind };
  const errors = checkClientForm(values, { kind: false, scopes: !client.legacy });
  if (Object.keys(errors).length > 0) return editPage(request, reply, 400, client, values, errors);
  try {
    const result = await updateClient(ctx.services, client.clientId, user.id, {
      name: values.name,
      description: values.description,
      homepageUrl: values.homepage_url,
      logoUrl: values.logo_url,
      redirectUris: lines(values.redirect_uris),
      dpopBoundAccessTokens: values.dpop_bound_access_tokens,
      // A legacy client gets scopes only through its migration page (docs/rules.md#legacy-clients).
      ...(client.legacy ? {} : { scopes: values.scopes }),
      requirePushedAuthorizationRequests: values.require_par,
      fapi2: values.fapi2,
      ...(values.token_endpoint_auth_method !== '' ? { tokenEndpointAuthMethod: values.token_endpoint_auth_method } : {}),
      jwks: values.jwks,
      idTokenSignedResponseAlg: values.id_token_signed_response_alg,
      postLogoutRedirectUris: lines(values.post_logout_redirect_uris),
    });
    const held = result.held.redirectUris.length + result.held.scopes.length > 0;
    const done: NoticeKey = result.resubmitted ? 'resubmitted' : held ? 'held' : 'saved';
    return reply.redirect(`${clientPath(client.clientId)}?done=${done}`, 303);
  } catch (error) {
    if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
    return editPage(request, reply, statusOf(error), client, values, { [error.field ?? 'name']: sentence(error.message) });
  }
}

export async function developerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(DEVELOPER_CLIENTS, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const clients = await listClients(ctx.services, { ownerId: user.id });
    return sendPage(reply, request, 200, 'Your OAuth clients', listPage(clients));
  });

  app.get(`${DEVELOPER_CLIENTS}/new`, async (request, reply) => {
    if (!signedIn(request, reply)) return reply;
    const empty: ClientFormValues = { name: '', description: '', homepage_url: '', logo_url: '', kind: 'confidential', redirect_uris: '', scopes: [], require_par: false, dpop_bound_access_tokens: false, fapi2: false, token_endpoint_auth_method: '', jwks: '', id_token_signed_response_alg: '', post_logout_redirect_uris: '' };
    return registerPage(request, reply, 200, empty, {});
  });

  app.post(DEVELOPER_CLIENTS, { preHandler: app.csrfProtection }, (request, reply) => handleRegister(ctx, request, reply));

  app.get<IdParams>(`${DEVELOPER_CLIENTS}/:id`, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const client = await ownedClient(ctx.services, user, request.params.id);
    const once = await noticeOf(ctx, request);
    return sendClientPage(ctx, request, reply, user, client, 200, { ...once, notice: noticeFrom(request.query) ?? once.flash });
  });

  app.get<IdParams>(`${DEVELOPER_CLIENTS}/:id/edit`, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const client = await ownedClient(ctx.services, user, request.params.id);
    return editPage(request, reply, 200, client, valuesOf(client), {});
  });

  app.post<IdParams>(`${DEVELOPER_CLIENTS}/:id/edit`, { preHandler: app.csrfProtection }, (request, reply) => handleEdit(ctx, request, reply));

  await secretRoutes(app, ctx);
  await eventsUrlRoutes(app, ctx);
  await migrationRoutes(app, ctx);
}
