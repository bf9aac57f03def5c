// Secret rotation in the developer settings (docs/rules.md#secret-rotation; docs/rules.md#client-secrets):
// add (shown once, on the page the redirect leads to), remove after a confirmation step; at most 2 active, never fewer than 1.
// The same routes serve an admin's client page (docs/rules.md#secret-rotation): `clientSecretRoutes` takes who
// may act and how the client page is drawn; the rules and messages are the same.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { ClientView } from '../../services/clients/view.ts';
import { ServiceError } from '../../services/errors.ts';
import { addSecret, removeSecret } from '../../services/clients/secrets.ts';
import type { User } from '../../services/accounts/users.ts';
import { ownedClient, signedIn } from '../access.ts';
import { formBody, sentence, textField } from '../forms.ts';
import { redirectWithNotice } from '../notices.ts';
import { time } from '../format.ts';
import { html, type Html } from '../html.ts';
import { csrfField, sendErrorPage, sendPage } from '../pages.ts';
import { SHOWN_SECRETS, type SecretsSectionData } from './client-page.ts';
import { DEVELOPER_CLIENTS, clientPath } from './paths.ts';

type SecretParams = { Params: { id: string; secretId: string } };

export type SecretPageExtra = Pick<SecretsSectionData, 'secretError' | 'newSecret'>;

export interface SecretRouteOptions {
  /** The client page's route, with `:id`; the secret routes live below it. */
  clientRoute: string;
  /** The client page's address. */
  pathOf(clientId: string): string;
  /** The breadcrumbs above the confirmation page. */
  crumbs(client: ClientView): Html;
  /**
   * Who acts on which client: undefined after the reply was sent (login page, 403);
   * throws a not_found ServiceError for a client the actor may not see.
   */
  access(request: FastifyRequest, reply: FastifyReply, clientId: string): Promise<{ actor: User; client: ClientView } | undefined>;
  /** Where to go after a removal (the client page with its notice). */
  afterRemoval(clientId: string): string;
}

export function clientSecretRoutes(app: FastifyInstance, ctx: AppContext, o: SecretRouteOptions): void {
  // docs/rules.md#forms-and-pages: the new secret (or the refusal) is shown by the client page the
  // redirect leads to, from a one-time notice, so a reload cannot add another secret; and the
  // form names the secrets its page showed, so the same form sent twice adds one.
  app.post<{ Params: { id: string } }>(`${o.clientRoute}/secrets`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const who = await o.access(request, reply, request.params.id);
    if (!who) return reply;
    const { actor, client } = who;
    const page = o.pathOf(client.clientId);
    const shown = textField(formBody(request), SHOWN_SECRETS, 1000).split(/\s+/).filter((id) => id !== '');
    try {
      const created = await addSecret(ctx.services, client.clientId, actor.id, { shown });
      return redirectWithNotice(ctx, request, reply, page, { newSecret: { secret: created.secret, lastFour: created.secret.slice(-4) } }, '#secrets');
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
      // e.g. a third secret: the page says why, beside the secrets.
      return redirectWithNotice(ctx, request, reply, page, { secretError: sentence(error.message) }, '#secrets');
    }
  });

  app.get<SecretParams>(`${o.clientRoute}/secrets/:secretId/remove`, async (request, reply) => {
    const who = await o.access(request, reply, request.params.id);
    if (!who) return reply;
    const { client } = who;
    const secret = client.secrets.find((s) => s.id === request.params.secretId);
    if (secret === undefined) return sendErrorPage(reply, request, 404, 'Not found', 'This client has no active secret with this id. It may have been removed already.');
    const last = client.secrets.length <= 1;
    const page = o.pathOf(client.clientId);
    return sendPage(
      reply,
      request,
      200,
      'Remove a secret',
      html`${o.crumbs(client)}
<div class="card"><h1>Remove the secret ending in <code>${secret.lastFour}</code>?</h1>
<dl class="facts"><dt>Created</dt><dd>${time(secret.createdAt)}</dd><dt>Last used</dt><dd>${time(secret.lastUsedAt)}</dd></dl>
${last
  ? html`<p class="error" role="alert" id="secret-error">This is the last active secret, so it cannot be removed: a confidential client always keeps one. Add a new secret first, then remove this one.</p>
<div class="actions"><a class="button secondary" href="${page}">Back to the client</a></div>`
  : html`<p class="notice bad">Removal takes effect at once: an application still sending this secret can no longer exchange codes or refresh tokens. Access and refresh tokens issued before keep working.</p>
<form method="post" action="${page}/secrets/${secret.id}/remove">${csrfField(reply.generateCsrf())}
<div class="actions"><button type="submit" class="danger">Remove secret …${secret.lastFour}</button><a class="button secondary" href="${page}">Cancel</a></div></form>`}
</div>`,
    );
  });

  app.post<SecretParams>(`${o.clientRoute}/secrets/:secretId/remove`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const who = await o.access(request, reply, request.params.id);
    if (!who) return reply;
    const { actor, client } = who;
    try {
      await removeSecret(ctx.services, client.clientId, request.params.secretId, actor.id);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
      return redirectWithNotice(ctx, request, reply, o.pathOf(client.clientId), { secretError: sentence(error.message) }, '#secrets');
    }
    return reply.redirect(o.afterRemoval(client.clientId), 303);
  });
}

export async function secretRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  clientSecretRoutes(app, ctx, {
    clientRoute: `${DEVELOPER_CLIENTS}/:id`,
    pathOf: clientPath,
    crumbs: (client) => html`<p class="crumbs"><a href="${DEVELOPER_CLIENTS}">Your OAuth clients</a> › <a href="${clientPath(client.clientId)}">${client.name}</a></p>`,
    access: async (request, reply, clientId) => {
      const user = signedIn(request, reply);
      if (!user) return undefined;
      return { actor: user, client: await ownedClient(ctx.services, user, clientId) };
    },
    afterRemoval: (clientId) => `${clientPath(clientId)}?done=secret-removed#secrets`,
  });
}
