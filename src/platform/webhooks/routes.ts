// Webhooks of a user (WEBHOOK_*) and of an organization (ORG_WEBHOOK_*), and their recent
// deliveries (docs/rules.md#webhooks); an event type's webhooks are event-type-routes.ts's.
// Their rules, one set for every owner, are the service's (service.ts): the subscriber URL's
// outbound-address check, the signing secret shown in the creation answer only, and whose
// webhooks a call reaches.
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { eventTypeWebhookHandlers } from './event-type-routes.ts';
import { fields } from './input.ts';
import { createWebhook, deleteWebhook, findWebhook, listDeliveries, listWebhooks, redeliver, updateWebhook, type Webhook, type WebhookInput, type WebhookScope } from './service.ts';
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

type WebhookParams = { webhookId: string };

/** List, create, read, change and delete the webhooks of a user or an organization. */
function webhookRoutes(deps: PlatformDeps, kind: 'user' | 'organization') {
  const ctx = deps.services;
  const scope = (call: Call): WebhookScope => (kind === 'user' ? { userId: call.userId } : { organizationId: call.facts.organization!.id });
  return {
    list: route<unknown, ListQuery>({
      query: listQuery(),
      data: arrayOf(webhookView, 0, 100),
      handle: async (call) => (await listWebhooks(ctx, scope(call), call.query.limit, call.query.offset)).map(webhook),
    }),
    create: route<WebhookInput>({
      body: object(fields, ['subscriberUrl', 'triggers']),
      data: createdView,
      status: 201,
      handle: async (call) => {
        const { created, secret } = await createWebhook(ctx, deps, scope(call), call.body);
        return { ...webhook(created), secret };
      },
    }),
    get: route<unknown, unknown, WebhookParams>({ data: webhookView, handle: async (call) => webhook(await findWebhook(ctx, scope(call), call.params.webhookId)) }),
    update: route<Partial<WebhookInput>, unknown, WebhookParams>({
      body: patchOf(fields),
      data: webhookView,
      handle: async (call) => webhook(await updateWebhook(ctx, deps, scope(call), call.params.webhookId, call.body)),
    }),
    delete: route<unknown, unknown, WebhookParams>({
      data: deletedNumbered,
      handle: async (call) => ({ id: (await deleteWebhook(ctx, scope(call), call.params.webhookId)).id, deleted: true }),
    }),
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
