// Writing events to the outbox (docs/rules.md#webhooks). Callers pass the stores of the transaction that
// makes the change, so an event exists exactly when its change committed; delivery happens
// later, from whichever instance claims it (engine.ts). Notifications to a client's events
// URL are the store's own `notifyClient`, which the core's store writes as well.
import type { EventOwner, WebhookDeliveryStore } from './store.ts';

/**
 * An event of the platform (a booking changed, a form was answered): one delivery per active
 * webhook of its owner subscribed to the trigger. `stores`: those of the change's transaction.
 */
export async function publishEvent(stores: { webhookDeliveries: WebhookDeliveryStore }, trigger: string, owner: EventOwner, data: Record<string, unknown>, now: number): Promise<void> {
  const webhooks = await stores.webhookDeliveries.subscribedWebhooks(trigger, owner);
  await stores.webhookDeliveries.enqueue(webhooks.map((webhookId) => ({ webhookId })), trigger, data, now);
}
