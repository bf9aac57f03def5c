// /admin/oauth-clients (SPEC §1, §2 items 1 and 20): the review queue and the decisions.
// Admins only: anonymous visitors go to the login page, other users get 403. Every
// decision is made by the services, which write it to the audit log with the admin's id.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/context.ts';
import { approveHeldChanges, rejectHeldChanges } from '../../services/client-changes.ts';
import { listClientEvents } from '../../services/client-events.ts';
import { parseVersion } from '../../services/client-version.ts';
import { hasHeldChange, listClients, requireClient, reviewClient, setResourceServer, type ClientView } from '../../services/clients.ts';
import { ServiceError } from '../../services/errors.ts';
import { findUserById, type User } from '../../services/accounts/users.ts';
import { findClientRow } from '../../storage/repositories/clients.ts';
import { notices as developerNotices } from '../developer/render.ts';
import { clientSecretRoutes, type SecretPageExtra } from '../developer/secret-routes.ts';
import { signedInAdmin } from '../access.ts';
import { formBody, sendServiceError, sentence, statusOf, textField, type FieldErrors } from '../forms.ts';
import { awaitingBadge, hostOf, stateBadge, time } from '../format.ts';
import { html, type Html } from '../html.ts';
import { sendPage } from '../pages.ts';
import { ADMIN_CLIENTS, adminClientPath } from './paths.ts';
import { reviewPage } from './review-page.ts';

type IdParams = { Params: { id: string } };

const decisions = ['approve', 'reject', 'suspend', 'approve-changes', 'reject-changes'] as const;
type Decision = (typeof decisions)[number];

const doneNotices: Record<Decision, string> = {
  approve: 'Approved. Users can now authorize the client.',
  reject: 'Rejected. The developer sees your reason.',
  suspend: 'Suspended. Every token of the client stopped working.',
  'approve-changes': 'Changes approved: they are live now.',
  'reject-changes': 'Changes declined. The developer sees your reason.',
};

/** Notices after the other admin operations on the client page (SPEC §4, §6). */
const otherNotices: Record<string, string> = {
  'secret-removed': developerNotices['secret-removed'],
  'resource-server-on': 'Marked as a resource server: the client may now introspect any client’s tokens.',
  'resource-server-off': 'The resource-server mark is removed: the client may introspect only its own tokens.',
};

function clientRows(clients: ClientView[], owners: Map<string, User>, empty: string): Html {
  if (clients.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<div class="table-wrap"><table class="clients">
<thead><tr><th scope="col">Client</th><th scope="col">Owner</th><th scope="col">State</th><th scope="col">Redirect hosts</th><th scope="col">Updated</th></tr></thead>
<tbody>${clients.map(
    (c) => html`<tr data-client="${c.clientId}"><td><a href="${adminClientPath(c.clientId)}">${c.name}</a>${hasHeldChange(c) ? html` ${awaitingBadge()}` : ''}</td>
<td>${owners.get(c.ownerId)?.email ?? ''}</td><td>${stateBadge(c.state)}</td>
<td>${[...new Set([...c.redirectUris, ...c.proposedRedirectUris].map(hostOf))].join(', ')}</td><td>${time(c.updatedAt)}</td></tr>`,
  )}</tbody></table></div>`;
}

export async function adminRoutes(web: FastifyInstance, ctx: AppContext): Promise<void> {
  await web.register(async (app) => {
    app.setErrorHandler((error, request, reply) => {
      if (error instanceof ServiceError) return sendServiceError(reply, request, error);
      throw error;
    });

    app.get(ADMIN_CLIENTS, async (request, reply) => {
      if (!signedInAdmin(request, reply)) return reply;
      const all = await listClients(ctx.services);
      const owners = new Map<string, User>();
      for (const id of new Set(all.map((c) => c.ownerId))) {
        const owner = await findUserById(ctx.services, id);
        if (owner) owners.set(id, owner);
      }
      const pending = all.filter((c) => c.state === 'pending');
      const held = all.filter((c) => c.state !== 'pending' && hasHeldChange(c));
      return sendPage(
        reply,
        request,
        200,
        'Client review',
        html`<div class="card"><h1>Client review</h1>
<section aria-labelledby="pending-title" id="pending"><h2 id="pending-title">New clients awaiting review (${pending.length})</h2>${clientRows(pending, owners, 'No client is waiting.')}</section>
<section aria-labelledby="held-title" id="held"><h2 id="held-title">Changes awaiting review (${held.length})</h2>${clientRows(held, owners, 'No changes are waiting.')}</section>
</div>
<div class="card"><section aria-labelledby="all-title" id="all"><h2 id="all-title">All clients</h2>${clientRows(all, owners, 'No clients yet.')}</section></div>`,
      );
    });

    type ReviewExtra = SecretPageExtra & { errors?: FieldErrors; failedDecision?: string; reason?: string; notice?: string | undefined; resourceServerError?: string };
    async function sendReview(request: FastifyRequest, reply: FastifyReply, admin: User, client: ClientView, status: number, extra: ReviewExtra = {}) {
      const row = await findClientRow(ctx.services.db, client.clientId);
      // A page that may carry a secret must not be kept by any cache.
      reply.header('cache-control', 'no-store');
      return sendPage(
        reply,
        request,
        status,
        `Review ${client.name}`,
        reviewPage({
          client,
          owner: await findUserById(ctx.services, client.ownerId),
          events: await listClientEvents(ctx.services, client.clientId),
          viewer: { id: admin.id, admin: true },
          csrf: reply.generateCsrf(),
          errors: extra.errors ?? {},
          failedDecision: extra.failedDecision,
          reason: extra.reason,
          notice: extra.notice,
          resourceServer: row?.is_resource_server === 1,
          resourceServerError: extra.resourceServerError,
          secretError: extra.secretError,
          newSecret: extra.newSecret,
        }),
      );
    }

    app.get<IdParams>(`${ADMIN_CLIENTS}/:id`, async (request, reply) => {
      const admin = signedInAdmin(request, reply);
      if (!admin) return reply;
      const client = await requireClient(ctx.services, request.params.id.slice(0, 200));
      const done = (request.query as { done?: unknown }).done;
      const notice =
        typeof done !== 'string' ? undefined : (decisions as readonly string[]).includes(done) ? doneNotices[done as Decision] : Object.hasOwn(otherNotices, done) ? otherNotices[done] : undefined;
      return sendReview(request, reply, admin, client, 200, { notice });
    });

    app.post<IdParams>(`${ADMIN_CLIENTS}/:id/review`, { preHandler: app.csrfProtection }, async (request, reply) => {
      const admin = signedInAdmin(request, reply);
      if (!admin) return reply;
      const client = await requireClient(ctx.services, request.params.id.slice(0, 200));
      const body = formBody(request);
      const decision = textField(body, 'decision', 40);
      const reason = textField(body, 'reason', 5000);
      if (!(decisions as readonly string[]).includes(decision)) {
        return sendReview(request, reply, admin, client, 400, { errors: { decision: 'Choose one of the decisions on this page.' } });
      }
      // SPEC §2 item 22: the decision is about the version the page showed, and no other.
      const expectedVersion = parseVersion(textField(body, 'version', 20));
      if (expectedVersion === undefined) {
        return sendReview(request, reply, admin, client, 400, { errors: { decision: 'This decision does not say which version of the client it is about: decide on the review page.' } });
      }
      try {
        const d = decision as Decision;
        const options = { expectedVersion };
        if (d === 'approve-changes') await approveHeldChanges(ctx.services, client.clientId, admin.id, options);
        else if (d === 'reject-changes') await rejectHeldChanges(ctx.services, client.clientId, admin.id, reason, options);
        else await reviewClient(ctx.services, client.clientId, d, admin.id, reason, options);
      } catch (error) {
        if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
        const fresh = await requireClient(ctx.services, client.clientId);
        const errors: FieldErrors = error.field === 'reason' ? { reason: sentence(error.message) } : { decision: sentence(error.message) };
        return sendReview(request, reply, admin, fresh, statusOf(error), { errors, failedDecision: decision, reason });
      }
      return reply.redirect(`${adminClientPath(client.clientId)}?done=${decision}`, 303);
    });

    // SPEC §6: the resource-server mark, which lets a client introspect any token.
    app.post<IdParams>(`${ADMIN_CLIENTS}/:id/resource-server`, { preHandler: app.csrfProtection }, async (request, reply) => {
      const admin = signedInAdmin(request, reply);
      if (!admin) return reply;
      const client = await requireClient(ctx.services, request.params.id.slice(0, 200));
      const value = textField(formBody(request), 'resource_server', 10);
      if (value !== 'on' && value !== 'off') {
        return sendReview(request, reply, admin, client, 400, { resourceServerError: 'Choose whether the client is a resource server: use the button on this page.' });
      }
      try {
        await setResourceServer(ctx.services, client.clientId, value === 'on', admin.id);
      } catch (error) {
        if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
        return sendReview(request, reply, admin, await requireClient(ctx.services, client.clientId), statusOf(error), { resourceServerError: sentence(error.message) });
      }
      return reply.redirect(`${adminClientPath(client.clientId)}?done=resource-server-${value}#resource-server`, 303);
    });

    // SPEC §4: the developer's secret operations, with the same rules and messages.
    clientSecretRoutes(app, ctx, {
      clientRoute: `${ADMIN_CLIENTS}/:id`,
      pathOf: adminClientPath,
      crumbs: (client) => html`<p class="crumbs"><a href="${ADMIN_CLIENTS}">Client review</a> › <a href="${adminClientPath(client.clientId)}">${client.name}</a></p>`,
      access: async (request, reply, clientId) => {
        const admin = signedInAdmin(request, reply);
        if (!admin) return undefined;
        return { actor: admin, client: await requireClient(ctx.services, clientId.slice(0, 200)) };
      },
      sendClientPage: (request, reply, admin, client, status, extra) => sendReview(request, reply, admin, client, status, extra),
      afterRemoval: (clientId) => `${adminClientPath(clientId)}?done=secret-removed#secrets`,
    });
  });
}
