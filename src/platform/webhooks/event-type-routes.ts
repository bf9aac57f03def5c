// The webhooks of an event type of a user (EVENT_TYPE_*) or of a team (TEAM_EVENT_TYPE_*), at
// Cal.com API v2's addresses: they hear of that event type's bookings only
// (docs/rules.md#webhooks). Making or changing one also needs the scope that reads those
// bookings, which the route table states and the guard checks (table.ts, alsoNeeds).
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { arrayOf, listQuery, numberedId, object, patchOf, type ListQuery } from '../schemas.ts';
import { fields } from './input.ts';
import { createWebhook, deleteWebhook, deleteWebhooks, findWebhook, listDeliveries, listWebhooks, redeliver, updateWebhook, type Webhook, type WebhookInput, type WebhookScope } from './service.ts';
import { delivery, deliveryView, webhookAnswer, webhookSchema, withSecret } from './views.ts';

type Call = { userId: string; facts: { organization?: { id: string } | null; team?: { id: string } | null } };

/** An event type's webhook in the platform's shape (EventTypeWebhookOutputDto), with Gatehouse's own fields beside it: its event type right after the id. */
const eventTypeWebhookView = webhookSchema({ afterId: { eventTypeId: numberedId } }, 'null when none was set: the delivery carries the standard envelope');

const eventTypeWebhookCreatedView = withSecret(eventTypeWebhookView);

const eventTypeWebhook = (w: Webhook) => webhookAnswer(w, { afterId: { eventTypeId: w.eventTypeId! } });

/** The platform's `secret`, stated so that the service refuses it by name (service.ts) rather than as an unknown field. */
const eventTypeFields = { ...fields, secret: { type: 'string', description: 'Refused: Gatehouse makes the signing secret and shows it in the creation answer' } };

export function eventTypeWebhookHandlers(deps: PlatformDeps): HandlerMap {
  const mine = eventTypeWebhookRoutes(deps, 'user');
  const team = eventTypeWebhookRoutes(deps, 'team');
  return {
    'eventTypeWebhooks.list': mine.list,
    'eventTypeWebhooks.create': mine.create,
    'eventTypeWebhooks.deleteAll': mine.deleteAll,
    'eventTypeWebhooks.get': mine.get,
    'eventTypeWebhooks.update': mine.update,
    'eventTypeWebhooks.delete': mine.delete,
    'eventTypeWebhooks.deliveries': mine.deliveries,
    'eventTypeWebhooks.redeliver': mine.redeliver,
    'teamEventTypeWebhooks.list': team.list,
    'teamEventTypeWebhooks.create': team.create,
    'teamEventTypeWebhooks.deleteAll': team.deleteAll,
    'teamEventTypeWebhooks.get': team.get,
    'teamEventTypeWebhooks.update': team.update,
    'teamEventTypeWebhooks.delete': team.delete,
    'teamEventTypeWebhooks.deliveries': team.deliveries,
    'teamEventTypeWebhooks.redeliver': team.redeliver,
  };
}

type EventTypeParams = { eventTypeId: string };
type WebhookParams = { eventTypeId: string; webhookId: string };

/**
 * The webhooks of an event type of the token's user, or of the path's team. An event type the
 * caller cannot reach is 404, as on the event type's own routes; so is a webhook of another
 * event type (service.ts).
 */
function eventTypeWebhookRoutes(deps: PlatformDeps, kind: 'user' | 'team') {
  const ctx = deps.services;
  const scope = (call: Call & { params: EventTypeParams }): WebhookScope => ({
    eventTypeId: call.params.eventTypeId,
    owner: kind === 'user' ? { userId: call.userId } : { teamId: call.facts.team!.id },
  });
  return {
    list: route<unknown, ListQuery, EventTypeParams>({
      query: listQuery(),
      data: arrayOf(eventTypeWebhookView, 0, 100),
      handle: async (call) => (await listWebhooks(ctx, scope(call), call.query.limit, call.query.offset)).map(eventTypeWebhook),
    }),
    create: route<WebhookInput, unknown, EventTypeParams>({
      body: object(eventTypeFields, ['subscriberUrl', 'triggers']),
      data: eventTypeWebhookCreatedView,
      status: 201,
      handle: async (call) => {
        const { created, secret } = await createWebhook(ctx, deps, scope(call), call.body);
        return { ...eventTypeWebhook(created), secret };
      },
    }),
    deleteAll: route<unknown, unknown, EventTypeParams>({
      data: { type: 'string', description: 'How many webhooks were deleted, in words: "2 webhooks deleted"' },
      handle: async (call) => `${await deleteWebhooks(ctx, scope(call))} webhooks deleted`,
    }),
    get: route<unknown, unknown, WebhookParams>({ data: eventTypeWebhookView, handle: async (call) => eventTypeWebhook(await findWebhook(ctx, scope(call), call.params.webhookId)) }),
    update: route<Partial<WebhookInput>, unknown, WebhookParams>({
      body: patchOf(eventTypeFields),
      data: eventTypeWebhookView,
      handle: async (call) => eventTypeWebhook(await updateWebhook(ctx, deps, scope(call), call.params.webhookId, call.body)),
    }),
    delete: route<unknown, unknown, WebhookParams>({
      data: eventTypeWebhookView,
      handle: async (call) => eventTypeWebhook(await deleteWebhook(ctx, scope(call), call.params.webhookId)),
    }),
    // What was sent, as a user's own webhooks show it (docs/integrating.md#webhooks).
    deliveries: route<unknown, ListQuery, WebhookParams>({
      query: listQuery(),
      data: arrayOf(deliveryView, 0, 100),
      handle: async (call) => (await listDeliveries(ctx, scope(call), call.params.webhookId, call.query.limit, call.query.offset)).map(delivery),
    }),
    redeliver: route<unknown, unknown, WebhookParams & { deliveryId: string }>({
      data: deliveryView,
      status: 201,
      handle: async (call) => delivery(await redeliver(ctx, scope(call), call.params.webhookId, call.params.deliveryId)),
    }),
  };
}
