// The contract of PhoneCallStore (src/platform/phone-calls/store.ts), on both backends: a call
// reads back as written, the list is oldest first (then by id) and cut at the limit, and a
// team's list holds its calls only.
import { describe, expect, it } from 'vitest';
import type { PhoneCall } from '../../src/platform/phone-calls/store.ts';
import type { EventType } from '../../src/platform/event-types/store.ts';
import { backends } from '../helpers/backends.ts';
import { seedUser, T0, uniqueId, useServiceStores } from './seed.ts';

describe.each(backends)('phone call store on $name (docs/integrating.md#phone-calls)', ({ name, available }) => {
  const suite = useServiceStores(name, available);
  const store = () => suite.stores.api.phoneCalls;

  /** A team, and an event type of it, written through their stores. */
  async function teamWithEventType(): Promise<{ teamId: string; eventTypeId: string }> {
    const teamId = uniqueId('t');
    await suite.stores.teams.insertTeam({ id: teamId, organizationId: null, name: 'T', slug: teamId.toLowerCase(), bio: '', timeZone: 'UTC', brandColor: '#292929', createdAt: T0, updatedAt: T0 });
    const eventType: EventType = {
      id: uniqueId('et'),
      ownerId: null,
      teamId,
      title: 'Intro',
      slug: 'intro',
      description: '',
      lengthMinutes: 30,
      locations: [],
      bookingFields: [],
      hidden: false,
      requiresConfirmation: false,
      minimumBookingNotice: 0,
      schedulingType: null,
      createdAt: T0,
      updatedAt: T0,
    };
    await suite.stores.api.eventTypes.insert(eventType);
    return { teamId, eventTypeId: eventType.id };
  }

  function call(at: { teamId: string; eventTypeId: string }, over: Partial<PhoneCall> = {}): PhoneCall {
    return {
      id: uniqueId('call'),
      ...at,
      requestedBy: null,
      yourPhoneNumber: '+14155550100',
      numberToCall: '+4930123456',
      enabled: true,
      templateType: 'CUSTOM_TEMPLATE',
      schedulerName: null,
      guestName: null,
      guestEmail: null,
      guestCompany: null,
      beginMessage: null,
      generalPrompt: null,
      status: 'queued',
      createdAt: T0,
      ...over,
    };
  }

  it.skipIf(!available)('insert, then list: a call reads back as written, every field, a false enabled and the nulls too', async () => {
    const at = await teamWithEventType();
    const requestedBy = await seedUser(suite.database.handle.db);
    const full = call(at, {
      requestedBy,
      enabled: false,
      templateType: 'CHECK_IN_APPOINTMENT',
      schedulerName: 'Sales desk',
      guestName: 'Gil',
      guestEmail: 'gil@example.com',
      guestCompany: 'Gil GmbH',
      beginMessage: 'Hello',
      generalPrompt: 'Offer the next free slot.',
      createdAt: T0 + 1,
    });
    const bare = call(at, { createdAt: T0 + 2 });
    await store().insert(full);
    await store().insert(bare);
    expect(await store().list({ teamId: at.teamId }, 10)).toEqual([full, bare]);
  });

  it.skipIf(!available)("list: oldest first, then by id; cut at the limit; a team's list holds its calls only", async () => {
    const mine = await teamWithEventType();
    const theirs = await teamWithEventType();
    const late = call(mine, { createdAt: T0 + 20 });
    const earlyB = call(mine, { id: `${uniqueId('call')}-b`, createdAt: T0 + 10 });
    const earlyA = call(mine, { id: earlyB.id.replace(/-b$/, '-a'), createdAt: T0 + 10 });
    const other = call(theirs, { createdAt: T0 + 5 });
    for (const c of [late, earlyB, earlyA, other]) await store().insert(c);
    expect((await store().list({ teamId: mine.teamId }, 10)).map((c) => c.id)).toEqual([earlyA.id, earlyB.id, late.id]);
    expect((await store().list({ teamId: mine.teamId }, 2)).map((c) => c.id)).toEqual([earlyA.id, earlyB.id]);
    expect((await store().list({ teamId: theirs.teamId }, 10)).map((c) => c.id)).toEqual([other.id]);
    // Without a team, every team's: these are the oldest calls of the suite.
    const oldest = call(theirs, { createdAt: T0 - 2 });
    const older = call(mine, { createdAt: T0 - 1 });
    await store().insert(older);
    await store().insert(oldest);
    expect((await store().list({}, 2)).map((c) => c.id)).toEqual([oldest.id, older.id]);
  });

  it.skipIf(!available)('a duplicate id throws and changes nothing', async () => {
    const at = await teamWithEventType();
    const first = call(at);
    await store().insert(first);
    await expect(store().insert({ ...first, numberToCall: '+4930999999' })).rejects.toThrow();
    expect(await store().list({ teamId: at.teamId }, 10)).toEqual([first]);
  });
});
