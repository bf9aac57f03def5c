// bookings: created publicly, managed by their host, their team or their organization.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { BookingsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type BookingRow = Selectable<BookingsTable>;
export type BookingStatus = BookingRow['status'];
/** Whose bookings: the host's, a team's, or everything in an organization. */
export type BookingScope = { userId: string } | { teamId: string } | { organizationId: string };

export interface BookingFilter {
  status?: BookingStatus;
  afterStart?: number;
  beforeEnd?: number;
}

/** Statuses that hold the host's time. */
export const ACTIVE: BookingStatus[] = ['pending', 'accepted'];

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

export async function insertBooking(db: Executor, row: Insertable<BookingsTable>): Promise<void> {
  await db.insertInto('bookings').values(row).execute();
}

export async function findBooking(db: Executor, uid: string): Promise<BookingRow | undefined> {
  return db.selectFrom('bookings').selectAll().where('uid', '=', uid).executeTakeFirst();
}

export async function findScopedBooking(db: Executor, scope: BookingScope, uid: string): Promise<BookingRow | undefined> {
  return scoped(db, scope).where('uid', '=', uid).executeTakeFirst();
}

export async function listBookings(db: Executor, scope: BookingScope, filter: BookingFilter, limit: number, offset: number): Promise<BookingRow[]> {
  let q = scoped(db, scope);
  if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  if (filter.afterStart !== undefined) q = q.where('start_time', '>=', filter.afterStart);
  if (filter.beforeEnd !== undefined) q = q.where('end_time', '<=', filter.beforeEnd);
  return q.orderBy('start_time').orderBy('uid').limit(limit).offset(offset).execute();
}

/**
 * Changes a booking only if it is still in one of `from` (STYLE practice 6): of two
 * concurrent confirm/decline/cancel requests exactly one wins. Returns whether it did.
 */
export async function transition(db: Executor, uid: string, from: BookingStatus[], changes: Updateable<BookingsTable>): Promise<boolean> {
  const result = await db.updateTable('bookings').set(changes).where('uid', '=', uid).where('status', 'in', from).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Changes a booking only if its updated_at is still `seenUpdatedAt`; returns whether it did. */
export async function updateIfUnchanged(db: Executor, uid: string, seenUpdatedAt: number, changes: Updateable<BookingsTable>): Promise<boolean> {
  const result = await db.updateTable('bookings').set(changes).where('uid', '=', uid).where('updated_at', '=', seenUpdatedAt).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateBooking(db: Executor, uid: string, changes: Updateable<BookingsTable>): Promise<void> {
  await db.updateTable('bookings').set(changes).where('uid', '=', uid).execute();
}

/**
 * Takes the host's row lock for the rest of the transaction (a no-op write), so that two
 * bookings of one host cannot both pass the availability check before either is written.
 */
export async function lockHost(db: Executor, userId: string): Promise<void> {
  await db.updateTable('users').set((eb) => ({ id: eb.ref('id') })).where('id', '=', userId).execute();
}

/** Does the host already have an active booking overlapping [start, end)? */
export async function hostIsBusy(db: Executor, userId: string, start: number, end: number, exceptUid?: string): Promise<boolean> {
  let q = db
    .selectFrom('bookings')
    .select('uid')
    .where('user_id', '=', userId)
    .where('status', 'in', ACTIVE)
    .where('start_time', '<', end)
    .where('end_time', '>', start);
  if (exceptUid !== undefined) q = q.where('uid', '!=', exceptUid);
  const row = await q.limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function busyTimes(db: Executor, userId: string, from: number, to: number) {
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
export async function pickTeamHost(db: Executor, teamId: string, roundRobin: boolean, now: number): Promise<string | undefined> {
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
  const row = await db
    .selectFrom('memberships as m')
    .leftJoin('bookings as b', (j) =>
      j.onRef('b.user_id', '=', 'm.user_id').on('b.team_id', '=', teamId).on('b.start_time', '>=', now).on('b.status', 'in', ACTIVE),
    )
    .select(['m.user_id', 'm.created_at', (eb) => eb.fn.count<number>('b.uid').as('load')])
    .where('m.team_id', '=', teamId)
    .groupBy(['m.user_id', 'm.created_at'])
    .orderBy('load')
    .orderBy('m.created_at')
    .limit(1)
    .executeTakeFirst();
  return row?.user_id;
}

export async function isTeamMember(db: Executor, teamId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('memberships').select('id').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}
