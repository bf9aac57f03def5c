// What an owner sees of their webhooks in the web app (docs/rules.md#webhooks): each webhook with its latest
// deliveries, the same records the /v2 deliveries routes list.
import type { Webhook } from './subscriptions.ts';
import type { ServiceContext } from '../context.ts';
import type { Delivery } from './store.ts';

export interface WebhookWithDeliveries {
  webhook: Webhook;
  deliveries: Delivery[];
}

/** The user's own webhooks, oldest first (at most 50), each with its latest `perWebhook` deliveries. */
export async function personalWebhooks(ctx: ServiceContext, userId: string, perWebhook = 10): Promise<WebhookWithDeliveries[]> {
  const webhooks = await ctx.stores.webhooks.list({ userId }, 50, 0);
  return Promise.all(webhooks.map(async (webhook) => ({ webhook, deliveries: await ctx.stores.webhookDeliveries.list({ webhookId: webhook.id }, perWebhook, 0) })));
}
