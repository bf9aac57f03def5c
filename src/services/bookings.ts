// Booking, cancelling and rescheduling (seed §1, §5 rule 6): the public routes and the
// team routes share these rules. Each change that spans rows runs in one transaction.
import { generateToken, hashesEqual, hashToken, isWellFormed, randomId } from '../oauth/token-format.ts';
import * as bookings from '../storage/repositories/bookings.ts';
import type { BookingRow } from '../storage/repositories/bookings.ts';
import { findEventType, usePrivateLink } from '../storage/repositories/event-types.ts';
import { inTransaction } from '../storage/transaction.ts';
import type { ServiceContext } from './context.ts';
import { conflict, notFound, validation } from './errors.ts';

export interface NewBooking {
  eventTypeId: string;
  start: number;
  attendee: { name: string; email: string; timeZone: string };
  guests?: string[];
  location?: string;
  notes?: string;
  /** The hash of a private link: the only way to book a hidden event type publicly. */
  privateLink?: string;
}

export interface BookingRules {
  /** Team routes book only their own team's event types. */
  teamId?: string;
  /** Team admins may book hidden team event types without a link. */
  allowHidden?: boolean;
}

/**
 * A new booking and its manageToken: the secret of the booker's confirmation link (SPEC §2
 * item 26), in plain text only here, to be shown once; the row holds its SHA-256 hash.
 */
export interface Booked {
  booking: BookingRow;
  manageToken: string;
}

export async function book(ctx: ServiceContext, input: NewBooking, rules: BookingRules = {}): Promise<Booked> {
  const now = ctx.clock();
  const et = await findEventType(ctx.db, input.eventTypeId);
  // A hidden event type without its link is indistinguishable from a missing one.
  const reachable = et !== undefined && (rules.teamId === undefined || et.team_id === rules.teamId) && (et.hidden === 0 || rules.allowHidden || input.privateLink !== undefined);
  if (!reachable) throw notFound('no such event type');
  if (input.start < now + et.minimum_booking_notice * 60_000) {
    throw validation(
      et.minimum_booking_notice > 0 ? `start: must be at least ${et.minimum_booking_notice} minutes from now` : 'start: must be in the future',
      'start',
    );
  }
  const end = input.start + et.length_minutes * 60_000;
  const host = et.user_id ?? (await bookings.pickTeamHost(ctx.db, et.team_id!, et.scheduling_type === 'roundRobin', now));
  if (host === undefined) throw conflict('the team has no member who could host this booking');
  const guests = [...new Set((input.guests ?? []).map((g) => g.toLowerCase()))];
  const manageToken = generateToken('bookingManageToken');
  const row: BookingRow = {
    uid: randomId(),
    event_type_id: et.id,
    user_id: host,
    team_id: et.team_id,
    title: `${et.title} with ${input.attendee.name.trim()}`.slice(0, 300),
    description: input.notes ?? '',
    start_time: input.start,
    end_time: end,
    status: et.requires_confirmation === 1 ? 'pending' : 'accepted',
    attendee_name: input.attendee.name.trim(),
    attendee_email: input.attendee.email.toLowerCase(),
    attendee_time_zone: input.attendee.timeZone,
    guests: JSON.stringify(guests),
    location: input.location ?? (JSON.parse(et.locations) as Array<{ value: string }>)[0]?.value ?? '',
    cancellation_reason: null,
    decline_reason: null,
    rescheduled_from: null,
    rescheduled_to: null,
    manage_token_hash: hashToken(manageToken),
    created_at: now,
    updated_at: now,
  };
  await inTransaction(ctx.db, async (trx) => {
    // The link's use and the booking land together: a refused booking spends no use.
    if (et.hidden === 1 && !rules.allowHidden && !(await usePrivateLink(trx, et.id, input.privateLink!, now))) {
      throw notFound('no such event type (the private link is unknown, expired or used up)');
    }
    await bookings.lockHost(trx, host);
    if (await bookings.hostIsBusy(trx, host, input.start, end)) throw conflict('start: the host is not available at that time');
    await bookings.insertBooking(trx, row);
  });
  return { booking: row, manageToken };
}

async function requireBooking(ctx: ServiceContext, uid: string, scope?: bookings.BookingScope): Promise<BookingRow> {
  const row = scope ? await bookings.findScopedBooking(ctx.db, scope, uid) : await bookings.findBooking(ctx.db, uid);
  if (row === undefined) throw notFound('no such booking');
  return row;
}

/**
 * The booking a manageToken opens (SPEC §2 item 26). A wrong or malformed token, and a
 * booking that has none, get exactly the answer of an unknown uid, so nothing is revealed;
 * the hashes are compared in constant time (SPEC §3).
 */
export async function requireManageToken(ctx: ServiceContext, uid: string, manageToken: string): Promise<BookingRow> {
  const row = isWellFormed('bookingManageToken', manageToken) ? await bookings.findBooking(ctx.db, uid) : undefined;
  if (row === undefined || row.manage_token_hash === null || !hashesEqual(row.manage_token_hash, hashToken(manageToken))) throw notFound('no such booking');
  return row;
}

/** Moves a booking between statuses; a booking already elsewhere is a conflict. */
export async function transitionBooking(
  ctx: ServiceContext,
  uid: string,
  from: BookingRow['status'][],
  to: BookingRow['status'],
  extra: { cancellation_reason?: string | null; decline_reason?: string | null } = {},
  scope?: bookings.BookingScope,
): Promise<BookingRow> {
  const current = await requireBooking(ctx, uid, scope);
  const done = await bookings.transition(ctx.db, uid, from, { status: to, ...extra, updated_at: ctx.clock() });
  if (!done) throw conflict(`the booking is ${current.status}; only a ${from.join(' or ')} booking can become ${to}`);
  return requireBooking(ctx, uid);
}

export function cancelBooking(ctx: ServiceContext, uid: string, reason: string | undefined, scope?: bookings.BookingScope): Promise<BookingRow> {
  return transitionBooking(ctx, uid, bookings.ACTIVE, 'cancelled', { cancellation_reason: reason ?? null }, scope);
}

/**
 * A reschedule is a new booking at the new time; the old one points to it. The new booking
 * keeps the old one's manageToken hash: the booker's one link keeps working for the moved
 * booking, and no new secret is handed to whoever rescheduled it (SPEC §2 item 26).
 */
export async function rescheduleBooking(ctx: ServiceContext, uid: string, start: number, reason: string | undefined): Promise<BookingRow> {
  const now = ctx.clock();
  const old = await requireBooking(ctx, uid);
  if (!bookings.ACTIVE.includes(old.status)) throw conflict(`the booking is ${old.status}; only a pending or accepted booking can be rescheduled`);
  if (start <= now) throw validation('start: must be in the future', 'start');
  const end = start + (old.end_time - old.start_time);
  const row: BookingRow = {
    ...old,
    uid: randomId(),
    start_time: start,
    end_time: end,
    rescheduled_from: old.uid,
    rescheduled_to: null,
    cancellation_reason: null,
    created_at: now,
    updated_at: now,
  };
  await inTransaction(ctx.db, async (trx) => {
    if (old.user_id !== null) await bookings.lockHost(trx, old.user_id);
    if (old.user_id !== null && (await bookings.hostIsBusy(trx, old.user_id, start, end, old.uid))) throw conflict('start: the host is not available at that time');
    const moved = await bookings.transition(trx, old.uid, bookings.ACTIVE, { status: 'rescheduled', rescheduled_to: row.uid, cancellation_reason: reason ?? null, updated_at: now });
    if (!moved) throw conflict('the booking changed meanwhile; read it again');
    await bookings.insertBooking(trx, row);
  });
  return row;
}
