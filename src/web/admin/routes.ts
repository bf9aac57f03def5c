// /admin/oauth-clients (docs/rules.md#surfaces, docs/rules.md#client-states, docs/rules.md#client-changes): the review queue and the decisions.
// Admins only: anonymous visitors go to the login page, other users get 403. Every
// decision is made by the services, which write it to the audit log with the admin's id.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { approveHeldChanges, rejectHeldChanges } from '../../services/clients/review.ts';
import { listClientEvents } from '../../services/clients/events.ts';
import { parseVersion } from '../../services/clients/version.ts';
import { hasHeldChange, listClients, requireClient, type ClientView } from '../../services/clients/view.ts';
import { reviewClient, setResourceServer } from '../../services/clients/review.ts';
import { ServiceError } from '../../services/errors.ts';
import { findUserById, type User } from '../../services/accounts/users.ts';
import { notices as developerNotices } from '../developer/render.ts';
import { clientSecretRoutes, type SecretPageExtra } from '../developer/secret-routes.ts';
import { signedInAdmin } from '../access.ts';
import { formBody, sentence, statusOf, textField, type FieldErrors } from '../forms.ts';
import { awaitingBadge, hostOf, stateBadge, time } from '../format.ts';
import { html, type Html } from '../html.ts';
import { noticeOf } from '../notices.ts';
import { pageLinks, pageNumber, pageOf, type Page } from '../pagination.ts';
import { sendPage } from '../pages.ts';
import { csrfField } from '../pages.ts';
import { decideHost, listHostDecisions } from '../../services/clients/metadata-hosts.ts';
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

/** Notices after the other admin operations on the client page (docs/rules.md#cli, docs/rules.md#introspection). */
const otherNotices: Record<string, string> = {
  'secret-removed': developerNotices['secret-removed'],
  'resource-server-on': 'Marked as a resource server: the client may now introspect any client’s tokens.',
  'resource-server-off': 'The resource-server mark is removed: the client may introspect only its own tokens.',
};

function clientRows(clients: ClientView[], owners: Map<string, User>, empty: string): Html {
  if (clients.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<div class="table-wrap"><table class="clients stack">
<thead><tr><th scope="col">Client</th><th scope="col">Owner</th><th scope="col">State</th><th scope="col">Redirect hosts</th><th scope="col">Updated</th></tr></thead>
<tbody>${clients.map(
    (c) => html`<tr data-client="${c.clientId}"><td data-label="Client"><a href="${adminClientPath(c.clientId)}">${c.name}</a>${hasHeldChange(c) ? html` ${awaitingBadge()}` : ''}</td>
<td data-label="Owner">${owners.get(c.ownerId)?.email ?? ''}</td><td data-label="State">${stateBadge(c.state)}</td>
<td data-label="Redirect hosts">${[...new Set([...c.redirectUris, ...c.proposedRedirectUris].map(hostOf))].join(', ')}</td><td data-label="Updated">${time(c.updatedAt)}</td></tr>`,
  )}</tbody></table></div>`;
}

type ReviewExtra = SecretPageExtra & { errors?: FieldErrors; failedDecision?: string; reason?: string; notice?: string | undefined; resourceServerError?: string };

/** The queue's lists, each turned a page at a time by its own query parameter (docs/integrating.md#connect-an-ai-agent-mcp). */
const queueLists = ['pending', 'held', 'all'] as const;
type QueueList = (typeof queueLists)[number];

/** The review queue: new clients, held changes, then every client, a page of each. */
async function sendQueue(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  const requested = Object.fromEntries(queueLists.map((list) => [list, pageNumber(request.query, list)])) as Record<QueueList, number>;
  const all = await listClients(ctx.services);
  const pages: Record<QueueList, Page<ClientView>> = {
    pending: pageOf(all.filter((c) => c.state === 'pending'), requested.pending),
    held: pageOf(all.filter((c) => c.state !== 'pending' && hasHeldChange(c)), requested.held),
    all: pageOf(all, requested.all),
  };
  // The other lists stay on their pages when one turns.
  const href = (list: QueueList) => (number: number) => {
    const query = new URLSearchParams();
    for (const other of queueLists) {
      const n = other === list ? number : pages[other].number;
      if (n > 1) query.set(other, String(n));
    }
    return `${ADMIN_CLIENTS}${query.size > 0 ? `?${query}` : ''}#${list}`;
  };
  const owners = new Map<string, User>();
  for (const id of new Set(queueLists.flatMap((list) => pages[list].items.map((c) => c.ownerId)))) {
    const owner = await findUserById(ctx.services, id);
    if (owner) owners.set(id, owner);
  }
  const { pending, held } = pages;
  const hosts = await listHostDecisions(ctx.services);
  return sendPage(
    reply,
    request,
    200,
    'Client review',
    html`<div class="card"><h1>Client review</h1>
<section aria-labelledby="pending-title" id="pending"><h2 id="pending-title">New clients awaiting review (${pending.total})</h2>${clientRows(pending.items, owners, 'No client is waiting.')}${pageLinks(pending, href('pending'))}</section>
<section aria-labelledby="held-title" id="held"><h2 id="held-title">Changes awaiting review (${held.total})</h2>${clientRows(held.items, owners, 'No changes are waiting.')}${pageLinks(held, href('held'))}</section>
</div>
<div class="card"><section aria-labelledby="all-title" id="all"><h2 id="all-title">All clients</h2>${clientRows(pages.all.items, owners, 'No clients yet.')}${pageLinks(pages.all, href('all'))}</section></div>
<div class="card"><section aria-labelledby="hosts-title" id="hosts"><h2 id="hosts-title">Client metadata document hosts</h2>
<p class="muted">Applications that identify themselves by a document on a trusted host are approved at once; a distrusted host's applications are refused, and approved ones suspended.</p>
${hosts.length === 0 ? html`<p class="muted">No decisions yet.</p>` : html`<ul>${hosts.map((h) => html`<li data-host="${h.host}"><strong>${h.host}</strong>: ${h.decision}, ${time(h.decidedAt)}</li>`)}</ul>`}
<form method="post" action="${ADMIN_CLIENTS}/hosts">${csrfField(reply.generateCsrf())}
<label for="host">Host</label> <input id="host" name="host" required maxlength="300" placeholder="agent.example.com">
<div class="actions"><button type="submit" name="decision" value="trusted">Trust host</button> <button type="submit" name="decision" value="distrusted" class="secondary">Distrust host</button></div>
</form></section></div>`,
  );
}

/** The client's review page, with the outcome of the last operation. */
async function sendReview(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, admin: User, client: ClientView, status: number, extra: ReviewExtra = {}) {
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
      resourceServer: client.resourceServer,
      resourceServerError: extra.resourceServerError,
      secretError: extra.secretError,
      newSecret: extra.newSecret,
    }),
  );
}

/** The notice for `?done=`: one of the decisions or of the other operations, or none. */
function doneNoticeOf(done: unknown): string | undefined {
  if (typeof done !== 'string') return undefined;
  if ((decisions as readonly string[]).includes(done)) return doneNotices[done as Decision];
  return Object.hasOwn(otherNotices, done) ? otherNotices[done] : undefined;
}

/** Applies one decision; docs/rules.md#review-versions: about the version the page showed, and no other. */
async function decide(ctx: AppContext, clientId: string, adminId: string, decision: Decision, reason: string, expectedVersion: number): Promise<void> {
  const options = { expectedVersion };
  if (decision === 'approve-changes') await approveHeldChanges(ctx.services, clientId, adminId, options);
  else if (decision === 'reject-changes') await rejectHeldChanges(ctx.services, clientId, adminId, reason, options);
  else await reviewClient(ctx.services, clientId, decision, adminId, reason, options);
}

async function handleDecision(ctx: AppContext, request: FastifyRequest<IdParams>, reply: FastifyReply) {
  const admin = signedInAdmin(request, reply);
  if (!admin) return reply;
  const client = await requireClient(ctx.services, request.params.id);
  const body = formBody(request);
  const decision = textField(body, 'decision', 40);
  const reason = textField(body, 'reason', 5000);
  if (!(decisions as readonly string[]).includes(decision)) {
    return sendReview(ctx, request, reply, admin, client, 400, { errors: { decision: 'Choose one of the decisions on this page.' } });
  }
  const expectedVersion = parseVersion(textField(body, 'version', 20));
  if (expectedVersion === undefined) {
    return sendReview(ctx, request, reply, admin, client, 400, { errors: { decision: 'This decision does not say which version of the client it is about: decide on the review page.' } });
  }
  try {
    await decide(ctx, client.clientId, admin.id, decision as Decision, reason, expectedVersion);
  } catch (error) {
    if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
    const fresh = await requireClient(ctx.services, client.clientId);
    const errors: FieldErrors = error.field === 'reason' ? { reason: sentence(error.message) } : { decision: sentence(error.message) };
    return sendReview(ctx, request, reply, admin, fresh, statusOf(error), { errors, failedDecision: decision, reason });
  }
  return reply.redirect(`${adminClientPath(client.clientId)}?done=${decision}`, 303);
}

/** docs/rules.md#introspection: the resource-server mark, which lets a client introspect any token. */
async function handleResourceServer(ctx: AppContext, request: FastifyRequest<IdParams>, reply: FastifyReply) {
  const admin = signedInAdmin(request, reply);
  if (!admin) return reply;
  const client = await requireClient(ctx.services, request.params.id);
  const value = textField(formBody(request), 'resource_server', 10);
  if (value !== 'on' && value !== 'off') {
    return sendReview(ctx, request, reply, admin, client, 400, { resourceServerError: 'Choose whether the client is a resource server: use the button on this page.' });
  }
  try {
    await setResourceServer(ctx.services, client.clientId, value === 'on', admin.id);
  } catch (error) {
    if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
    return sendReview(ctx, request, reply, admin, await requireClient(ctx.services, client.clientId), statusOf(error), { resourceServerError: sentence(error.message) });
  }
  return reply.redirect(`${adminClientPath(client.clientId)}?done=resource-server-${value}#resource-server`, 303);
}

export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(ADMIN_CLIENTS, async (request, reply) => {
    if (!signedInAdmin(request, reply)) return reply;
    return sendQueue(ctx, request, reply);
  });

  app.get<IdParams>(`${ADMIN_CLIENTS}/:id`, async (request, reply) => {
    const admin = signedInAdmin(request, reply);
    if (!admin) return reply;
    const client = await requireClient(ctx.services, request.params.id);
    const once = await noticeOf(ctx, request);
    return sendReview(ctx, request, reply, admin, client, 200, { ...once, notice: doneNoticeOf((request.query as { done?: unknown }).done) ?? once.flash });
  });

  // docs/rules.md#cimd-policy: an admin's trust decision about a metadata document host.
  app.post(`${ADMIN_CLIENTS}/hosts`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const admin = signedInAdmin(request, reply);
    if (!admin) return reply;
    const body = formBody(request);
    const decision = textField(body, 'decision');
    if (decision !== 'trusted' && decision !== 'distrusted') throw new ServiceError('validation', 'choose Trust host or Distrust host', 'decision');
    await decideHost(ctx.services, textField(body, 'host', 300), decision, admin.id);
    return reply.redirect(`${ADMIN_CLIENTS}#hosts`, 303);
  });

  app.post<IdParams>(`${ADMIN_CLIENTS}/:id/review`, { preHandler: app.csrfProtection }, (request, reply) => handleDecision(ctx, request, reply));
  app.post<IdParams>(`${ADMIN_CLIENTS}/:id/resource-server`, { preHandler: app.csrfProtection }, (request, reply) => handleResourceServer(ctx, request, reply));

  // docs/rules.md#secret-rotation: the developer's secret operations, with the same rules and messages.
  clientSecretRoutes(app, ctx, {
    clientRoute: `${ADMIN_CLIENTS}/:id`,
    pathOf: adminClientPath,
    crumbs: (client) => html`<p class="crumbs"><a href="${ADMIN_CLIENTS}">Client review</a> › <a href="${adminClientPath(client.clientId)}">${client.name}</a></p>`,
    access: async (request, reply, clientId) => {
      const admin = signedInAdmin(request, reply);
      if (!admin) return undefined;
      return { actor: admin, client: await requireClient(ctx.services, clientId) };
    },
    afterRemoval: (clientId) => `${adminClientPath(clientId)}?done=secret-removed#secrets`,
  });
}
