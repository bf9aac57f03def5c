// PhoneCallStore (src/platform/phone-calls/store.ts) over phone_calls.
import type { Kysely, Selectable } from 'kysely';
import type { PhoneCall, PhoneCallStore } from '../../../platform/phone-calls/store.ts';
import type { Database, PhoneCallsTable } from '../../schema.ts';

const toCall = (r: Selectable<PhoneCallsTable>): PhoneCall => ({
  id: r.id,
  teamId: r.team_id,
  eventTypeId: r.event_type_id,
  requestedBy: r.requested_by,
  yourPhoneNumber: r.your_phone_number,
  numberToCall: r.number_to_call,
  enabled: Number(r.enabled) === 1,
  templateType: r.template_type,
  schedulerName: r.scheduler_name,
  guestName: r.guest_name,
  guestEmail: r.guest_email,
  guestCompany: r.guest_company,
  beginMessage: r.begin_message,
  generalPrompt: r.general_prompt,
  status: r.status,
  createdAt: Number(r.created_at),
});

export function createPhoneCallStore(db: Kysely<Database>): PhoneCallStore {
  return {
    insert: async (c) => {
      await db
        .insertInto('phone_calls')
        .values({
          id: c.id,
          team_id: c.teamId,
          event_type_id: c.eventTypeId,
          requested_by: c.requestedBy,
          your_phone_number: c.yourPhoneNumber,
          number_to_call: c.numberToCall,
          enabled: c.enabled ? 1 : 0,
          template_type: c.templateType,
          scheduler_name: c.schedulerName,
          guest_name: c.guestName,
          guest_email: c.guestEmail,
          guest_company: c.guestCompany,
          begin_message: c.beginMessage,
          general_prompt: c.generalPrompt,
          status: c.status,
          created_at: c.createdAt,
        })
        .execute();
    },
    list: async (filter, limit) => {
      let q = db.selectFrom('phone_calls').selectAll();
      if (filter.teamId !== undefined) q = q.where('team_id', '=', filter.teamId);
      return (await q.orderBy('created_at').orderBy('id').limit(limit).execute()).map(toCall);
    },
  };
}
