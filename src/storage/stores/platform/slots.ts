// SlotStore (src/platform/slots/store.ts) on Kysely: three reads, each one statement whatever
// the number of hosts or bookings.
import type { SlotHost, SlotStore } from '../../../platform/slots/store.ts';
import type { AvailabilityOverride, AvailabilityRange } from '../../../platform/schedules/store.ts';
import { ACTIVE } from '../../../platform/bookings/store.ts';
import type { Executor } from '../../repositories/executor.ts';

interface HostRow {
  id: string;
  time_zone: string;
  schedule_time_zone: string | null;
  availability: string | null;
  overrides: string | null;
}

const toHost = (r: HostRow): SlotHost => ({
  id: r.id,
  timeZone: r.time_zone,
  schedule:
    r.schedule_time_zone === null || r.availability === null
      ? null
      : {
          timeZone: r.schedule_time_zone,
          availability: JSON.parse(r.availability) as AvailabilityRange[],
          overrides: JSON.parse(r.overrides ?? '[]') as AvailabilityOverride[],
        },
});

export function createSlotStore(db: Executor): SlotStore {
  return {
    hosts: async (owner) => {
      const base = db
        .selectFrom('users as u')
        // A default that names another user's schedule is none (the schedule's own user_id is checked).
        .leftJoin('schedules as s', (j) => j.onRef('s.id', '=', 'u.default_schedule_id').onRef('s.user_id', '=', 'u.id'))
        .select(['u.id', 'u.time_zone', 's.time_zone as schedule_time_zone', 's.availability', 's.overrides']);
      const rows =
        'userId' in owner
          ? await base.where('u.id', '=', owner.userId).execute()
          : await base
              .innerJoin('memberships as m', 'm.user_id', 'u.id')
              .where('m.team_id', '=', owner.teamId)
              .orderBy('m.created_at')
              .orderBy('u.id')
              .execute();
      return rows.map(toHost);
    },
    publicHosts: async (usernames, organizationSlug) => {
      if (usernames.length === 0) return [];
      let q = db
        .selectFrom('users as u')
        .leftJoin('schedules as s', (j) => j.onRef('s.id', '=', 'u.default_schedule_id').onRef('s.user_id', '=', 'u.id'))
        .select(['u.id', 'u.username', 'u.time_zone', 's.time_zone as schedule_time_zone', 's.availability', 's.overrides'])
        .where('u.username', 'in', usernames)
        .where((eb) => eb.exists(eb.selectFrom('event_types as e').select('e.id').whereRef('e.user_id', '=', 'u.id').where('e.hidden', '=', 0)));
      if (organizationSlug !== undefined) q = q.where('u.organization_id', 'in', db.selectFrom('organizations').select('id').where('slug', '=', organizationSlug));
      const rows = await q.orderBy('u.id').execute();
      return rows.map((r) => ({ ...toHost(r), username: r.username }));
    },
    bookings: async (hostIds, from, to, exceptUid) => {
      if (hostIds.length === 0) return [];
      // One read: the bookings each host is the host of, and those of collective bookings they
      // are one of the hosts of (migration 035), each with its event type's buffers.
      const of = (hosts: 'own' | 'shared') => {
        const base = hosts === 'own'
          ? db.selectFrom('bookings as b').select('b.user_id as host_id').where('b.user_id', 'in', hostIds)
          : db.selectFrom('bookings as b').innerJoin('booking_hosts as h', 'h.booking_uid', 'b.uid').select('h.user_id as host_id').where('h.user_id', 'in', hostIds);
        let q = base
          .leftJoin('event_types as e', 'e.id', 'b.event_type_id')
          .select(['b.start_time', 'b.end_time', 'b.uid', 'b.event_type_id', 'e.before_event_buffer', 'e.after_event_buffer'])
          .where('b.status', 'in', ACTIVE)
          .where('b.start_time', '<', to)
          .where('b.end_time', '>', from);
        if (exceptUid !== undefined) q = q.where('b.uid', '<>', exceptUid);
        return q;
      };
      const rows = await of('own').unionAll(of('shared')).orderBy('start_time').execute();
      return rows.map((r) => ({
        hostId: r.host_id!,
        start: r.start_time,
        end: r.end_time,
        uid: r.uid,
        eventTypeId: r.event_type_id,
        beforeBufferMinutes: r.before_event_buffer ?? 0,
        afterBufferMinutes: r.after_event_buffer ?? 0,
      }));
    },
    away: async (hostIds, from, to) => {
      if (hostIds.length === 0) return [];
      const rows = await db
        .selectFrom('out_of_office_entries')
        .select(['user_id', 'start_time', 'end_time'])
        .where('user_id', 'in', hostIds)
        .where('start_time', '<', to)
        .where('end_time', '>', from)
        .orderBy('start_time')
        .execute();
      return rows.map((r) => ({ hostId: r.user_id, start: r.start_time, end: r.end_time }));
    },
  };
}
