// Secret rotation in the developer settings (seed §3 and §5.4; SPEC §2 items 3 and 15):
// add (shown once), remove after a confirmation step; at most 2 active, never fewer than 1.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../http/context.ts';
import { requireClient } from '../../services/clients.ts';
import { ServiceError } from '../../services/errors.ts';
import { addSecret, removeSecret } from '../../services/secrets.ts';
import { ownedClient, signedIn } from '../access.ts';
import { sentence, statusOf } from '../forms.ts';
import { time } from '../format.ts';
import { html } from '../html.ts';
import { csrfField, sendErrorPage, sendPage } from '../pages.ts';
import { DEVELOPER_CLIENTS, clientPath } from './paths.ts';
import { sendClientPage } from './render.ts';

type SecretParams = { Params: { id: string; secretId: string } };

export async function secretRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<{ Params: { id: string } }>(`${DEVELOPER_CLIENTS}/:id/secrets`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const client = await ownedClient(ctx.services, user, request.params.id);
    try {
      const created = await addSecret(ctx.services, client.clientId, user.id);
      return sendClientPage(ctx, request, reply, user, await requireClient(ctx.services, client.clientId), 201, {
        newSecret: { secret: created.secret, lastFour: created.secret.slice(-4) },
      });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
      // e.g. a third secret (409): the page says why, beside the secrets.
      return sendClientPage(ctx, request, reply, user, await requireClient(ctx.services, client.clientId), statusOf(error), {
        secretError: sentence(error.message),
      });
    }
  });

  app.get<SecretParams>(`${DEVELOPER_CLIENTS}/:id/secrets/:secretId/remove`, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const client = await ownedClient(ctx.services, user, request.params.id);
    const secret = client.secrets.find((s) => s.id === request.params.secretId);
    if (secret === undefined) return sendErrorPage(reply, request, 404, 'Not found', 'This client has no active secret with this id. It may have been removed already.');
    const last = client.secrets.length <= 1;
    return sendPage(
      reply,
      request,
      200,
      'Remove a secret',
      html`<p class="crumbs"><a href="${DEVELOPER_CLIENTS}">Your OAuth clients</a> › <a href="${clientPath(client.clientId)}">${client.name}</a></p>
<div class="card"><h1>Remove the secret ending in <code>${secret.lastFour}</code>?</h1>
<dl class="facts"><dt>Created</dt><dd>${time(secret.createdAt)}</dd><dt>Last used</dt><dd>${time(secret.lastUsedAt)}</dd></dl>
${last
  ? html`<p class="error" role="alert" id="secret-error">This is the last active secret, so it cannot be removed: a confidential client always keeps one. Add a new secret first, then remove this one.</p>
<div class="actions"><a class="button secondary" href="${clientPath(client.clientId)}">Back to the client</a></div>`
  : html`<p class="notice bad">Removal takes effect at once: an application still sending this secret can no longer exchange codes or refresh tokens. Access and refresh tokens issued before keep working.</p>
<form method="post" action="${clientPath(client.clientId)}/secrets/${secret.id}/remove">${csrfField(reply.generateCsrf())}
<div class="actions"><button type="submit" class="danger">Remove secret …${secret.lastFour}</button><a class="button secondary" href="${clientPath(client.clientId)}">Cancel</a></div></form>`}
</div>`,
    );
  });

  app.post<SecretParams>(`${DEVELOPER_CLIENTS}/:id/secrets/:secretId/remove`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const client = await ownedClient(ctx.services, user, request.params.id);
    try {
      await removeSecret(ctx.services, client.clientId, request.params.secretId, user.id);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
      return sendClientPage(ctx, request, reply, user, client, statusOf(error), { secretError: sentence(error.message) });
    }
    return reply.redirect(`${clientPath(client.clientId)}?done=secret-removed#secrets`, 303);
  });
}
