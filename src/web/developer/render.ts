// Rendering a developer's client page with everything it shows; used by several routes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { countScopelessRequests } from '../../services/clients/changes.ts';
import { listClientEvents } from '../../services/clients/events.ts';
import { clientEventsView } from '../../services/webhooks/client-events.ts';
import type { ClientView } from '../../services/clients/view.ts';
import type { User } from '../../services/accounts/users.ts';
import { METADATA_PATH, PAR_PATH, TOKEN_PATH } from '../../http/oauth/paths.ts';
import { AUTHORIZE_PATH } from '../../http/oauth/paths.ts';
import { sendPage } from '../pages.ts';
import { clientPage, type ClientPageData } from './client-page.ts';

/** Notices after a redirect, by key: a fixed list, so nothing from the URL is echoed. */
export const notices = {
  saved: 'Your changes are saved.',
  held: 'Saved. New redirect URIs and scopes await a platform admin’s review; the approved configuration stays live until then.',
  resubmitted: 'Saved and resubmitted for review.',
  unchanged: 'Nothing changed.',
  'secret-removed': 'The secret was removed and stopped working at once. Tokens issued before keep working.',
  'events-url-saved': 'The events URL is saved.',
  'events-url-saved-secret-made-before': 'The events URL is saved. Its signing secret was made when this form was sent before, and shown once then; if nobody copied it, rotate it.',
  'events-url-removed': 'The events URL is removed: the application is no longer notified.',
  migrated: 'Migrated: the client now has scopes, and every authorization request must carry scope.',
} as const;

export type NoticeKey = keyof typeof notices;

export function noticeFrom(query: unknown): string | undefined {
  const key = (query as { done?: unknown } | undefined)?.done;
  // Own keys only: `in` would also find Object.prototype's (?done=constructor).
  return typeof key === 'string' && Object.hasOwn(notices, key) ? notices[key as NoticeKey] : undefined;
}

export async function sendClientPage(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  client: ClientView,
  status: number,
  extra: Pick<ClientPageData, 'notice' | 'secretError' | 'newSecret' | 'eventsUrlError' | 'newEventsSecret'> = {},
): Promise<FastifyReply> {
  const data: ClientPageData = {
    client,
    events: await listClientEvents(ctx.services, client.clientId),
    viewer: { id: user.id, admin: user.isAdmin },
    urls: {
      issuer: ctx.config.issuer,
      metadata: `${ctx.config.baseUrl}${METADATA_PATH}`,
      authorize: `${ctx.config.appUrl}${AUTHORIZE_PATH}`,
      token: `${ctx.config.baseUrl}${TOKEN_PATH}`,
      par: `${ctx.config.baseUrl}${PAR_PATH}`,
    },
    csrf: reply.generateCsrf(),
    scopeless: client.legacy ? await countScopelessRequests(ctx.services, client.clientId) : null,
    applicationEvents: await clientEventsView(ctx.services, client.clientId),
    ...extra,
  };
  // A page that may carry a secret must not be kept by any cache.
  reply.header('cache-control', 'no-store');
  return sendPage(reply, request, status, client.name, clientPage(data));
}
