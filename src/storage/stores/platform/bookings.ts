// BookingStore (src/platform/bookings/store.ts) on Kysely: camelCase bookings out, rows in.
// Bookings are created publicly and managed by their host, their team or their organization.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { ACTIVE, type BookableEventType, type Booking, type BookingChanges, type BookingFilter, type BookingRelations, type BookingScope, type BookingStatus, type BookingStore } from '../../../platform/bookings/store.ts';
import type { NewAttendee } from '../../../platform/bookings/attendee-store.ts';
import { findEventType, usePrivateLink } from '../../repositories/event-types.ts';
import type { Executor } from '../../repositories/executor.ts';
import { insertAttendees, toAttendee } from './booking-attendees.ts';
import { slotSettingsOf } from './event-types.ts';
import type { BookingsTable } from '../../schema.ts';

type BookingRow = Selectable<BookingsTable>;

export function toBooking(r: BookingRow): Booking {
  return {
    id: r.id,
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
    absentHost: Number(r.absent_host) === 1,
    responses: JSON.parse(r.booking_field_responses) as Booking['responses'],
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toRow(b: Booking): BookingRow {
  return {
    id: b.id,
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
    absent_host: b.absentHost ? 1 : 0,
    booking_field_responses: JSON.stringify(b.responses),
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

function scoped(db: Executor, scope: BookingScope) {
  const q = db.selectFrom('bookings').selectAll();
  if ('userId' in scope) return q.where('user_id', '=', scope.userId);
  if ('teamId' in scope) return q.where('team_id', '=', scope.teamId);
  const orgId = scope.organizationId;
  // A member's own bookings count; a booking of another organization's team does not.
  return q.where((eb) =>
    eb.or([
      eb('team_id', 'in', eb.selectFrom('teams').select('id').where('organization_id', '=', orgId)),
      eb.and([eb('team_id', 'is', null), eb('user_id', 'in', eb.selectFrom('memberships').select('user_id').where('organization_id', '=', orgId))]),
    ]),
  );
}

/** A new booking's attendees: its booker, then each guest whose address is not the booker's. */
function attendeesOf(b: Booking): NewAttendee[] {
  const booker: NewAttendee = { bookingUid: b.uid, role: 'booker', email: b.attendee.email, name: b.attendee.name, timeZone: b.attendee.timeZone, phoneNumber: null, language: null, createdAt: b.createdAt };
  // A guest is known by address only; the booker's time zone is the best guess of theirs.
  const guests = [...new Set(b.guests)].filter((g) => g !== b.attendee.email).map((email): NewAttendee => ({ ...booker, role: 'guest', email, name: '' }));
  return [booker, ...guests];
}

async function insertBooking(db: Executor, row: Insertable<BookingsTable>): Promise<void> {
  await db.insertInto('bookings').values(row).execute();
}

async function findBooking(db: Executor, uid: string): Promise<BookingRow | undefined> {
  return db.selectFrom('bookings').selectAll().where('uid', '=', uid).executeTakeFirst();
}

async function findScopedBooking(db: Executor, scope: BookingScope, uid: string): Promise<BookingRow | undefined> {
  return scoped(db, scope).where('uid', '=', uid).executeTakeFirst();
}

function filtered(db: Executor, scope: BookingScope, filter: BookingFilter) {
  let q = scoped(db, scope);
  const terms = filter.status;
  if (terms !== undefined) {
    q = q.where((eb) =>
      eb.or(
        terms.map((t) =>
          // A name no stored status answers to (recurring) matches nothing.
          eb.and([
            t.statuses.length === 0 ? eb.lit(false) : eb('status', 'in', t.statuses),
            ...(t.endsFrom !== undefined ? [eb('end_time', '>=', t.endsFrom)] : []),
            ...(t.endsBefore !== undefined ? [eb('end_time', '<', t.endsBefore)] : []),
          ]),
        ),
      ),
    );
  }
  if (filter.afterStart !== undefined) q = q.where('start_time', '>=', filter.afterStart);
  if (filter.beforeEnd !== undefined) q = q.where('end_time', '<=', filter.beforeEnd);
  if (filter.hostId !== undefined) q = q.where('user_id', '=', filter.hostId);
  return q;
}

async function countBookings(db: Executor, scope: BookingScope, filter: BookingFilter): Promise<number> {
  const row = await filtered(db, scope, filter)
    .clearSelect()
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A page and the number of all matches in one read: the count rides on each row (a window
 * over the filtered rows, before LIMIT). Only a page past the end, which has no row to carry
 * it, costs a second read.
 */
async function pageOfBookings(db: Executor, scope: BookingScope, filter: BookingFilter, limit: number, offset: number): Promise<{ bookings: Booking[]; total: number }> {
  const rows = await filtered(db, scope, filter)
    .select((eb) => eb.fn.countAll<number | string | bigint>().over().as('total_matching'))
    .orderBy('start_time')
    .orderBy('uid')
    .limit(limit)
    .offset(offset)
    .execute();
  if (rows.length === 0) return { bookings: [], total: offset === 0 ? 0 : await countBookings(db, scope, filter) };
  return { bookings: rows.map(toBooking), total: Number(rows[0]!.total_matching) };
}

/** The bookings' hosts, event types and attendees in one read: one row per attendee (or one for a booking without any). */
async function relations(db: Executor, bookings: Booking[]): Promise<BookingRelations> {
  const out: BookingRelations = { hosts: new Map(), eventTypes: new Map(), attendees: new Map() };
  if (bookings.length === 0) return out;
  const rows = await db
    .selectFrom('bookings as b')
    .leftJoin('booking_attendees as a', 'a.booking_uid', 'b.uid')
    .leftJoin('users as u', 'u.id', 'b.user_id')
    .leftJoin('event_types as et', 'et.id', 'b.event_type_id')
    .select([
      'b.uid as booking',
      'u.id as host_id', 'u.name as host_name', 'u.email as host_email', 'u.username as host_username', 'u.time_zone as host_time_zone',
      'et.id as et_id', 'et.slug as et_slug',
      'a.id', 'a.booking_uid', 'a.role', 'a.email', 'a.name', 'a.time_zone', 'a.phone_number', 'a.language', 'a.absent', 'a.created_at',
    ])
    .where('b.uid', 'in', [...new Set(bookings.map((b) => b.uid))])
    .orderBy('b.uid')
    // As the attendee list orders them: the booker first; guests of one booking join at one instant, so the address orders them.
    .orderBy((eb) => eb.case().when('a.role', '=', 'booker').then(0).else(1).end())
    .orderBy('a.created_at')
    .orderBy('a.email')
    .execute();
  for (const r of rows) {
    if (r.host_id !== null) out.hosts.set(r.host_id, { id: r.host_id, name: r.host_name!, email: r.host_email!, username: r.host_username!, timeZone: r.host_time_zone! });
    if (r.et_id !== null) out.eventTypes.set(r.et_id, { id: r.et_id, slug: r.et_slug! });
    const list = out.attendees.get(r.booking) ?? [];
    if (r.id !== null) list.push(toAttendee({ ...r, id: r.id, booking_uid: r.booking_uid!, role: r.role!, email: r.email!, name: r.name!, time_zone: r.time_zone!, absent: r.absent!, created_at: r.created_at! }));
    out.attendees.set(r.booking, list);
  }
  return out;
}

/**
 * Changes a booking only if it is still in one of `from` (ARCHITECTURE.md#single-use-is-atomic): of two
 * concurrent confirm/decline/cancel requests exactly one wins. Returns whether it did.
 */
async function transition(db: Executor, uid: string, from: BookingStatus[], changes: Updateable<BookingsTable>): Promise<boolean> {
  const result = await db.updateTable('bookings').set(changes).where('uid', '=', uid).where('status', 'in', from).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Changes a booking only if its updated_at is still `seenUpdatedAt`; returns whether it did. */
async function updateIfUnchanged(db: Executor, uid: string, seenUpdatedAt: number, changes: Updateable<BookingsTable>): Promise<boolean> {
  const result = await db.updateTable('bookings').set(changes).where('uid', '=', uid).where('updated_at', '=', seenUpdatedAt).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

async function updateBooking(db: Executor, uid: string, changes: Updateable<BookingsTable>): Promise<void> {
  await db.updateTable('bookings').set(changes).where('uid', '=', uid).execute();
}

/**
 * Takes the host's row lock for the rest of the transaction (a no-op write), so that two
 * bookings of one host cannot both pass the availability check before either is written.
 */
async function lockHost(db: Executor, userId: string): Promise<void> {
  await db.updateTable('users').set((eb) => ({ id: eb.ref('id') })).where('id', '=', userId).execute();
}

/** Does the host already have an active booking overlapping [start, end)? */
async function hostIsBusy(db: Executor, userId: string, start: number, end: number, exceptUid?: string): Promise<boolean> {
  let q = db
    .selectFrom('bookings')
    .select('uid')
    // As its host, or as one of a collective booking's (migration 035).
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('uid', 'in', eb.selectFrom('booking_hosts').select('booking_uid').where('user_id', '=', userId))]))
    .where('status', 'in', ACTIVE)
    .where('start_time', '<', end)
    .where('end_time', '>', start);
  if (exceptUid !== undefined) q = q.where('uid', '!=', exceptUid);
  const row = await q.limit(1).executeTakeFirst();
  return row !== undefined;
}

async function busyTimes(db: Executor, userId: string, from: number, to: number) {
  return db
    .selectFrom('bookings')
    .select(['uid', 'start_time', 'end_time'])
    .where('user_id', '=', userId)
    .where('status', 'in', ACTIVE)
    .where('start_time', '<', to)
    .where('end_time', '>', from)
    .orderBy('start_time')
    .limit(1000)
    .execute();
}

/**
 * The host for a new team booking: the first owner for a collective event type; for round
 * robin, the member with the fewest upcoming active team bookings (ties: longest member).
 */
async function pickTeamHost(db: Executor, teamId: string, roundRobin: boolean, now: number): Promise<string | undefined> {
  if (!roundRobin) {
    const row = await db
      .selectFrom('memberships')
      .select('user_id')
      .where('team_id', '=', teamId)
      .orderBy((eb) => eb.case().when('role', '=', 'owner').then(0).else(1).end())
      .orderBy('created_at')
      .limit(1)
      .executeTakeFirst();
    return row?.user_id;
  }
  return (await byLoad(db, teamId, now).limit(1).executeTakeFirst())?.user_id;
}

/** The team's members, the fewest upcoming active team bookings first (ties: longest member). */
function byLoad(db: Executor, teamId: string, now: number) {
  return db
    .selectFrom('memberships as m')
    .leftJoin('bookings as b', (j) =>
      j.onRef('b.user_id', '=', 'm.user_id').on('b.team_id', '=', teamId).on('b.start_time', '>=', now).on('b.status', 'in', ACTIVE),
    )
    .select(['m.user_id', 'm.created_at', (eb) => eb.fn.count<number>('b.uid').as('load')])
    .where('m.team_id', '=', teamId)
    .groupBy(['m.user_id', 'm.created_at'])
    .orderBy('load')
    .orderBy('m.created_at')
    .orderBy('m.user_id');
}

/**
 * The id of the event type of that slug owned by the user of that username or the team of
 * that slug, in the organization of that slug when one is named.
 */
async function findEventTypeIdBySlug(db: Executor, slug: string, owner: { username: string } | { teamSlug: string }, organizationSlug?: string): Promise<string | undefined> {
  // The owner's organization, null outside one, answers the organizationSlug question.
  const row =
    'username' in owner
      ? await db
          .selectFrom('event_types as et')
          .innerJoin('users as o', 'o.id', 'et.user_id')
          .leftJoin('organizations as org', 'org.id', 'o.organization_id')
          .select(['et.id', 'org.slug as orgSlug'])
          .where('et.slug', '=', slug)
          .where('o.username', '=', owner.username)
          .executeTakeFirst()
      : await db
          .selectFrom('event_types as et')
          .innerJoin('teams as o', 'o.id', 'et.team_id')
          .leftJoin('organizations as org', 'org.id', 'o.organization_id')
          .select(['et.id', 'org.slug as orgSlug'])
          .where('et.slug', '=', slug)
          .where('o.slug', '=', owner.teamSlug)
          .executeTakeFirst();
  if (row === undefined || (organizationSlug !== undefined && row.orgSlug !== organizationSlug)) return undefined;
  return row.id;
}

async function isTeamMember(db: Executor, teamId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('memberships').select('id').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export function createBookingStore(db: Executor): BookingStore {
  return {
    find: async (uid) => {
      const row = await findBooking(db, uid);
      return row && toBooking(row);
    },
    findScoped: async (scope, uid) => {
      const row = await findScopedBooking(db, scope, uid);
      return row && toBooking(row);
    },
    count: (scope, filter) => countBookings(db, scope, filter),
    page: (scope, filter, limit, offset) => pageOfBookings(db, scope, filter, limit, offset),
    relations: (bookings) => relations(db, bookings),
    insert: async (booking, coHosts = []) => {
      await insertBooking(db, toRow(booking));
      await insertAttendees(db, attendeesOf(booking));
      if (coHosts.length > 0) await db.insertInto('booking_hosts').values(coHosts.map((user_id) => ({ booking_uid: booking.uid, user_id }))).execute();
    },
    coHosts: async (uid) => (await db.selectFrom('booking_hosts').select('user_id').where('booking_uid', '=', uid).orderBy('user_id').execute()).map((r) => r.user_id),
    transition: (uid, from, status, changes) => transition(db, uid, from, { ...changeColumns(changes), status }),
    updateIfUnchanged: (uid, seen, changes) => updateIfUnchanged(db, uid, seen, changeColumns(changes)),
    update: (uid, changes) => updateBooking(db, uid, changeColumns(changes)),
    setHostAbsent: (uid, absent) => updateBooking(db, uid, { absent_host: absent ? 1 : 0 }),
    lockHost: (userId) => lockHost(db, userId),
    hostIsBusy: (userId, start, end, exceptUid) => hostIsBusy(db, userId, start, end, exceptUid),
    busyTimes: async (userId, from, to) => (await busyTimes(db, userId, from, to)).map((b) => ({ uid: b.uid, start: b.start_time, end: b.end_time })),
    pickTeamHost: (teamId, roundRobin, now) => pickTeamHost(db, teamId, roundRobin, now),
    rankTeamHosts: async (teamId, now) => (await byLoad(db, teamId, now).execute()).map((r) => r.user_id),
    findEventTypeIdBySlug: (slug, owner, organizationSlug) => findEventTypeIdBySlug(db, slug, owner, organizationSlug),
    isTeamMember: (teamId, userId) => isTeamMember(db, teamId, userId),
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
          bookingFields: JSON.parse(et.booking_fields) as BookableEventType['bookingFields'],
          hidden: et.hidden === 1,
          requiresConfirmation: et.requires_confirmation === 1,
          minimumBookingNotice: et.minimum_booking_notice,
          schedulingType: et.scheduling_type,
          ...slotSettingsOf(et),
        }
      );
    },
    usePrivateLink: (eventTypeId, linkHash, at) => usePrivateLink(db, eventTypeId, linkHash, at),
  };
}
