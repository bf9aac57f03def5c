// Legacy migration in the developer settings (docs/rules.md#legacy-clients): choose
// scopes, see how many recent requests lacked scope, confirm when that is not zero.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { countScopelessRequests, migrateLegacyClient } from '../../services/clients/changes.ts';
import type { ClientView } from '../../services/clients/view.ts';
import { ServiceError } from '../../services/errors.ts';
import { ownedClient, signedIn } from '../access.ts';
import { collect, errorSummary, fieldError, formBody, invalid, listField, sentence, statusOf, textField, type FieldErrors } from '../forms.ts';
import { checkScopes } from '../../services/clients/input.ts';
import { html } from '../html.ts';
import { csrfField, sendPage } from '../pages.ts';
import { fieldLabels, scopeFieldset } from './client-form.ts';
import { DEVELOPER_CLIENTS, clientPath } from './paths.ts';

type IdParams = { Params: { id: string } };

async function sendMigrationPage(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  client: ClientView,
  status: number,
  selected: string[],
  errors: FieldErrors,
) {
  const scopeless = await countScopelessRequests(ctx.services, client.clientId);
  const action = `${clientPath(client.clientId)}/migrate`;
  return sendPage(
    reply,
    request,
    status,
    `Migrate ${client.name}`,
    html`<p class="crumbs"><a href="${DEVELOPER_CLIENTS}">Your OAuth clients</a> › <a href="${clientPath(client.clientId)}">${client.name}</a></p>
<div class="card"><h1>Give ${client.name} scopes</h1>
<p>A legacy client’s tokens reach everything in each user’s account. After the migration its authorization requests must carry <code>scope</code> and only the scopes chosen here can be requested. The client keeps its client ID and secrets; tokens issued before keep working until the same user authorizes it again.</p>
<ol class="steps"><li>First make your authorization URL carry a <code>scope</code> parameter.</li><li>Then choose the same scopes here and migrate.</li></ol>
<p id="scopeless-count" class="${scopeless > 0 ? 'notice bad' : 'notice'}"><strong>${scopeless}</strong> authorization request${scopeless === 1 ? '' : 's'} of this client in the last 30 days had no <code>scope</code>.${scopeless > 0 ? ' After the migration such requests fail, so users following an old link would see an error.' : ' Nothing suggests that old links are still in use.'}</p>
<form method="post" action="${action}" novalidate>
${errorSummary(errors, fieldLabels)}
${csrfField(reply.generateCsrf())}
${scopeFieldset(selected, errors)}
${scopeless > 0
  ? html`<div class="check confirm" id="confirm">
<input type="checkbox" id="confirm-input" name="confirm" value="yes" ${invalid(errors, 'confirm')}>
<label for="confirm-input">I understand that ${scopeless} recent request${scopeless === 1 ? '' : 's'} without scope would now fail, and I want to migrate.</label>
</div>${fieldError(errors, 'confirm')}`
  : ''}
<div class="actions"><button type="submit">Migrate to scopes</button><a class="button secondary" href="${clientPath(client.clientId)}">Cancel</a></div>
</form></div>`,
  );
}

export async function migrationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  async function legacyClient(request: FastifyRequest<IdParams>, reply: FastifyReply) {
    const user = signedIn(request, reply);
    if (!user) return undefined;
    const client = await ownedClient(ctx.services, user, request.params.id);
    if (!client.legacy) {
      await reply.redirect(clientPath(client.clientId), 303);
      return undefined;
    }
    return { user, client };
  }

  app.get<IdParams>(`${DEVELOPER_CLIENTS}/:id/migrate`, async (request, reply) => {
    const found = await legacyClient(request, reply);
    if (!found) return reply;
    return sendMigrationPage(ctx, request, reply, found.client, 200, [], {});
  });

  app.post<IdParams>(`${DEVELOPER_CLIENTS}/:id/migrate`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const found = await legacyClient(request, reply);
    if (!found) return reply;
    const body = formBody(request);
    const selected = listField(body, 'scopes');
    const errors: FieldErrors = {};
    collect(errors, 'scopes', () => checkScopes(selected));
    if (Object.keys(errors).length > 0) return sendMigrationPage(ctx, request, reply, found.client, 400, selected, errors);
    try {
      await migrateLegacyClient(ctx.services, found.client.clientId, found.user.id, selected, { confirmScopeless: textField(body, 'confirm') === 'yes' });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind === 'not_found') throw error;
      return sendMigrationPage(ctx, request, reply, found.client, statusOf(error), selected, { [error.field ?? 'scopes']: sentence(error.message) });
    }
    return reply.redirect(`${clientPath(found.client.clientId)}?done=migrated`, 303);
  });
}
