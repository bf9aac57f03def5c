// Writing events to the outbox (SPEC §9). Callers pass the stores of the transaction that
// makes the change, so an event exists exactly when its change committed; delivery happens
// later, from whichever instance claims it (engine.ts).
import { randomId } from '../../oauth/token-format.ts';
import type { Booking } from '../../platform/bookings/store.ts';
import type { ServiceStores } from '../stores.ts';
import type { Destination, WebhookDeliveryStore } from './store.ts';

/** Webhook triggers a booking change causes (the names /v2/webhooks accepts). */
export type BookingTrigger = 'BOOKING_CREATED' | 'BOOKING_REQUESTED' | 'BOOKING_CONFIRMED' | 'BOOKING_REJECTED' | 'BOOKING_RESCHEDULED' | 'BOOKING_CANCELLED';

/** Application notifications to a client's events URL (SPEC §9, second paragraph). */
export type ClientEvent = 'authorization.revoked' | 'grant.revoked_reuse' | 'client.suspended' | 'client.approved';

/** The body every delivery carries: Standard Webhooks' recommended envelope. */
export function envelope(type: string, at: number, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** What a subscriber learns of a booking: its public record, never its manageToken hash. */
export function bookingData(b: Booking): Record<string, unknown> {
  return {
    uid: b.uid,
    eventTypeId: b.eventTypeId,
    hostId: b.hostId,
    teamId: b.teamId,
    title: b.title,
    description: b.description,
    start: iso(b.start),
    end: iso(b.end),
    status: b.status,
    attendee: b.attendee,
    guests: b.guests,
    location: b.location,
    cancellationReason: b.cancellationReason,
    declineReason: b.declineReason,
    rescheduledFrom: b.rescheduledFrom,
    rescheduledTo: b.rescheduledTo,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
  };
}

const messageId = () => `msg_${randomId()}`;

function toEach(store: WebhookDeliveryStore, destinations: Destination[], event: string, payload: string, now: number) {
  return store.enqueue(destinations.map((destination) => ({ id: messageId(), destination, event, payload, createdAt: now })));
}

/** One delivery per active webhook of the booking's host or organization subscribed to the trigger. */
export async function recordBookingEvent(stores: ServiceStores, trigger: BookingTrigger, booking: Booking, now: number): Promise<void> {
  const webhooks = await stores.webhookDeliveries.subscribedWebhooks(trigger, { hostId: booking.hostId, teamId: booking.teamId });
  await toEach(stores.webhookDeliveries, webhooks.map((webhookId) => ({ webhookId })), trigger, envelope(trigger, now, bookingData(booking)), now);
}

/** FORM_SUBMITTED: a routing form of a team or an organization received a response. */
export async function recordFormSubmitted(
  stores: ServiceStores,
  form: { id: string; name: string; teamId: string | null; organizationId: string | null },
  response: { id: string; answers: Record<string, unknown>; createdAt: number },
  now: number,
): Promise<void> {
  const webhooks = await stores.webhookDeliveries.subscribedWebhooks('FORM_SUBMITTED', { hostId: null, teamId: form.teamId, organizationId: form.organizationId });
  const data = { formId: form.id, formName: form.name, teamId: form.teamId, organizationId: form.organizationId, responseId: response.id, answers: response.answers, createdAt: iso(response.createdAt) };
  await toEach(stores.webhookDeliveries, webhooks.map((webhookId) => ({ webhookId })), 'FORM_SUBMITTED', envelope('FORM_SUBMITTED', now, data), now);
}

/** One delivery to the client's events URL, when it has one and a signing secret to sign with. */
export async function recordClientEvent(store: WebhookDeliveryStore, clientId: string, event: ClientEvent, data: Record<string, unknown>, now: number): Promise<void> {
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
