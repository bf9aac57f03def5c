// Webhooks of a user (WEBHOOK_*) and of an organization (ORG_WEBHOOK_*), and their recent
// deliveries (docs/rules.md#webhooks); webhooks of an event type of a user (EVENT_TYPE_*) or
// of a team (TEAM_EVENT_TYPE_*), which hear of that event type's bookings only. Subscriber URLs pass the outbound-address check
// (src/services/outbound-url.ts) whenever they are set, and again at every delivery. A new
// webhook's signing secret is in the creation answer only.
import type { AppContext } from '../../context.ts';
import { type Delivery, newSigningSecret, type OutboundPolicy, type Webhook, type WebhookChanges, type WebhookOwner } from '../authorization-server.ts';
import { route, type HandlerMap } from '../handler.ts';
import { checkOutbound, invalid, iso, isoOrNull, notFound } from '../input.ts';
import { arrayOf, bool, deletedNumbered, listQuery, nullable, numberedId, object, patchOf, str, type JsonSchema, type ListQuery } from '../schemas.ts';

export const TRIGGERS = [
  'BOOKING_CREATED',
  'BOOKING_REQUESTED',
  'BOOKING_CONFIRMED',
  'BOOKING_REJECTED',
  'BOOKING_RESCHEDULED',
  'BOOKING_CANCELLED',
  'MEETING_STARTED',
  'MEETING_ENDED',
  'FORM_SUBMITTED',
];

const webhookView: JsonSchema = object(
  {
    id: numberedId,
    subscriberUrl: { type: 'string' },
    triggers: arrayOf({ type: 'string' }, 1, 20),
    active: bool,
    payloadTemplate: nullable({ type: 'string' }),
    ownerId: nullable(numberedId),
    organizationId: nullable(numberedId),
    disabledReason: nullable({ type: 'string', description: 'Why Gatehouse turned the webhook off (every delivery failed for 5 days); setting active to true clears it' }),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'subscriberUrl', 'triggers', 'active', 'payloadTemplate', 'ownerId', 'organizationId', 'disabledReason', 'createdAt', 'updatedAt'],
);

const createdView: JsonSchema = {
  ...webhookView,
  properties: {
    ...(webhookView.properties as object),
    secret: { type: 'string', description: 'The Standard Webhooks signing secret (whsec_…), shown only here: verify every delivery with it' },
  },
  required: [...(webhookView.required as string[]), 'secret'],
};

const deliveryView: JsonSchema = object(
  {
    id: { type: 'string', description: 'The webhook-id header of the delivery, the same on every attempt' },
    event: { type: 'string' },
    createdAt: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    lastAttemptAt: nullable({ type: 'string' }),
    nextAttemptAt: nullable({ type: 'string' }),
    responseStatus: nullable({ type: 'integer' }),
    response: nullable({ type: 'string', description: 'The first 1 KB of the last answer' }),
    error: nullable({ type: 'string', description: 'Why the last attempt got no answer' }),
    payload: { type: 'string', description: 'The JSON body sent' },
  },
  ['id', 'event', 'createdAt', 'status', 'attempts', 'lastAttemptAt', 'nextAttemptAt', 'responseStatus', 'response', 'error', 'payload'],
);

export const delivery = (d: Delivery) => ({
  id: d.id,
  event: d.event,
  createdAt: iso(d.createdAt),
  status: d.status,
  attempts: d.attempts,
  lastAttemptAt: isoOrNull(d.lastAttemptAt),
  nextAttemptAt: d.status === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
  responseStatus: d.responseStatus,
  response: d.responseBody,
  error: d.error,
  payload: d.payload,
});

const webhook = (w: Webhook) => ({
  id: w.id,
  subscriberUrl: w.subscriberUrl,
  triggers: w.triggers,
  active: w.active,
  payloadTemplate: w.payloadTemplate,
  ownerId: w.ownerId,
  organizationId: w.organizationId,
  disabledReason: w.disabledReason,
  createdAt: iso(w.createdAt),
  updatedAt: iso(w.updatedAt),
});

const fields = {
  subscriberUrl: str(1, 2048),
  triggers: { ...arrayOf({ type: 'string', enum: TRIGGERS }, 1, 20), uniqueItems: true },
  active: bool,
  payloadTemplate: nullable(str(0, 10_000)),
};

interface WebhookInput {
  subscriberUrl: string;
  triggers: string[];
  active?: boolean;
  payloadTemplate?: string | null;
}

/** docs/rules.md#webhooks: a subscriber on a private address is refused when registered, created or moved. */
async function changes(body: Partial<WebhookInput>, now: number, outbound: OutboundPolicy): Promise<WebhookChanges> {
  return {
    ...(body.subscriberUrl !== undefined ? { subscriberUrl: (await checkOutbound(body.subscriberUrl, 'subscriberUrl', outbound)).toString() } : {}),
    ...(body.triggers !== undefined ? { triggers: body.triggers } : {}),
    ...(body.active !== undefined ? { active: body.active } : {}),
    ...(body.payloadTemplate !== undefined ? { payloadTemplate: body.payloadTemplate } : {}),
    updatedAt: now,
  };
}

type Call = { userId: string; facts: { organization?: { id: string } | null; team?: { id: string } | null } };

export function webhookHandlers(deps: AppContext): HandlerMap {
  const mine = webhookRoutes(deps, 'user');
  const org = webhookRoutes(deps, 'organization');
  return {
    'webhooks.list': mine.list,
    'webhooks.create': mine.create,
    'webhooks.get': mine.get,
    'webhooks.update': mine.update,
    'webhooks.delete': mine.delete,
    'webhooks.deliveries': mine.deliveries,
    'webhooks.redeliver': mine.redeliver,
    'orgWebhooks.list': org.list,
    'orgWebhooks.create': org.create,
    'orgWebhooks.get': org.get,
    'orgWebhooks.update': org.update,
    'orgWebhooks.delete': org.delete,
    'orgWebhooks.deliveries': org.deliveries,
    'orgWebhooks.redeliver': org.redeliver,
    ...eventTypeWebhookHandlers(deps),
  };
}

/** List, create, read, change and delete the webhooks of a user or an organization. */
function webhookRoutes(deps: AppContext, kind: 'user' | 'organization') {
  const { clock } = deps.services;
  const webhooks = deps.services.stores.webhooks;
  const deliveries = deps.services.stores.webhookDeliveries;

  const owner = (call: Call): WebhookOwner => (kind === 'user' ? { userId: call.userId } : { organizationId: call.facts.organization!.id });
  const load = async (call: Call, id: string) => {
    const found = await webhooks.find(owner(call), id);
    if (found === undefined) throw notFound('webhook');
    return found;
  };
  return {
    list: route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(webhookView, 0, 100),
      handle: async (call) => (await webhooks.list(owner(call), call.query.limit, call.query.offset)).map(webhook),
    }),
    create: route<WebhookInput>({
      body: object(fields, ['subscriberUrl', 'triggers']),
      data: createdView,
      status: 201,
      handle: async (call) => {
        const now = clock();
        const o = owner(call);
        // Checked before an id is taken: a refused request leaves the series as it was.
        const given = await changes(call.body, now, deps.outbound);
        const created: Webhook = {
          id: await deps.services.stores.ids.next('webhooks'),
          ownerId: 'userId' in o ? o.userId : null,
          organizationId: 'organizationId' in o ? o.organizationId : null,
          eventTypeId: null,
          subscriberUrl: '',
          triggers: [],
          active: true,
          payloadTemplate: null,
          disabledReason: null,
          createdAt: now,
          ...given,
        };
        const secret = newSigningSecret();
        await webhooks.insert(created, secret);
        return { ...webhook(created), secret };
      },
    }),
    get: route<unknown, unknown, { webhookId: string }>({ data: webhookView, handle: async (call) => webhook(await load(call, call.params.webhookId)) }),
    update: route<Partial<WebhookInput>, unknown, { webhookId: string }>({
      body: patchOf(fields),
      data: webhookView,
      handle: async (call) => {
        await load(call, call.params.webhookId);
        return webhook((await webhooks.update(owner(call), call.params.webhookId, await changes(call.body, clock(), deps.outbound)))!);
      },
    }),
    delete: route<unknown, unknown, { webhookId: string }>({
      data: deletedNumbered,
      handle: async (call) => {
        if (!(await webhooks.delete(owner(call), call.params.webhookId))) throw notFound('webhook');
        return { id: call.params.webhookId, deleted: true };
      },
    }),
    deliveries: route<unknown, ListQuery, { webhookId: string }>({
      query: listQuery(),
      data: arrayOf(deliveryView, 0, 100),
      handle: async (call) => {
        const { id } = await load(call, call.params.webhookId);
        return (await deliveries.list({ webhookId: id }, call.query.limit, call.query.offset)).map(delivery);
      },
    }),
    redeliver: route<unknown, unknown, { webhookId: string; deliveryId: string }>({
      data: deliveryView,
      status: 201,
      handle: async (call) => {
        const { id } = await load(call, call.params.webhookId);
        const copy = await deliveries.redeliver({ webhookId: id }, call.params.deliveryId, clock());
        if (copy === undefined) throw notFound('delivery');
        return delivery((await deliveries.find({ webhookId: id }, copy))!);
      },
    }),
  };
}

/** An event type's webhook in the platform's shape (EventTypeWebhookOutputDto), with Gatehouse's own fields beside it. */
const eventTypeWebhookView: JsonSchema = object(
  {
    id: numberedId,
    eventTypeId: numberedId,
    subscriberUrl: { type: 'string' },
    triggers: arrayOf({ type: 'string' }, 1, 20),
    active: bool,
    payloadTemplate: nullable({ type: 'string', description: 'null when none was set: the delivery carries the standard envelope' }),
    disabledReason: nullable({ type: 'string', description: 'Why Gatehouse turned the webhook off (every delivery failed for 5 days); setting active to true clears it' }),
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
  },
  ['id', 'eventTypeId', 'subscriberUrl', 'triggers', 'active', 'payloadTemplate', 'disabledReason', 'createdAt', 'updatedAt'],
);

const eventTypeWebhookCreatedView: JsonSchema = {
  ...eventTypeWebhookView,
  properties: { ...(eventTypeWebhookView.properties as object), secret: (createdView.properties as Record<string, JsonSchema>).secret! },
  required: [...(eventTypeWebhookView.required as string[]), 'secret'],
};

const eventTypeWebhook = (w: Webhook) => ({
  id: w.id,
  eventTypeId: w.eventTypeId!,
  subscriberUrl: w.subscriberUrl,
  triggers: w.triggers,
  active: w.active,
  payloadTemplate: w.payloadTemplate,
  disabledReason: w.disabledReason,
  createdAt: iso(w.createdAt),
  updatedAt: iso(w.updatedAt),
});

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

function eventTypeWebhookHandlers(deps: AppContext): HandlerMap {
  const mine = eventTypeWebhookRoutes(deps, 'user');
  const team = eventTypeWebhookRoutes(deps, 'team');
  return {
    'eventTypeWebhooks.list': mine.list,
    'eventTypeWebhooks.create': mine.create,
    'eventTypeWebhooks.deleteAll': mine.deleteAll,
    'eventTypeWebhooks.get': mine.get,
    'eventTypeWebhooks.update': mine.update,
    'eventTypeWebhooks.delete': mine.delete,
    'teamEventTypeWebhooks.list': team.list,
    'teamEventTypeWebhooks.create': team.create,
    'teamEventTypeWebhooks.deleteAll': team.deleteAll,
    'teamEventTypeWebhooks.get': team.get,
    'teamEventTypeWebhooks.update': team.update,
    'teamEventTypeWebhooks.delete': team.delete,
  };
}

type EventTypeParams = { eventTypeId: string };
type WebhookParams = { eventTypeId: string; webhookId: string };

/**
 * The webhooks of an event type of the token's user, or of the path's team. An event type the
 * caller cannot reach is 404, as on the event type's own routes; so is a webhook of another
 * event type.
 */
function eventTypeWebhookRoutes(deps: AppContext, kind: 'user' | 'team') {
  const { clock } = deps.services;
  const webhooks = deps.services.stores.webhooks;
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
        const owner = await ofEventType(call);
        const now = clock();
        // Checked before an id is taken: a refused request leaves the series as it was.
        const given = await changes(call.body, now, deps.outbound);
        const created: Webhook = {
          id: await deps.services.stores.ids.next('webhooks'),
          ownerId: null,
          organizationId: null,
          eventTypeId: owner.eventTypeId,
          subscriberUrl: '',
          triggers: [],
          active: true,
          payloadTemplate: null,
          disabledReason: null,
          createdAt: now,
          ...given,
        };
        const secret = newSigningSecret();
        await webhooks.insert(created, secret);
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
  };
}
