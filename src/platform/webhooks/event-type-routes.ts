// The webhooks of an event type of a user (EVENT_TYPE_*) or of a team (TEAM_EVENT_TYPE_*), at
// Cal.com API v2's addresses: they hear of that event type's bookings only
// (docs/rules.md#webhooks). Making or changing one also needs the scope that reads those
// bookings, which the route table states and the guard checks (table.ts, alsoNeeds).
import type { PlatformDeps } from '../deps.ts';
import type { Webhook, WebhookOwner } from '../authorization-server.ts';
import { route, type HandlerMap } from '../handler.ts';
import { invalid, notFound } from '../input.ts';
import { arrayOf, listQuery, numberedId, object, patchOf, type ListQuery } from '../schemas.ts';
import { changes, fields, newWebhook, type WebhookInput } from './input.ts';
import { delivery, deliveryView, webhookAnswer, webhookSchema, withSecret } from './views.ts';

type Call = { userId: string; facts: { organization?: { id: string } | null; team?: { id: string } | null } };

/** An event type's webhook in the platform's shape (EventTypeWebhookOutputDto), with Gatehouse's own fields beside it: its event type right after the id. */
const eventTypeWebhookView = webhookSchema({ afterId: { eventTypeId: numberedId } }, 'null when none was set: the delivery carries the standard envelope');

const eventTypeWebhookCreatedView = withSecret(eventTypeWebhookView);

const eventTypeWebhook = (w: Webhook) => webhookAnswer(w, { afterId: { eventTypeId: w.eventTypeId! } });

/**
 * The platform lets a caller choose the secret; Gatehouse signs every delivery the Standard
 * Webhooks way with a whsec_ secret of its own making (docs/integrating.md#webhooks), so a
 * chosen one is refused rather than dropped: a subscriber checking with it would reject
 * every delivery.
 */
const eventTypeFields = { ...fields, secret: { type: 'string', description: 'Refused: Gatehouse makes the signing secret and shows it in the creation answer' } };

function refuseChosenSecret(body: { secret?: string }): void {
  if (body.secret !== undefined) throw invalid('secret', 'Gatehouse makes the signing secret (whsec_…) and returns it in the creation answer; leave secret out');
}

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
 * event type.
 */
function eventTypeWebhookRoutes(deps: PlatformDeps, kind: 'user' | 'team') {
  const { clock } = deps.services;
  const webhooks = deps.services.stores.webhooks;
  const deliveries = deps.services.stores.webhookDeliveries;
  const eventTypes = deps.services.stores.api.eventTypes;

  const ofEventType = async (call: Call & { params: EventTypeParams }): Promise<WebhookOwner & { eventTypeId: string }> => {
    const owner = kind === 'user' ? { userId: call.userId } : { teamId: call.facts.team!.id };
    const found = await eventTypes.findOwned(owner, call.params.eventTypeId);
    if (found === undefined) throw notFound('event type');
    return { eventTypeId: found.id };
  };
  const load = async (call: Call & { params: WebhookParams }) => {
    const owner = await ofEventType(call);
    const found = await webhooks.find(owner, call.params.webhookId);
    if (found === undefined) throw notFound('webhook');
    return { owner, found };
  };
  return {
    list: route<unknown, ListQuery, EventTypeParams>({
      query: listQuery(),
      data: arrayOf(eventTypeWebhookView, 0, 100),
      handle: async (call) => (await webhooks.list(await ofEventType(call), call.query.limit, call.query.offset)).map(eventTypeWebhook),
    }),
    create: route<WebhookInput & { secret?: string }, unknown, EventTypeParams>({
      body: object(eventTypeFields, ['subscriberUrl', 'triggers']),
      data: eventTypeWebhookCreatedView,
      status: 201,
      handle: async (call) => {
        refuseChosenSecret(call.body);
        const { created, secret } = await newWebhook(deps, await ofEventType(call), call.body);
        return { ...eventTypeWebhook(created), secret };
      },
    }),
    deleteAll: route<unknown, unknown, EventTypeParams>({
      data: { type: 'string', description: 'How many webhooks were deleted, in words: "2 webhooks deleted"' },
      handle: async (call) => `${await webhooks.deleteAll(await ofEventType(call))} webhooks deleted`,
    }),
    get: route<unknown, unknown, WebhookParams>({ data: eventTypeWebhookView, handle: async (call) => eventTypeWebhook((await load(call)).found) }),
    update: route<Partial<WebhookInput> & { secret?: string }, unknown, WebhookParams>({
      body: patchOf(eventTypeFields),
      data: eventTypeWebhookView,
      handle: async (call) => {
        refuseChosenSecret(call.body);
        const { owner } = await load(call);
        const saved = await webhooks.update(owner, call.params.webhookId, await changes(call.body, clock(), deps.outbound));
        if (saved === undefined) throw notFound('webhook');
        return eventTypeWebhook(saved);
      },
    }),
    delete: route<unknown, unknown, WebhookParams>({
      data: eventTypeWebhookView,
      handle: async (call) => {
        const { owner, found } = await load(call);
        if (!(await webhooks.delete(owner, found.id))) throw notFound('webhook');
        return eventTypeWebhook(found);
      },
    }),
    // What was sent, as a user's own webhooks show it (docs/integrating.md#webhooks).
    deliveries: route<unknown, ListQuery, WebhookParams>({
      query: listQuery(),
      data: arrayOf(deliveryView, 0, 100),
      handle: async (call) => {
        const { found } = await load(call);
        return (await deliveries.list({ webhookId: found.id }, call.query.limit, call.query.offset)).map(delivery);
      },
    }),
    redeliver: route<unknown, unknown, WebhookParams & { deliveryId: string }>({
      data: deliveryView,
      status: 201,
      handle: async (call) => {
        const { found } = await load(call);
        const copy = await deliveries.redeliver({ webhookId: found.id }, call.params.deliveryId, clock());
        if (copy === undefined) throw notFound('delivery');
        return delivery((await deliveries.find({ webhookId: found.id }, copy))!);
      },
    }),
  };
}
