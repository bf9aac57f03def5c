// OutOfOfficeStore (src/platform/out-of-office/store.ts) on Kysely.
import type { SelectQueryBuilder, Selectable, Updateable } from 'kysely';
import type { OooChanges, OooOrder, OutOfOfficeEntry, OutOfOfficeStore } from '../../../platform/out-of-office/store.ts';
import type { Executor } from '../../repositories/executor.ts';
import type { Database, OutOfOfficeEntriesTable } from '../../schema.ts';

type Row = Selectable<OutOfOfficeEntriesTable>;

const toEntry = (r: Row): OutOfOfficeEntry => ({
  id: r.id,
  uuid: r.uuid,
  userId: r.user_id,
  toUserId: r.to_user_id,
  start: r.start_time,
  end: r.end_time,
  notes: r.notes,
  reason: r.reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const changeColumns = (c: OooChanges): Updateable<OutOfOfficeEntriesTable> => ({
  ...(c.start !== undefined ? { start_time: c.start } : {}),
  ...(c.end !== undefined ? { end_time: c.end } : {}),
  ...(c.notes !== undefined ? { notes: c.notes } : {}),
  ...(c.toUserId !== undefined ? { to_user_id: c.toUserId } : {}),
  ...(c.reason !== undefined ? { reason: c.reason } : {}),
  updated_at: c.updatedAt,
});

function ordered(q: SelectQueryBuilder<Database, 'out_of_office_entries', Row>, order: OooOrder, limit: number, offset: number) {
  let out = q;
  if (order.sortStart !== undefined) out = out.orderBy('start_time', order.sortStart);
  if (order.sortEnd !== undefined) out = out.orderBy('end_time', order.sortEnd);
  if (order.sortStart === undefined && order.sortEnd === undefined) out = out.orderBy('start_time', 'asc');
  return out.orderBy('id').limit(limit).offset(offset);
}

export function createOutOfOfficeStore(db: Executor): OutOfOfficeStore {
  const entries = () => db.selectFrom('out_of_office_entries').selectAll();
  return {
    insert: async (e) => {
      await db
        .insertInto('out_of_office_entries')
        .values({
          id: e.id,
          uuid: e.uuid,
          user_id: e.userId,
          to_user_id: e.toUserId,
          start_time: e.start,
          end_time: e.end,
          notes: e.notes,
          reason: e.reason,
          created_at: e.createdAt,
          updated_at: e.updatedAt,
        })
        .execute();
    },
    find: async (userId, id) => {
      const row = await entries().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return row && toEntry(row);
    },
    listOfUser: async (userId, order, limit, offset) => (await ordered(entries().where('user_id', '=', userId), order, limit, offset).execute()).map(toEntry),
    listOfOrganization: async (organizationId, filter, order, limit, offset) => {
      let q = entries().where('user_id', 'in', db.selectFrom('memberships').select('user_id').where('organization_id', '=', organizationId));
      if (filter.email !== undefined) {
        // Any case: an address is compared as its owner would type it.
        const email = filter.email.toLowerCase();
        q = q.where('user_id', 'in', db.selectFrom('users').select('id').where((eb) => eb(eb.fn<string>('lower', ['email']), '=', email)));
      }
      return (await ordered(q, order, limit, offset).execute()).map(toEntry);
    },
    update: async (id, changes) => {
      await db.updateTable('out_of_office_entries').set(changeColumns(changes)).where('id', '=', id).execute();
    },
    delete: async (id) => {
      await db.deleteFrom('out_of_office_entries').where('id', '=', id).execute();
    },
    lockUser: async (userId) => {
      await db.updateTable('users').set((eb) => ({ id: eb.ref('id') })).where('id', '=', userId).execute();
    },
    overlaps: async (userId, start, end, exceptId) => {
      let q = db.selectFrom('out_of_office_entries').select('id').where('user_id', '=', userId).where('start_time', '<', end).where('end_time', '>', start);
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      return (await q.limit(1).executeTakeFirst()) !== undefined;
    },
    sharesMembership: async (userId, otherUserId) => {
      // Two memberships of one team, or two of one organization (a team membership has a null
      // organization_id, an organization membership a null team_id: each pair matches on one).
      const row = await db
        .selectFrom('memberships as mine')
        .innerJoin('memberships as theirs', (join) =>
          join.on((eb) =>
            eb.or([
              eb.and([eb('mine.team_id', 'is not', null), eb('theirs.team_id', '=', eb.ref('mine.team_id'))]),
              eb.and([eb('mine.organization_id', 'is not', null), eb('theirs.organization_id', '=', eb.ref('mine.organization_id'))]),
            ]),
          ),
        )
        .select('theirs.id')
        .where('mine.user_id', '=', userId)
        .where('theirs.user_id', '=', otherUserId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
