// Slot reservations (docs/integrating.md#slot-reservations), as Cal.com API v2's
// /v2/slots/reservations: a booker holds a free slot for a few minutes while they fill in the
// form. While the hold lasts the slot is offered to nobody (GET /v2/slots leaves it out) and
// booked only by whoever sends its uid (reservationUid on POST /v2/bookings); once expired it
// is nothing, and retention deletes it. A slot is held only if it is one GET /v2/slots offers.
import { notFound, randomId, validation } from '../authorization-server.ts';
import type { BookableEventType } from '../bookings/store.ts';
import type { PlatformContext } from '../stores.ts';
import type { SlotReservation } from './reservation-store.ts';
import { lockHosts, requireSlot } from './service.ts';

export type { SlotReservation } from './reservation-store.ts';

/** Cal.com's default hold, in minutes, and the longest Gatehouse lets an authenticated caller ask. */
export const RESERVATION_DEFAULT_MINUTES = 5;
export const RESERVATION_MAX_MINUTES = 10;
const MINUTE = 60_000;

export interface ReservationRequest {
  eventTypeId: string;
  slotStart: number;
  /** The slot's length: only the event type's own (it has one). */
  slotDuration?: number;
  /** Minutes; Cal.com takes it only from an authenticated caller. */
  reservationDuration?: number;
  /** Whether an access token came with the request. */
  authenticated: boolean;
}

/** Holds a free slot; the answer's uid is the holder's proof. */
export async function reserveSlot(ctx: PlatformContext, input: ReservationRequest): Promise<SlotReservation> {
  const et = await reservable(ctx, input.eventTypeId);
  const minutes = holdMinutes(input);
  const end = slotEnd(et, input);
  const now = ctx.clock();
  const reservation: SlotReservation = { uid: randomId(), eventTypeId: et.id, start: input.slotStart, end, createdAt: now, expiresAt: now + minutes * MINUTE };
  await ctx.stores.transaction(async (tx) => {
    // Under the hosts' locks, as a booking takes them: of two holds, or a hold and a booking,
    // of one slot, the second sees the first (docs/rules.md#booking-availability).
    await lockHosts(tx, et);
    await requireSlot({ ...ctx, stores: tx }, { eventType: et, start: input.slotStart, field: 'slotStart' });
    await tx.api.slotReservations.insert(reservation);
  });
  return reservation;
}

/** The live hold of that uid; an expired or unknown one is 404 alike. */
export async function findReservation(ctx: PlatformContext, uid: string): Promise<SlotReservation> {
  const found = await ctx.stores.api.slotReservations.findLive(uid, ctx.clock());
  if (found === undefined) throw notFound('no such reservation (unknown, released or expired)');
  return found;
}

/** Moves a live hold to another free slot (its own time counting as free) and holds it afresh. */
export async function moveReservation(ctx: PlatformContext, uid: string, input: ReservationRequest): Promise<SlotReservation> {
  const held = await findReservation(ctx, uid);
  const et = await reservable(ctx, input.eventTypeId);
  const minutes = holdMinutes(input);
  const end = slotEnd(et, input);
  const now = ctx.clock();
  const moved: SlotReservation = { ...held, eventTypeId: et.id, start: input.slotStart, end, expiresAt: now + minutes * MINUTE };
  await ctx.stores.transaction(async (tx) => {
    await lockHosts(tx, et);
    await requireSlot({ ...ctx, stores: tx }, { eventType: et, start: input.slotStart, reservationUid: uid, field: 'slotStart' });
    if (et.id !== held.eventTypeId) {
      // Another event type's slot: a new hold of it under the same uid.
      if (!(await tx.api.slotReservations.release(uid, now))) throw notFound('no such reservation (unknown, released or expired)');
      await tx.api.slotReservations.insert({ ...moved, createdAt: now });
    } else if (!(await tx.api.slotReservations.move(uid, moved, now))) {
      throw notFound('no such reservation (unknown, released or expired)');
    }
  });
  return moved;
}

/** Lets a live hold go; an expired or unknown one is 404. */
export async function releaseReservation(ctx: PlatformContext, uid: string): Promise<void> {
  if (!(await ctx.stores.api.slotReservations.release(uid, ctx.clock()))) throw notFound('no such reservation (unknown, released or expired)');
}

/** A hold's length in minutes (docs/integrating.md#slot-reservations). */
export const holdLength = (r: SlotReservation): number => Math.round((r.expiresAt - r.createdAt) / MINUTE);

/** A published event type (a hidden one is 404 here as on GET /v2/slots). */
async function reservable(ctx: PlatformContext, eventTypeId: string): Promise<BookableEventType> {
  const et = await ctx.stores.bookings.findEventType(eventTypeId);
  if (et === undefined || et.hidden) throw notFound('no such event type');
  return et;
}

function slotEnd(et: BookableEventType, input: ReservationRequest): number {
  if (input.slotDuration !== undefined && input.slotDuration !== et.lengthMinutes) {
    throw validation(`slotDuration: this event type lasts ${et.lengthMinutes} minutes and offers no other length`, 'slotDuration');
  }
  return input.slotStart + et.lengthMinutes * MINUTE;
}

function holdMinutes(input: ReservationRequest): number {
  if (input.reservationDuration === undefined) return RESERVATION_DEFAULT_MINUTES;
  // As on the platform: only an authenticated caller chooses how long a slot is held.
  if (!input.authenticated) throw validation('reservationDuration: only a request with an access token may choose it; without one a slot is held 5 minutes', 'reservationDuration');
  if (input.reservationDuration > RESERVATION_MAX_MINUTES) throw validation(`reservationDuration: at most ${RESERVATION_MAX_MINUTES} minutes`, 'reservationDuration');
  return input.reservationDuration;
}
