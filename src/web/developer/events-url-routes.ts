// The events URL of a client in the developer settings (docs/rules.md#client-events): save or
// remove it, rotate its signing secret. A new secret is drawn on the client page this once:
// the page the redirect leads to, from a one-time notice (SECURITY.md), so a reload
// neither rotates the secret again nor shows it twice. Both forms carry the signing secret
// their page showed, so the same form sent twice (a double click) makes or rotates one.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ServiceError } from '../../services/errors.ts';
import { rotateEventsSecret, setEventsUrl } from '../../services/webhooks/client-events.ts';
import { ownedClient, signedIn } from '../access.ts';
import { formBody, sentence, statusOf, textField } from '../forms.ts';
import { redirectWithNotice } from '../notices.ts';
import { SHOWN_SIGNING_SECRET } from './client-page.ts';
import { DEVELOPER_CLIENTS, clientPath } from './paths.ts';
import { notices, sendClientPage } from './render.ts';

type EventsUrlRequest = { Params: { id: string }; Body: { eventsUrl?: unknown } | undefined };

export async function eventsUrlRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<EventsUrlRequest>(`${DEVELOPER_CLIENTS}/:id/events-url`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const client = await ownedClient(ctx.services, user, request.params.id);
    const value = typeof request.body?.eventsUrl === 'string' ? request.body.eventsUrl : '';
    try {
      const shown = textField(formBody(request), SHOWN_SIGNING_SECRET, 100);
      const { secret, madeSince } = await setEventsUrl(ctx.services, client.clientId, value, ctx.outbound, user.id, shown);
      if (secret !== undefined) return redirectWithNotice(ctx, request, reply, clientPath(client.clientId), { flash: notices['events-url-saved'], newEventsSecret: secret }, '#events-url');
      if (madeSince) return reply.redirect(`${clientPath(client.clientId)}?done=events-url-saved-secret-made-before#events-url`, 303);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.kind !== 'validation') throw error;
      return sendClientPage(ctx, request, reply, user, client, statusOf(error), { eventsUrlError: sentence(error.message) });
    }
    return reply.redirect(`${clientPath(client.clientId)}?done=${value.trim() === '' ? 'events-url-removed' : 'events-url-saved'}#events-url`, 303);
  });

  app.post<{ Params: { id: string } }>(`${DEVELOPER_CLIENTS}/:id/events-secret`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const user = signedIn(request, reply);
    if (!user) return reply;
    const client = await ownedClient(ctx.services, user, request.params.id);
    try {
      const secret = await rotateEventsSecret(ctx.services, client.clientId, user.id, textField(formBody(request), SHOWN_SIGNING_SECRET, 100));
      return redirectWithNotice(ctx, request, reply, clientPath(client.clientId), { newEventsSecret: secret }, '#events-url');
    } catch (error) {
      // Rotated since the page was shown: the page says so beside the form, and nothing changed.
      if (!(error instanceof ServiceError) || error.kind !== 'conflict') throw error;
      return redirectWithNotice(ctx, request, reply, clientPath(client.clientId), { eventsUrlError: sentence(error.message) }, '#events-url');
    }
  });
}
