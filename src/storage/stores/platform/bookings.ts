// BookingStore (src/platform/bookings/store.ts) over the bookings repository: camelCase
// bookings out, rows in.
import type { Updateable } from 'kysely';
import type { Booking, BookingChanges, BookingStore } from '../../../platform/bookings/store.ts';
import * as repo from '../../repositories/bookings.ts';
import { findEventType, usePrivateLink } from '../../repositories/event-types.ts';
import type { Executor } from '../../repositories/executor.ts';
import type { BookingsTable } from '../../schema.ts';

export function toBooking(r: repo.BookingRow): Booking {
  return {
    uid: r.uid,
    eventTypeId: r.event_type_id,
    hostId: r.user_id,
    teamId: r.team_id,
    title: r.title,
    description: r.description,
    start: r.start_time,
    end: r.end_time,
    status: r.status,
    attendee: { name: r.attendee_name, email: r.attendee_email, timeZone: r.attendee_time_zone },
    guests: JSON.parse(r.guests) as string[],
    location: r.location,
    cancellationReason: r.cancellation_reason,
    declineReason: r.decline_reason,
    rescheduledFrom: r.rescheduled_from,
    rescheduledTo: r.rescheduled_to,
    manageTokenHash: r.manage_token_hash,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toRow(b: Booking): repo.BookingRow {
  return {
    uid: b.uid,
    event_type_id: b.eventTypeId,
    user_id: b.hostId,
    team_id: b.teamId,
    title: b.title,
    description: b.description,
    start_time: b.start,
    end_time: b.end,
    status: b.status,
    attendee_name: b.attendee.name,
    attendee_email: b.attendee.email,
    attendee_time_zone: b.attendee.timeZone,
    guests: JSON.stringify(b.guests),
    location: b.location,
    cancellation_reason: b.cancellationReason,
    decline_reason: b.declineReason,
    rescheduled_from: b.rescheduledFrom,
    rescheduled_to: b.rescheduledTo,
    manage_token_hash: b.manageTokenHash,
    created_at: b.createdAt,
    updated_at: b.updatedAt,
  };
}

function changeColumns(c: BookingChanges): Updateable<BookingsTable> {
  return {
    ...(c.hostId !== undefined ? { user_id: c.hostId } : {}),
    ...(c.guests !== undefined ? { guests: JSON.stringify(c.guests) } : {}),
    ...(c.location !== undefined ? { location: c.location } : {}),
    ...(c.cancellationReason !== undefined ? { cancellation_reason: c.cancellationReason } : {}),
    ...(c.declineReason !== undefined ? { decline_reason: c.declineReason } : {}),
    ...(c.rescheduledTo !== undefined ? { rescheduled_to: c.rescheduledTo } : {}),
    updated_at: c.updatedAt,
  };
}

export function createBookingStore(db: Executor): BookingStore {
  return {
    find: async (uid) => {
      const row = await repo.findBooking(db, uid);
      return row && toBooking(row);
    },
    findScoped: async (scope, uid) => {
      const row = await repo.findScopedBooking(db, scope, uid);
      return row && toBooking(row);
    },
    list: async (scope, filter, limit, offset) => (await repo.listBookings(db, scope, filter, limit, offset)).map(toBooking),
    insert: (booking) => repo.insertBooking(db, toRow(booking)),
    transition: (uid, from, status, changes) => repo.transition(db, uid, from, { ...changeColumns(changes), status }),
    updateIfUnchanged: (uid, seen, changes) => repo.updateIfUnchanged(db, uid, seen, changeColumns(changes)),
    update: (uid, changes) => repo.updateBooking(db, uid, changeColumns(changes)),
    lockHost: (userId) => repo.lockHost(db, userId),
    hostIsBusy: (userId, start, end, exceptUid) => repo.hostIsBusy(db, userId, start, end, exceptUid),
    busyTimes: async (userId, from, to) => (await repo.busyTimes(db, userId, from, to)).map((b) => ({ uid: b.uid, start: b.start_time, end: b.end_time })),
    pickTeamHost: (teamId, roundRobin, now) => repo.pickTeamHost(db, teamId, roundRobin, now),
    isTeamMember: (teamId, userId) => repo.isTeamMember(db, teamId, userId),
    findEventType: async (id) => {
      const et = await findEventType(db, id);
      return (
        et && {
          id: et.id,
          userId: et.user_id,
          teamId: et.team_id,
          title: et.title,
          lengthMinutes: et.length_minutes,
          locations: JSON.parse(et.locations) as Array<{ type?: string; value: string }>,
          hidden: et.hidden === 1,
          requiresConfirmation: et.requires_confirmation === 1,
          minimumBookingNotice: et.minimum_booking_notice,
          schedulingType: et.scheduling_type,
        }
      );
    },
    usePrivateLink: (eventTypeId, linkHash, at) => usePrivateLink(db, eventTypeId, linkHash, at),
  };
}
