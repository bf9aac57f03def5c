// Writing events to the outbox (SPEC §9). Callers pass the stores of the transaction that
// makes the change, so an event exists exactly when its change committed; delivery happens
// later, from whichever instance claims it (engine.ts).
import { randomId } from '../../oauth/token-format.ts';
import type { ClientNotification } from '../../oauth/storage.ts';
import type { Destination, EventOwner, WebhookDeliveryStore } from './store.ts';

/** Application notifications to a client's events URL (SPEC §9, second paragraph). */
export type ClientWebhookEvent = ClientNotification | 'authorization.revoked' | 'client.suspended' | 'client.approved';

/** The body every delivery carries: Standard Webhooks' recommended envelope. */
export function envelope(type: string, at: number, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });
}

const messageId = () => `msg_${randomId()}`;

function toEach(store: WebhookDeliveryStore, destinations: Destination[], event: string, payload: string, now: number) {
  return store.enqueue(destinations.map((destination) => ({ id: messageId(), destination, event, payload, createdAt: now })));
}

/**
 * An event of the platform (a booking changed, a form was answered): one delivery per active
 * webhook of its owner subscribed to the trigger. `stores`: those of the change's transaction.
 */
export async function publishEvent(stores: { webhookDeliveries: WebhookDeliveryStore }, trigger: string, owner: EventOwner, data: Record<string, unknown>, now: number): Promise<void> {
  const webhooks = await stores.webhookDeliveries.subscribedWebhooks(trigger, owner);
  await toEach(stores.webhookDeliveries, webhooks.map((webhookId) => ({ webhookId })), trigger, envelope(trigger, now, data), now);
}

/** One delivery to the client's events URL, when it has one and a signing secret to sign with. */
export async function recordClientEvent(store: WebhookDeliveryStore, clientId: string, event: ClientWebhookEvent, data: Record<string, unknown>, now: number): Promise<void> {
  const settings = await store.clientEvents(clientId);
  if (settings.eventsUrl === null || !settings.hasSecret) return;
  await toEach(store, [{ clientId }], event, envelope(event, now, { clientId, ...data }), now);
}

/** A copy of a delivery as a new message, due at once: the owner's redeliver action. */
export async function redeliver(store: WebhookDeliveryStore, destination: Destination, id: string, now: number): Promise<string | undefined> {
  const original = await store.find(destination, id);
  if (original === undefined) return undefined;
  const copy = messageId();
  await store.enqueue([{ id: copy, destination, event: original.event, payload: original.payload, createdAt: now }]);
  return copy;
}
