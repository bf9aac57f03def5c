// A booking's attendees (docs/integrating.md#booking-attendees): the host adds one to a booking
// that still holds time, and marks who did not come (the host, attendees) on a booking that was
// accepted. Each change is conditional on the booking's version read, in one transaction with
// the attendee rows, so two concurrent changes cannot both pass the checks.
import { conflict, validation } from '../authorization-server.ts';
import type { PlatformContext } from '../stores.ts';
import type { Attendee } from './attendee-store.ts';
import { bookingInScope } from './in-scope.ts';
import { ACTIVE, type Booking } from './store.ts';

/** The most attendees a booking has: its booker, up to 10 guests, and those added. */
export const ATTENDEES_MAX = 25;

export interface NewAttendeeInput {
  name: string;
  email: string;
  timeZone: string;
  phoneNumber?: string;
  language?: string;
}

export interface AbsenceInput {
  /** Whether the host was absent. */
  host?: boolean;
  attendees?: Array<{ email: string; absent: boolean }>;
}

const CHANGED = 'the booking changed meanwhile; read it again and retry';

const hostsBooking = (ctx: PlatformContext, hostId: string, uid: string): Promise<Booking> => bookingInScope(ctx.stores.bookings, { userId: hostId }, uid);

/** Adds an attendee to the host's pending or accepted booking; an address it already has is refused. Answers it with its booking's id. */
export async function addAttendee(ctx: PlatformContext, hostId: string, uid: string, input: NewAttendeeInput): Promise<{ attendee: Attendee; bookingId: string }> {
  const b = await hostsBooking(ctx, hostId, uid);
  if (!ACTIVE.includes(b.status)) throw conflict(`the booking is ${b.status}; only a pending or accepted booking takes new attendees`);
  const email = input.email.toLowerCase();
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    if (!(await tx.bookings.updateIfUnchanged(b.uid, b.updatedAt, { updatedAt: now }))) throw conflict(CHANGED);
    const current = await tx.api.bookingAttendees.list(b.uid);
    if (current.some((a) => a.email === email)) throw conflict('email: the booking already has an attendee of that address');
    if (current.length >= ATTENDEES_MAX) throw validation(`email: a booking has at most ${ATTENDEES_MAX} attendees; this one has ${current.length}`, 'email');
    const [added] = await tx.api.bookingAttendees.insert([
      { bookingUid: b.uid, role: 'added', email, name: input.name.trim(), timeZone: input.timeZone, phoneNumber: input.phoneNumber ?? null, language: input.language ?? null, createdAt: now },
    ]);
    return { attendee: added!, bookingId: b.id };
  });
}

/**
 * Marks the host and attendees of an accepted booking absent or present; every address named
 * must be one of the booking's attendees, or nothing changes. Answers the booking as it now is.
 */
export async function markAbsent(ctx: PlatformContext, hostId: string, uid: string, input: AbsenceInput): Promise<Booking> {
  if (input.host === undefined && (input.attendees === undefined || input.attendees.length === 0)) {
    throw validation('host: send host, attendees, or both: who was absent', 'host');
  }
  const b = await hostsBooking(ctx, hostId, uid);
  if (b.status !== 'accepted') throw conflict(`the booking is ${b.status}; only an accepted booking has a meeting to be absent from`);
  const now = ctx.clock();
  return ctx.stores.transaction(async (tx) => {
    if (!(await tx.bookings.updateIfUnchanged(b.uid, b.updatedAt, { updatedAt: now }))) throw conflict(CHANGED);
    const known = new Set((await tx.api.bookingAttendees.list(b.uid)).map((a) => a.email));
    for (const [i, a] of (input.attendees ?? []).entries()) {
      if (!known.has(a.email.toLowerCase())) throw validation(`attendees[${i}].email: ${a.email} is not an attendee of this booking (GET /v2/bookings/${b.uid}/attendees lists them)`, `attendees[${i}].email`);
      await tx.api.bookingAttendees.setAbsent(b.uid, a.email, a.absent);
    }
    if (input.host !== undefined) await tx.bookings.setHostAbsent(b.uid, input.host);
    return (await tx.bookings.find(b.uid))!;
  });
}
