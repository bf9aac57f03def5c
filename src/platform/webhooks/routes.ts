// Webhooks of a user (WEBHOOK_*) and of an organization (ORG_WEBHOOK_*), and their recent
// deliveries (docs/rules.md#webhooks); an event type's webhooks are event-type-routes.ts's.
// Subscriber URLs pass the outbound-address check (src/services/outbound-url.ts) whenever they
// are set, and again at every delivery. A new webhook's signing secret is in the creation
// answer only.
import type { PlatformDeps } from '../deps.ts';
import { type Webhook, type WebhookOwner } from '../authorization-server.ts';
import { route, type HandlerMap } from '../handler.ts';
import { notFound } from '../input.ts';
import { eventTypeWebhookHandlers } from './event-type-routes.ts';
import { changes, fields, newWebhook, type WebhookInput } from './input.ts';
import { delivery, deliveryView, webhookAnswer, webhookSchema, withSecret } from './views.ts';
import { arrayOf, deletedNumbered, listQuery, nullable, numberedId, object, patchOf, type ListQuery } from '../schemas.ts';

/** A user's or an organization's webhook names its owner after the subscription (WebhookOutputDto). */
const webhookView = webhookSchema({ afterSubscription: { ownerId: nullable(numberedId), organizationId: nullable(numberedId) } });
const createdView = withSecret(webhookView);

const webhook = (w: Webhook) => webhookAnswer(w, { afterSubscription: { ownerId: w.ownerId, organizationId: w.organizationId } });

type Call = { userId: string; facts: { organization?: { id: string } | null; team?: { id: string } | null } };

export function webhookHandlers(deps: PlatformDeps): HandlerMap {
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
function webhookRoutes(deps: PlatformDeps, kind: 'user' | 'organization') {
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
        const { created, secret } = await newWebhook(deps, owner(call), call.body);
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
