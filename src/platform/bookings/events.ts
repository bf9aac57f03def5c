// What a booking's subscribers hear (docs/integrating.md#webhooks): the webhook triggers a booking change causes
// and the record they carry, written to the outbox with the change's transaction.
import { publishEvent, type WebhookDeliveryStore } from '../authorization-server.ts';
import { iso } from '../input.ts';
import { numbered, numberedOrNull } from '../numbered-ids.ts';
import type { Booking } from './store.ts';

/** Webhook triggers a booking change causes (the names /v2/webhooks accepts). */
export type BookingTrigger = 'BOOKING_CREATED' | 'BOOKING_REQUESTED' | 'BOOKING_CONFIRMED' | 'BOOKING_REJECTED' | 'BOOKING_RESCHEDULED' | 'BOOKING_CANCELLED';

/** What a subscriber learns of a booking: its public record, never its manageToken hash; numbered ids as numbers, as in the API (docs/rules.md#numbered-ids). */
export function bookingData(b: Booking): Record<string, unknown> {
  return {
    id: numbered(b.id),
    uid: b.uid,
    eventTypeId: numberedOrNull(b.eventTypeId),
    hostId: numberedOrNull(b.hostId),
    teamId: numberedOrNull(b.teamId),
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

/** One delivery per active webhook of the booking's host, event type, team or organization subscribed to the trigger. */
export function recordBookingEvent(stores: { webhookDeliveries: WebhookDeliveryStore }, trigger: BookingTrigger, booking: Booking, now: number): Promise<void> {
  return publishEvent(stores, trigger, { hostId: booking.hostId, teamId: booking.teamId, eventTypeId: booking.eventTypeId }, bookingData(booking), now);
}
