// SlotReservationStore (src/platform/slots/reservation-store.ts) on Kysely, each method one statement.
import type { SlotReservation, SlotReservationStore } from '../../../platform/slots/reservation-store.ts';
import type { Executor } from '../../repositories/executor.ts';

interface Row {
  uid: string;
  event_type_id: string;
  start_time: number | string;
  end_time: number | string;
  created_at: number | string;
  expires_at: number | string;
}

const toReservation = (r: Row): SlotReservation => ({
  uid: r.uid,
  eventTypeId: r.event_type_id,
  start: Number(r.start_time),
  end: Number(r.end_time),
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
});

export function createSlotReservationStore(db: Executor): SlotReservationStore {
  return {
    insert: async (r) => {
      await db.insertInto('slot_reservations').values({ uid: r.uid, event_type_id: r.eventTypeId, start_time: r.start, end_time: r.end, created_at: r.createdAt, expires_at: r.expiresAt }).execute();
    },
    findLive: async (uid, now) => {
      const row = await db.selectFrom('slot_reservations').selectAll().where('uid', '=', uid).where('expires_at', '>', now).executeTakeFirst();
      return row === undefined ? undefined : toReservation(row);
    },
    liveOverlapping: async (eventTypeId, from, to, now, exceptUid) => {
      let q = db.selectFrom('slot_reservations').selectAll().where('event_type_id', '=', eventTypeId).where('start_time', '<', to).where('end_time', '>', from).where('expires_at', '>', now);
      if (exceptUid !== undefined) q = q.where('uid', '<>', exceptUid);
      return (await q.orderBy('start_time').execute()).map(toReservation);
    },
    move: async (uid, changes, now) => {
      const result = await db
        .updateTable('slot_reservations')
        .set({ start_time: changes.start, end_time: changes.end, expires_at: changes.expiresAt })
        .where('uid', '=', uid)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    release: async (uid, now) => {
      const result = await db.deleteFrom('slot_reservations').where('uid', '=', uid).where('expires_at', '>', now).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
