// The contracts of the booking store (platform/bookings/store.ts) and the /v2 API stores, the
// slots' reads among them (api/stores/*.ts), on both backends: what a missing row answers, that a write reads back,
// what a duplicate or a conflict answers, ordering, and that a transaction rolls back.
import { describe, expect, it } from 'vitest';
import type { EventType } from '../../src/platform/event-types/store.ts';
import type { OutOfOfficeEntry } from '../../src/platform/out-of-office/store.ts';
import type { Schedule } from '../../src/platform/schedules/store.ts';
import { backends } from '../helpers/backends.ts';
import { accessTokenRecord, bookingRecord, grantRecord, seedClient, seedOrganization, seedUser, T0, uniqueId, useServiceStores } from './seed.ts';
import { createOAuthStore } from './stores.ts';

const HOUR = 3_600_000;

const SLOT_SETTINGS = {
  slotInterval: 15,
  beforeEventBuffer: 5,
  afterEventBuffer: 10,
  bookingWindow: { type: 'businessDays' as const, days: 10, rolling: true },
  bookingLimitsCount: { day: 2, year: 100 },
  seats: { perTimeSlot: 3, showAttendeeInfo: true, showAvailabilityCount: false },
  bookingLimitsDuration: { day: 90, week: 300 },
  onlyShowFirstAvailableSlot: true,
  offsetStart: 20,
};

function eventType(owner: { userId: string } | { teamId: string }, over: Partial<EventType> = {}): EventType {
  const id = uniqueId('et');
  return {
    id,
    ownerId: 'userId' in owner ? owner.userId : null,
    teamId: 'teamId' in owner ? owner.teamId : null,
    title: '30 min',
    slug: id.toLowerCase(),
    description: '',
    lengthMinutes: 30,
    locations: [],
    bookingFields: [],
    hidden: false,
    requiresConfirmation: false,
    minimumBookingNotice: 0,
    schedulingType: null,
    // docs/integrating.md#slot-rules: settings other than the defaults, so each column's round trip shows.
    ...SLOT_SETTINGS,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

function schedule(owner: { userId: string } | { teamId: string }, over: Partial<Omit<Schedule, 'isDefault' | 'teamOwnerId'>> = {}): Omit<Schedule, 'isDefault' | 'teamOwnerId'> {
  return {
    id: uniqueId('s'),
    ownerId: 'userId' in owner ? owner.userId : null,
    teamId: 'teamId' in owner ? owner.teamId : null,
    name: 'Working hours',
    timeZone: 'UTC',
    availability: [{ days: ['Monday'], startTime: '09:00', endTime: '17:00' }],
    overrides: [],
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

function oooEntry(userId: string, start: number, over: Partial<OutOfOfficeEntry> = {}): OutOfOfficeEntry {
  const id = uniqueId('ooo');
  return { id, uuid: `uuid-${id}`, userId, toUserId: null, start, end: start + HOUR, notes: null, reason: 'unspecified', createdAt: T0, updatedAt: T0, ...over };
}

describe.each(backends)('booking and /v2 API stores on $name', ({ name, available }) => {
  const suite = useServiceStores(name, available);

  const organization = () => seedOrganization(suite.database.handle.db);

  async function team(over: { organizationId?: string | null; createdAt?: number } = {}): Promise<string> {
    const id = uniqueId('t');
    expect(
      await suite.stores.teams.insertTeam({ id, organizationId: over.organizationId ?? null, name: 'T', slug: id.toLowerCase(), bio: '', timeZone: 'UTC', brandColor: '#292929', createdAt: over.createdAt ?? T0, updatedAt: T0 }),
    ).toBe(true);
    return id;
  }

  async function member(teamId: string, userId: string, role: 'owner' | 'admin' | 'member' = 'member', createdAt = T0): Promise<void> {
    expect(await suite.stores.teams.insertMembership({ id: uniqueId('m'), userId, teamId, organizationId: null, role, createdAt, updatedAt: createdAt })).toBe(true);
  }

  // BookingStore

  it.skipIf(!available)('bookings.find: an unknown uid is undefined; an inserted booking reads back as written', async () => {
    const host = await seedUser(suite.database.handle.db);
    expect(await suite.stores.bookings.find('no-such-booking')).toBeUndefined();
    const b = bookingRecord(host, { guests: ['g@example.com'], manageTokenHash: 'h', responses: { company: 'Acme', seats: 3, terms: true, topics: ['a', 'b'] } });
    await suite.stores.bookings.insert(b);
    expect(await suite.stores.bookings.find(b.uid)).toEqual(b);
  });

  it.skipIf(!available)('bookings.insert: a duplicate uid throws', async () => {
    const host = await seedUser(suite.database.handle.db);
    const b = bookingRecord(host);
    await suite.stores.bookings.insert(b);
    await expect(suite.stores.bookings.insert({ ...b, title: 'Other' })).rejects.toThrow();
    expect((await suite.stores.bookings.find(b.uid))?.title).toBe('Meeting');
  });

  it.skipIf(!available)("bookings.findScoped: a booking outside the scope is undefined; the host's and the team's are found", async () => {
    const host = await seedUser(suite.database.handle.db);
    const other = await seedUser(suite.database.handle.db);
    const t = await team();
    const b = bookingRecord(host, { teamId: t });
    await suite.stores.bookings.insert(b);
    expect(await suite.stores.bookings.findScoped({ userId: host }, b.uid)).toEqual(b);
    expect(await suite.stores.bookings.findScoped({ teamId: t }, b.uid)).toEqual(b);
    expect(await suite.stores.bookings.findScoped({ userId: other }, b.uid)).toBeUndefined();
    expect(await suite.stores.bookings.findScoped({ teamId: await team() }, b.uid)).toBeUndefined();
    expect(await suite.stores.bookings.findScoped({ userId: host }, 'no-such-booking')).toBeUndefined();
  });

  it.skipIf(!available)('bookings.page: the scope\'s bookings matching the filter, by start then uid, paged', async () => {
    const host = await seedUser(suite.database.handle.db);
    const late = bookingRecord(host, { uid: `${uniqueId('b')}-z`, start: T0 + 5 * HOUR, end: T0 + 6 * HOUR });
    const earlyB = bookingRecord(host, { uid: 'b-list-b' + host, start: T0, end: T0 + HOUR });
    const earlyA = bookingRecord(host, { uid: 'b-list-a' + host, start: T0, end: T0 + HOUR, status: 'cancelled' });
    for (const b of [late, earlyB, earlyA]) await suite.stores.bookings.insert(b);
    await suite.stores.bookings.insert(bookingRecord(await seedUser(suite.database.handle.db)));
    expect((await suite.stores.bookings.page({ userId: host }, {}, 10, 0)).bookings.map((b) => b.uid)).toEqual([earlyA.uid, earlyB.uid, late.uid]);
    expect((await suite.stores.bookings.page({ userId: host }, {}, 1, 1)).bookings.map((b) => b.uid)).toEqual([earlyB.uid]);
    // The number of all matches rides along, also on a page past the end, which has no row to carry it.
    expect((await suite.stores.bookings.page({ userId: host }, {}, 1, 1)).total).toBe(3);
    expect(await suite.stores.bookings.page({ userId: host }, {}, 10, 5)).toEqual({ bookings: [], total: 3 });
    expect((await suite.stores.bookings.page({ userId: host }, { status: [{ statuses: ['cancelled'] }] }, 10, 0)).bookings.map((b) => b.uid)).toEqual([earlyA.uid]);
    // Terms are alternatives; a term's end window narrows its statuses; a term of no status matches nothing.
    const either = { status: [{ statuses: ['cancelled' as const] }, { statuses: ['accepted' as const], endsFrom: T0 + 2 * HOUR }] };
    expect((await suite.stores.bookings.page({ userId: host }, either, 10, 0)).bookings.map((b) => b.uid)).toEqual([earlyA.uid, late.uid]);
    expect(await suite.stores.bookings.count({ userId: host }, either)).toBe(2);
    expect(await suite.stores.bookings.count({ userId: host }, { status: [{ statuses: [] }] })).toBe(0);
    expect(await suite.stores.bookings.count({ userId: host }, {})).toBe(3);
    expect((await suite.stores.bookings.page({ userId: host }, { afterStart: T0 + HOUR }, 10, 0)).bookings.map((b) => b.uid)).toEqual([late.uid]);
  });

  it.skipIf(!available)('bookings.transition: changes only from a listed status; an unknown uid is false', async () => {
    const host = await seedUser(suite.database.handle.db);
    const b = bookingRecord(host, { status: 'pending' });
    await suite.stores.bookings.insert(b);
    expect(await suite.stores.bookings.transition(b.uid, ['pending'], 'declined', { declineReason: 'busy', updatedAt: T0 + 1 })).toBe(true);
    expect(await suite.stores.bookings.transition(b.uid, ['pending'], 'accepted', { updatedAt: T0 + 2 })).toBe(false);
    expect(await suite.stores.bookings.find(b.uid)).toMatchObject({ status: 'declined', declineReason: 'busy', updatedAt: T0 + 1 });
    expect(await suite.stores.bookings.transition('no-such-booking', ['pending'], 'accepted', { updatedAt: T0 })).toBe(false);
  });

  it.skipIf(!available)('bookings.updateIfUnchanged: a stale version or an unknown uid is false and changes nothing', async () => {
    const host = await seedUser(suite.database.handle.db);
    const b = bookingRecord(host);
    await suite.stores.bookings.insert(b);
    expect(await suite.stores.bookings.updateIfUnchanged(b.uid, T0, { location: 'Room 1', updatedAt: T0 + 1 })).toBe(true);
    expect(await suite.stores.bookings.updateIfUnchanged(b.uid, T0, { location: 'Room 2', updatedAt: T0 + 2 })).toBe(false);
    expect(await suite.stores.bookings.find(b.uid)).toMatchObject({ location: 'Room 1', updatedAt: T0 + 1 });
    expect(await suite.stores.bookings.updateIfUnchanged('no-such-booking', T0, { updatedAt: T0 })).toBe(false);
  });

  it.skipIf(!available)('bookings.update: changes whatever the version; an unknown uid changes nothing', async () => {
    const host = await seedUser(suite.database.handle.db);
    const b = bookingRecord(host);
    await suite.stores.bookings.insert(b);
    await suite.stores.bookings.update(b.uid, { guests: ['x@example.com'], updatedAt: T0 + 5 });
    expect(await suite.stores.bookings.find(b.uid)).toMatchObject({ guests: ['x@example.com'], updatedAt: T0 + 5 });
    await expect(suite.stores.bookings.update('no-such-booking', { updatedAt: T0 })).resolves.toBeUndefined();
    expect(await suite.stores.bookings.find('no-such-booking')).toBeUndefined();
  });

  it.skipIf(!available)('bookings.hostIsBusy and busyTimes: only active bookings overlapping [start, end) count, by start', async () => {
    const host = await seedUser(suite.database.handle.db);
    const a = bookingRecord(host, { start: T0 + 2 * HOUR, end: T0 + 3 * HOUR });
    const c = bookingRecord(host, { start: T0, end: T0 + HOUR, status: 'pending' });
    await suite.stores.bookings.insert(a);
    await suite.stores.bookings.insert(c);
    await suite.stores.bookings.insert(bookingRecord(host, { start: T0 + HOUR, end: T0 + 2 * HOUR, status: 'cancelled' }));
    expect(await suite.stores.bookings.hostIsBusy(host, T0 + HOUR, T0 + 2 * HOUR)).toBe(false);
    expect(await suite.stores.bookings.hostIsBusy(host, T0 + 2 * HOUR - 1, T0 + 2 * HOUR + 1)).toBe(true);
    expect(await suite.stores.bookings.hostIsBusy(host, T0 + 2 * HOUR, T0 + 3 * HOUR, a.uid)).toBe(false);
    expect(await suite.stores.bookings.busyTimes(host, T0, T0 + 4 * HOUR)).toEqual([
      { uid: c.uid, start: c.start, end: c.end },
      { uid: a.uid, start: a.start, end: a.end },
    ]);
    expect(await suite.stores.bookings.busyTimes(host, T0 + HOUR, T0 + 2 * HOUR)).toEqual([]);
  });

  it.skipIf(!available)('bookings.pickTeamHost and isTeamMember: no member is undefined; collective picks the first owner', async () => {
    const t = await team();
    expect(await suite.stores.bookings.pickTeamHost(t, false, T0)).toBeUndefined();
    const older = await seedUser(suite.database.handle.db);
    const owner = await seedUser(suite.database.handle.db);
    await member(t, older, 'member', T0);
    await member(t, owner, 'owner', T0 + 1);
    expect(await suite.stores.bookings.pickTeamHost(t, false, T0)).toBe(owner);
    expect(await suite.stores.bookings.isTeamMember(t, older)).toBe(true);
    expect(await suite.stores.bookings.isTeamMember(t, await seedUser(suite.database.handle.db))).toBe(false);
  });

  it.skipIf(!available)('bookings.pickTeamHost: round robin picks the member with the fewest upcoming active team bookings', async () => {
    const t = await team();
    const busy = await seedUser(suite.database.handle.db);
    const free = await seedUser(suite.database.handle.db);
    await member(t, busy, 'owner', T0);
    await member(t, free, 'member', T0 + 1);
    expect(await suite.stores.bookings.pickTeamHost(t, true, T0)).toBe(busy);
    await suite.stores.bookings.insert(bookingRecord(busy, { teamId: t, start: T0 + HOUR, end: T0 + 2 * HOUR }));
    expect(await suite.stores.bookings.pickTeamHost(t, true, T0)).toBe(free);
  });

  it.skipIf(!available)('bookings.findEventType: an unknown id is undefined; an event type reads back', async () => {
    const host = await seedUser(suite.database.handle.db);
    expect(await suite.stores.bookings.findEventType('no-such-event-type')).toBeUndefined();
    const bookingFields = [
      { slug: 'notes', type: 'textarea', label: 'Notes', placeholder: '', required: true, hidden: false, isDefault: true },
      { slug: 'size', type: 'radio', label: 'Size', options: ['S', 'M'], required: false, hidden: false, disableOnPrefill: true, isDefault: false },
    ];
    const et = eventType({ userId: host }, { requiresConfirmation: true, locations: [{ type: 'link', value: 'https://meet.example.com' }], bookingFields });
    expect(await suite.stores.api.eventTypes.insert(et)).toBeUndefined();
    expect(await suite.stores.bookings.findEventType(et.id)).toEqual({
      id: et.id,
      userId: host,
      teamId: null,
      title: et.title,
      lengthMinutes: 30,
      locations: et.locations,
      bookingFields,
      hidden: false,
      requiresConfirmation: true,
      minimumBookingNotice: 0,
      schedulingType: null,
      ...SLOT_SETTINGS,
    });
  });

  it.skipIf(!available)("eventTypes.updatePrivateLink: changes only the event type's link of that id; another's is undefined", async () => {
    const host = await seedUser(suite.database.handle.db);
    const et = eventType({ userId: host });
    await suite.stores.api.eventTypes.insert(et);
    const link = { id: 'link-upd', eventTypeId: et.id, hash: 'hash-upd', expiresAt: null, maxUses: 1, useCount: 0, createdAt: T0 };
    await suite.stores.api.eventTypes.insertPrivateLink(link);
    expect(await suite.stores.api.eventTypes.updatePrivateLink('other-event-type', link.id, { maxUses: 9 })).toBeUndefined();
    expect(await suite.stores.api.eventTypes.updatePrivateLink(et.id, link.id, { maxUses: 9, expiresAt: T0 + 5 })).toEqual({ ...link, maxUses: 9, expiresAt: T0 + 5 });
    expect(await suite.stores.api.eventTypes.updatePrivateLink(et.id, link.id, { expiresAt: null })).toEqual({ ...link, maxUses: 9, expiresAt: null });
    // No change reads the link back as it is; another event type's is still undefined.
    expect(await suite.stores.api.eventTypes.updatePrivateLink(et.id, link.id, {})).toEqual({ ...link, maxUses: 9, expiresAt: null });
    expect(await suite.stores.api.eventTypes.updatePrivateLink('other-event-type', link.id, {})).toBeUndefined();
  });

  it.skipIf(!available)('bookings.usePrivateLink: spends a use only of the event type\'s unexpired link with uses left', async () => {
    const host = await seedUser(suite.database.handle.db);
    const et = eventType({ userId: host });
    await suite.stores.api.eventTypes.insert(et);
    const link = { id: uniqueId('pl'), eventTypeId: et.id, hash: uniqueId('hash'), expiresAt: T0 + 1000, maxUses: 1, useCount: 0, createdAt: T0 };
    await suite.stores.api.eventTypes.insertPrivateLink(link);
    expect(await suite.stores.bookings.usePrivateLink('other-event-type', link.hash, T0)).toBe(false);
    expect(await suite.stores.bookings.usePrivateLink(et.id, link.hash, T0 + 1000)).toBe(false);
    expect(await suite.stores.bookings.usePrivateLink(et.id, link.hash, T0)).toBe(true);
    expect(await suite.stores.bookings.usePrivateLink(et.id, link.hash, T0)).toBe(false);
    expect((await suite.stores.api.eventTypes.listPrivateLinks(et.id))[0]?.useCount).toBe(1);
  });

  it.skipIf(!available)('transaction: a booking inserted before the function throws is rolled back', async () => {
    const host = await seedUser(suite.database.handle.db);
    const b = bookingRecord(host);
    await expect(
      suite.stores.transaction(async (tx) => {
        await tx.bookings.insert(b);
        expect(await tx.bookings.find(b.uid)).toBeDefined();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await suite.stores.bookings.find(b.uid)).toBeUndefined();
  });

  // EventTypeStore

  it.skipIf(!available)("eventTypes.insert: the owner's taken slug answers 'slugTaken' and inserts nothing; another owner may use it", async () => {
    const host = await seedUser(suite.database.handle.db);
    const first = eventType({ userId: host });
    expect(await suite.stores.api.eventTypes.insert(first)).toBeUndefined();
    const dup = eventType({ userId: host }, { slug: first.slug });
    expect(await suite.stores.api.eventTypes.insert(dup)).toBe('slugTaken');
    expect(await suite.stores.api.eventTypes.findOwned({ userId: host }, dup.id)).toBeUndefined();
    expect(await suite.stores.api.eventTypes.insert(eventType({ userId: await seedUser(suite.database.handle.db) }, { slug: first.slug }))).toBeUndefined();
  });

  it.skipIf(!available)("eventTypes.findOwned: another owner's or an unknown id is undefined; the owner's reads back", async () => {
    const host = await seedUser(suite.database.handle.db);
    const et = eventType({ userId: host });
    await suite.stores.api.eventTypes.insert(et);
    expect(await suite.stores.api.eventTypes.findOwned({ userId: host }, et.id)).toEqual(et);
    expect(await suite.stores.api.eventTypes.findOwned({ userId: await seedUser(suite.database.handle.db) }, et.id)).toBeUndefined();
    expect(await suite.stores.api.eventTypes.findOwned({ userId: host }, 'no-such-event-type')).toBeUndefined();
  });

  it.skipIf(!available)("eventTypes.list: the owner's event types, oldest first, paged", async () => {
    const t = await team();
    const newer = eventType({ teamId: t }, { createdAt: T0 + 2 });
    const older = eventType({ teamId: t }, { createdAt: T0 + 1 });
    await suite.stores.api.eventTypes.insert(newer);
    await suite.stores.api.eventTypes.insert(older);
    expect((await suite.stores.api.eventTypes.list({ teamId: t }, 10, 0)).map((e) => e.id)).toEqual([older.id, newer.id]);
    expect((await suite.stores.api.eventTypes.list({ teamId: t }, 1, 1)).map((e) => e.id)).toEqual([newer.id]);
  });

  it.skipIf(!available)("eventTypes.findInOrganization and listInOrganization: an organization's teams' event types, not another's", async () => {
    const org = await organization();
    const otherOrg = await organization();
    const t = await team({ organizationId: org });
    const et = eventType({ teamId: t });
    await suite.stores.api.eventTypes.insert(et);
    await suite.stores.api.eventTypes.insert(eventType({ teamId: await team({ organizationId: otherOrg }) }));
    expect(await suite.stores.api.eventTypes.findInOrganization(org, et.id)).toEqual(et);
    expect(await suite.stores.api.eventTypes.findInOrganization(otherOrg, et.id)).toBeUndefined();
    expect((await suite.stores.api.eventTypes.listInOrganization(org, 10, 0)).map((e) => e.id)).toEqual([et.id]);
  });

  it.skipIf(!available)("eventTypes.listOfOrganizationTeams: the organization's teams' event types, not its members' own nor another organization's", async () => {
    const org = await organization();
    const t = await team({ organizationId: org });
    const member = await seedUser(suite.database.handle.db);
    await suite.stores.teams.insertMembership({ id: `m-${member}`, userId: member, teamId: null, organizationId: org, role: 'member', createdAt: T0, updatedAt: T0 });
    const teams = eventType({ teamId: t });
    await suite.stores.api.eventTypes.insert(teams);
    await suite.stores.api.eventTypes.insert(eventType({ userId: member }));
    await suite.stores.api.eventTypes.insert(eventType({ teamId: await team({ organizationId: await organization() }) }));
    expect((await suite.stores.api.eventTypes.listInOrganization(org, 10, 0)).length).toBe(2);
    expect((await suite.stores.api.eventTypes.listOfOrganizationTeams(org, 10, 0)).map((e) => e.id)).toEqual([teams.id]);
    expect(await suite.stores.api.eventTypes.listOfOrganizationTeams(org, 10, 1)).toEqual([]);
  });

  it.skipIf(!available)("eventTypes.update: an unknown id is undefined; another event type's slug answers 'slugTaken' and changes nothing", async () => {
    const host = await seedUser(suite.database.handle.db);
    const a = eventType({ userId: host });
    const b = eventType({ userId: host });
    await suite.stores.api.eventTypes.insert(a);
    await suite.stores.api.eventTypes.insert(b);
    expect(await suite.stores.api.eventTypes.update('no-such-event-type', { title: 'x', updatedAt: T0 + 1 })).toBeUndefined();
    expect(await suite.stores.api.eventTypes.update(b.id, { slug: a.slug, title: 'Renamed', updatedAt: T0 + 1 })).toBe('slugTaken');
    expect(await suite.stores.api.eventTypes.findOwned({ userId: host }, b.id)).toEqual(b);
    const bookingFields = [{ slug: 'company', type: 'text', label: 'Company', placeholder: '', required: true, hidden: false, isDefault: false }];
    const updated = await suite.stores.api.eventTypes.update(b.id, { title: 'Renamed', hidden: true, bookingFields, updatedAt: T0 + 1 });
    expect(updated).toEqual({ ...b, title: 'Renamed', hidden: true, bookingFields, updatedAt: T0 + 1 });
    // The slot settings of migration 036 are cleared as they are set (docs/integrating.md#slot-rules).
    const unset = { bookingLimitsDuration: null, onlyShowFirstAvailableSlot: false, offsetStart: 0 };
    expect(await suite.stores.api.eventTypes.update(b.id, { ...unset, updatedAt: T0 + 2 })).toEqual({ ...b, title: 'Renamed', hidden: true, bookingFields, ...unset, updatedAt: T0 + 2 });
  });

  it.skipIf(!available)('eventTypes.delete: its private links go with it; an unknown id removes nothing', async () => {
    const host = await seedUser(suite.database.handle.db);
    const et = eventType({ userId: host });
    await suite.stores.api.eventTypes.insert(et);
    await suite.stores.api.eventTypes.insertPrivateLink({ id: uniqueId('pl'), eventTypeId: et.id, hash: uniqueId('hash'), expiresAt: null, maxUses: null, useCount: 0, createdAt: T0 });
    await suite.stores.api.eventTypes.delete('no-such-event-type');
    await suite.stores.api.eventTypes.delete(et.id);
    expect(await suite.stores.api.eventTypes.findOwned({ userId: host }, et.id)).toBeUndefined();
    expect(await suite.stores.api.eventTypes.listPrivateLinks(et.id)).toEqual([]);
  });

  it.skipIf(!available)('eventTypes.countInTeam: counts only the ids that are the team\'s event types', async () => {
    const t = await team();
    const a = eventType({ teamId: t });
    const b = eventType({ teamId: t });
    const other = eventType({ teamId: await team() });
    for (const e of [a, b, other]) await suite.stores.api.eventTypes.insert(e);
    expect(await suite.stores.api.eventTypes.countInTeam(t, [a.id, b.id, other.id, 'no-such-event-type'])).toBe(2);
  });

  it.skipIf(!available)('eventTypes private links: listed oldest first; deleting another event type\'s or an unknown link is false', async () => {
    const host = await seedUser(suite.database.handle.db);
    const et = eventType({ userId: host });
    const other = eventType({ userId: host });
    await suite.stores.api.eventTypes.insert(et);
    await suite.stores.api.eventTypes.insert(other);
    const newer = { id: uniqueId('pl'), eventTypeId: et.id, hash: uniqueId('hash'), expiresAt: null, maxUses: 3, useCount: 0, createdAt: T0 + 2 };
    const older = { id: uniqueId('pl'), eventTypeId: et.id, hash: uniqueId('hash'), expiresAt: T0 + 9, maxUses: null, useCount: 0, createdAt: T0 + 1 };
    await suite.stores.api.eventTypes.insertPrivateLink(newer);
    await suite.stores.api.eventTypes.insertPrivateLink(older);
    expect(await suite.stores.api.eventTypes.listPrivateLinks(et.id)).toEqual([older, newer]);
    expect(await suite.stores.api.eventTypes.deletePrivateLink(other.id, older.id)).toBe(false);
    expect(await suite.stores.api.eventTypes.deletePrivateLink(et.id, 'no-such-link')).toBe(false);
    expect(await suite.stores.api.eventTypes.deletePrivateLink(et.id, older.id)).toBe(true);
    expect(await suite.stores.api.eventTypes.listPrivateLinks(et.id)).toEqual([newer]);
  });

  // TeamStore (api)

  it.skipIf(!available)('teams.find: an unknown id is undefined', async () => {
    expect(await suite.stores.teams.findTeam('no-such-team')).toBeUndefined();
    const t = await team();
    expect(await suite.stores.teams.findTeam(t)).toMatchObject({ id: t, slug: t.toLowerCase() });
  });

  it.skipIf(!available)("teams.update: another team's slug answers 'slugTaken' and changes nothing; an unknown id is undefined", async () => {
    const a = await team();
    const b = await team();
    const before = await suite.stores.teams.findTeam(b);
    expect(await suite.stores.teams.updateTeam(b, { slug: a.toLowerCase(), name: 'Renamed', updatedAt: T0 + 1 })).toBe('slugTaken');
    expect(await suite.stores.teams.findTeam(b)).toEqual(before);
    expect(await suite.stores.teams.updateTeam('no-such-team', { name: 'x', updatedAt: T0 + 1 })).toBeUndefined();
    const updated = await suite.stores.teams.updateTeam(b, { name: 'Renamed', bio: 'Hi', updatedAt: T0 + 1 });
    expect(updated).toEqual({ ...before, name: 'Renamed', bio: 'Hi', updatedAt: T0 + 1 });
    expect(await suite.stores.teams.findTeam(b)).toEqual(updated);
  });

  /** A team, its owner, a client of team scopes, the core's store, and a grant for the team not yet written. */
  async function teamGrantToBe() {
    const db = suite.database.handle.db;
    const t = await team();
    const owner = await seedUser(db);
    const client = await seedClient(db, owner, { scopes: ['TEAM_PROFILE_READ'] });
    return { t, owner, client, oauth: createOAuthStore(db), forTeam: grantRecord(owner, client, { teamId: t, scopes: ['TEAM_PROFILE_READ'] }) };
  }

  it.skipIf(!available)("teams.delete: revokes the grants that acted for the team and their tokens, audited as the deleter's doing; other grants stay", async () => {
    const db = suite.database.handle.db;
    const { t, owner, client, oauth, forTeam } = await teamGrantToBe();
    const forOtherTeam = grantRecord(owner, client, { teamId: await team(), scopes: ['TEAM_PROFILE_READ'] });
    const own = grantRecord(owner, client);
    for (const g of [forTeam, forOtherTeam, own]) await oauth.createGrant(g);
    const token = accessTokenRecord(forTeam);
    await oauth.createAccessToken(token);
    expect(await suite.stores.teams.deleteTeam(t, owner, T0 + 5)).toBe(true);
    expect((await oauth.findGrant(forTeam.id))?.revokedAt).toBe(T0 + 5);
    expect((await oauth.findAccessToken(token.hash))?.revokedAt).toBe(T0 + 5);
    expect((await oauth.findGrant(forOtherTeam.id))?.revokedAt).toBeNull();
    expect((await oauth.findGrant(own.id))?.revokedAt).toBeNull();
    const audit = await db.selectFrom('audit_events').selectAll().where('type', '=', 'grant.revoked').where('actor_id', '=', owner).execute();
    expect(audit.map((r) => ({ client: r.client_id, user: r.user_id, data: JSON.parse(r.data!) }))).toEqual([{ client, user: owner, data: { grantId: forTeam.id, teamId: t, reason: 'team deleted' } }]);
  });

  it.skipIf(!available)("teams.delete: waits for an authorization holding the team, then revokes the grant it wrote (docs/rules.md#team-authorization)", async () => {
    const { t, owner, oauth, forTeam } = await teamGrantToBe();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const granting = oauth.transaction(async (tx) => {
      expect(await tx.holdTeamAuthority(t, owner)).toBeDefined();
      holding();
      await released;
      await tx.createGrant(forTeam);
    });
    await held;
    const deleting = suite.stores.teams.deleteTeam(t, owner, T0 + 5);
    let settled = false;
    void deleting.then(() => (settled = true));
    // The deletion is under way and must be waiting for the held team (there is no event to
    // wait for: only its absence): on PostgreSQL it would otherwise read the team's grants
    // before this one is written, and miss it.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(settled).toBe(false);
    release();
    await granting;
    expect(await deleting).toBe(true);
    expect((await oauth.findGrant(forTeam.id))?.revokedAt).toBe(T0 + 5);
  });

  it.skipIf(!available)('teams.delete: removes its event types and bookings too; an unknown id is false', async () => {
    const t = await team();
    const host = await seedUser(suite.database.handle.db);
    const et = eventType({ teamId: t });
    await suite.stores.api.eventTypes.insert(et);
    const b = bookingRecord(host, { teamId: t, eventTypeId: et.id });
    await suite.stores.bookings.insert(b);
    expect(await suite.stores.teams.deleteTeam('no-such-team', host, T0)).toBe(false);
    expect(await suite.stores.teams.deleteTeam(t, host, T0)).toBe(true);
    expect(await suite.stores.teams.findTeam(t)).toBeUndefined();
    expect(await suite.stores.bookings.findEventType(et.id)).toBeUndefined();
    expect(await suite.stores.bookings.find(b.uid)).toBeUndefined();
    expect(await suite.stores.teams.deleteTeam(t, host, T0)).toBe(false);
  });

  it.skipIf(!available)("teams.listOfOrganization: the organization's teams, oldest first, paged", async () => {
    const org = await organization();
    const newer = await team({ organizationId: org, createdAt: T0 + 2 });
    const older = await team({ organizationId: org, createdAt: T0 + 1 });
    await team();
    expect((await suite.stores.teams.listTeamsOfOrganization(org, 10, 0)).map((t) => t.id)).toEqual([older, newer]);
    expect((await suite.stores.teams.listTeamsOfOrganization(org, 1, 1)).map((t) => t.id)).toEqual([newer]);
    expect(await suite.stores.teams.listTeamsOfOrganization('no-such-org', 10, 0)).toEqual([]);
  });

  it.skipIf(!available)("teams.listTeamsOfUser: the teams the user belongs to, oldest first, paged, optionally of one organization", async () => {
    const org = await organization();
    const user = await seedUser(suite.database.handle.db);
    const inOrg = await team({ organizationId: org, createdAt: T0 + 2 });
    const alone = await team({ createdAt: T0 + 1 });
    await team({ organizationId: org, createdAt: T0 + 3 });
    for (const [teamId, role] of [[inOrg, 'member'], [alone, 'owner']] as const) {
      expect(await suite.stores.teams.insertMembership({ id: `m-${teamId}`, userId: user, teamId, organizationId: null, role, createdAt: T0, updatedAt: T0 })).toBe(true);
    }
    expect((await suite.stores.teams.listTeamsOfUser(user, {}, 10, 0)).map((t) => t.id)).toEqual([alone, inOrg]);
    expect((await suite.stores.teams.listTeamsOfUser(user, {}, 1, 1)).map((t) => t.id)).toEqual([inOrg]);
    expect((await suite.stores.teams.listTeamsOfUser(user, { organizationId: org }, 10, 0)).map((t) => t.id)).toEqual([inOrg]);
    expect(await suite.stores.teams.listTeamsOfUser('no-such-user', {}, 10, 0)).toEqual([]);
  });

  // ScheduleStore

  it.skipIf(!available)('schedules.insert and find: reads back with isDefault false; out of scope or unknown is undefined; a duplicate id throws', async () => {
    const user = await seedUser(suite.database.handle.db);
    const s = schedule({ userId: user });
    await suite.stores.api.schedules.insert(s);
    expect(await suite.stores.api.schedules.find({ userId: user }, s.id)).toEqual({ ...s, isDefault: false, teamOwnerId: null });
    expect(await suite.stores.api.schedules.find({ userId: await seedUser(suite.database.handle.db) }, s.id)).toBeUndefined();
    expect(await suite.stores.api.schedules.find({ userId: user }, 'no-such-schedule')).toBeUndefined();
    await expect(suite.stores.api.schedules.insert(s)).rejects.toThrow();
  });

  it.skipIf(!available)("schedules.find and list: a team's schedule names the team's first owner (teamOwnerId); a team with no owner, none", async () => {
    const t = await team();
    const s = schedule({ teamId: t });
    await suite.stores.api.schedules.insert(s);
    expect((await suite.stores.api.schedules.find({ teamId: t }, s.id))?.teamOwnerId).toBeNull();
    const [first, second] = [await seedUser(suite.database.handle.db), await seedUser(suite.database.handle.db)];
    await suite.stores.teams.insertMembership({ id: uniqueId('m'), userId: second, teamId: t, organizationId: null, role: 'owner', createdAt: T0 + 2, updatedAt: T0 + 2 });
    await suite.stores.teams.insertMembership({ id: uniqueId('m'), userId: first, teamId: t, organizationId: null, role: 'owner', createdAt: T0 + 1, updatedAt: T0 + 1 });
    await suite.stores.teams.insertMembership({ id: uniqueId('m'), userId: await seedUser(suite.database.handle.db), teamId: t, organizationId: null, role: 'admin', createdAt: T0, updatedAt: T0 });
    expect((await suite.stores.api.schedules.find({ teamId: t }, s.id))?.teamOwnerId).toBe(first);
    expect((await suite.stores.api.schedules.list({ teamId: t }, 10, 0)).map((x) => x.teamOwnerId)).toEqual([first]);
  });

  it.skipIf(!available)("schedules.list: the scope's schedules, oldest first, paged", async () => {
    const t = await team();
    const newer = schedule({ teamId: t }, { createdAt: T0 + 2 });
    const older = schedule({ teamId: t }, { createdAt: T0 + 1 });
    await suite.stores.api.schedules.insert(newer);
    await suite.stores.api.schedules.insert(older);
    expect((await suite.stores.api.schedules.list({ teamId: t }, 10, 0)).map((s) => s.id)).toEqual([older.id, newer.id]);
    expect((await suite.stores.api.schedules.list({ teamId: t }, 1, 1)).map((s) => s.id)).toEqual([newer.id]);
  });

  it.skipIf(!available)('schedules.update: changes read back; an unknown id changes nothing', async () => {
    const user = await seedUser(suite.database.handle.db);
    const s = schedule({ userId: user });
    await suite.stores.api.schedules.insert(s);
    await suite.stores.api.schedules.update(s.id, { name: 'Evenings', overrides: [{ date: '2026-01-01', startTime: '10:00', endTime: '11:00' }], updatedAt: T0 + 1 });
    expect(await suite.stores.api.schedules.find({ userId: user }, s.id)).toMatchObject({ name: 'Evenings', overrides: [{ date: '2026-01-01', startTime: '10:00', endTime: '11:00' }], updatedAt: T0 + 1 });
    await expect(suite.stores.api.schedules.update('no-such-schedule', { name: 'x', updatedAt: T0 })).resolves.toBeUndefined();
  });

  it.skipIf(!available)('schedules.setDefault and clearDefault: onlyIfUnset keeps an existing default; clearDefault unsets it', async () => {
    const user = await seedUser(suite.database.handle.db);
    const a = schedule({ userId: user });
    const b = schedule({ userId: user });
    await suite.stores.api.schedules.insert(a);
    await suite.stores.api.schedules.insert(b);
    await suite.stores.api.schedules.setDefault(user, a.id, true);
    await suite.stores.api.schedules.setDefault(user, b.id, true);
    expect((await suite.stores.api.schedules.find({ userId: user }, a.id))?.isDefault).toBe(true);
    expect((await suite.stores.api.schedules.find({ userId: user }, b.id))?.isDefault).toBe(false);
    await suite.stores.api.schedules.setDefault(user, b.id, false);
    expect((await suite.stores.api.schedules.find({ userId: user }, b.id))?.isDefault).toBe(true);
    await suite.stores.api.schedules.clearDefault(user);
    expect((await suite.stores.api.schedules.find({ userId: user }, b.id))?.isDefault).toBe(false);
  });

  it.skipIf(!available)("schedules.delete: removes it and unsets it as the user's default, so a later onlyIfUnset default applies", async () => {
    const user = await seedUser(suite.database.handle.db);
    const a = schedule({ userId: user });
    const b = schedule({ userId: user });
    await suite.stores.api.schedules.insert(a);
    await suite.stores.api.schedules.insert(b);
    await suite.stores.api.schedules.setDefault(user, a.id, false);
    await suite.stores.transaction((tx) => tx.api.schedules.delete(a.id));
    expect(await suite.stores.api.schedules.find({ userId: user }, a.id)).toBeUndefined();
    await suite.stores.api.schedules.setDefault(user, b.id, true);
    expect((await suite.stores.api.schedules.find({ userId: user }, b.id))?.isDefault).toBe(true);
  });

  it.skipIf(!available)('transaction: a schedule delete and a team update roll back when the function throws', async () => {
    const user = await seedUser(suite.database.handle.db);
    const s = schedule({ userId: user });
    await suite.stores.api.schedules.insert(s);
    const t = await team();
    await expect(
      suite.stores.transaction(async (tx) => {
        await tx.api.schedules.delete(s.id);
        await tx.teams.updateTeam(t, { name: 'Gone', updatedAt: T0 + 1 });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await suite.stores.api.schedules.find({ userId: user }, s.id)).toBeDefined();
    expect((await suite.stores.teams.findTeam(t))?.name).toBe('T');
  });
  // OutOfOfficeStore

  it.skipIf(!available)("outOfOffice.insert and find: reads back as written; another user's, or an unknown id, is undefined; a duplicate id or uuid throws", async () => {
    const db = suite.database.handle.db;
    const user = await seedUser(db);
    const cover = await seedUser(db);
    const e = oooEntry(user, T0, { toUserId: cover, notes: 'Away', reason: 'public_holiday' });
    await suite.stores.api.outOfOffice.insert(e);
    expect(await suite.stores.api.outOfOffice.find(user, e.id)).toEqual(e);
    expect(await suite.stores.api.outOfOffice.find(cover, e.id)).toBeUndefined();
    expect(await suite.stores.api.outOfOffice.find(user, 'no-such-entry')).toBeUndefined();
    await expect(suite.stores.api.outOfOffice.insert({ ...e, uuid: 'other' })).rejects.toThrow();
    await expect(suite.stores.api.outOfOffice.insert({ ...e, id: uniqueId('ooo') })).rejects.toThrow();
  });

  it.skipIf(!available)("outOfOffice.listOfUser: the user's entries, by start unless told, by end or descending when asked, paged", async () => {
    const user = await seedUser(suite.database.handle.db);
    const late = oooEntry(user, T0 + 10 * HOUR, { end: T0 + 11 * HOUR });
    const early = oooEntry(user, T0, { end: T0 + 20 * HOUR });
    await suite.stores.api.outOfOffice.insert(late);
    await suite.stores.api.outOfOffice.insert(early);
    await suite.stores.api.outOfOffice.insert(oooEntry(await seedUser(suite.database.handle.db), T0));
    const ids = async (order: { sortStart?: 'asc' | 'desc'; sortEnd?: 'asc' | 'desc' }, limit = 10, offset = 0) =>
      (await suite.stores.api.outOfOffice.listOfUser(user, order, limit, offset)).map((e) => e.id);
    expect(await ids({})).toEqual([early.id, late.id]);
    expect(await ids({ sortStart: 'desc' })).toEqual([late.id, early.id]);
    expect(await ids({ sortEnd: 'asc' })).toEqual([late.id, early.id]);
    expect(await ids({}, 1, 1)).toEqual([late.id]);
  });

  it.skipIf(!available)("outOfOffice.listOfOrganization: its accepted members' entries, one member's by e-mail in any case, no one else's", async () => {
    const db = suite.database.handle.db;
    const org = await organization();
    const inOrg = await seedUser(db);
    const outside = await seedUser(db);
    expect(await suite.stores.teams.insertMembership({ id: uniqueId('m'), userId: inOrg, teamId: null, organizationId: org, role: 'member', createdAt: T0, updatedAt: T0 })).toBe(true);
    const mine = oooEntry(inOrg, T0);
    await suite.stores.api.outOfOffice.insert(mine);
    await suite.stores.api.outOfOffice.insert(oooEntry(outside, T0));
    const list = (filter: { email?: string }) => suite.stores.api.outOfOffice.listOfOrganization(org, filter, {}, 10, 0);
    expect((await list({})).map((e) => e.id)).toEqual([mine.id]);
    expect((await list({ email: `${inOrg}@example.com`.toUpperCase() })).map((e) => e.id)).toEqual([mine.id]);
    expect(await list({ email: `${outside}@example.com` })).toEqual([]);
  });

  it.skipIf(!available)('outOfOffice.update and delete: changes read back, a null toUserId clears it; unknown ids change nothing', async () => {
    const db = suite.database.handle.db;
    const user = await seedUser(db);
    const e = oooEntry(user, T0, { toUserId: await seedUser(db) });
    await suite.stores.api.outOfOffice.insert(e);
    await suite.stores.api.outOfOffice.update(e.id, { start: T0 + HOUR, end: T0 + 3 * HOUR, notes: 'Moved', toUserId: null, reason: 'sick', updatedAt: T0 + 1 });
    expect(await suite.stores.api.outOfOffice.find(user, e.id)).toEqual({ ...e, start: T0 + HOUR, end: T0 + 3 * HOUR, notes: 'Moved', toUserId: null, reason: 'sick', updatedAt: T0 + 1 });
    await expect(suite.stores.api.outOfOffice.update('no-such-entry', { notes: 'x', updatedAt: T0 })).resolves.toBeUndefined();
    await suite.stores.api.outOfOffice.delete('no-such-entry');
    await suite.stores.api.outOfOffice.delete(e.id);
    expect(await suite.stores.api.outOfOffice.find(user, e.id)).toBeUndefined();
  });

  it.skipIf(!available)("outOfOffice.overlaps: [start, end) against the user's other entries only; touching ends do not overlap", async () => {
    const user = await seedUser(suite.database.handle.db);
    const e = oooEntry(user, T0, { end: T0 + 2 * HOUR });
    await suite.stores.api.outOfOffice.insert(e);
    const overlaps = suite.stores.api.outOfOffice.overlaps;
    expect(await overlaps(user, T0 + HOUR, T0 + 3 * HOUR)).toBe(true);
    expect(await overlaps(user, T0 - HOUR, T0 + 3 * HOUR)).toBe(true);
    expect(await overlaps(user, T0 + 2 * HOUR, T0 + 3 * HOUR)).toBe(false);
    expect(await overlaps(user, T0 - HOUR, T0)).toBe(false);
    expect(await overlaps(user, T0, T0 + HOUR, e.id)).toBe(false);
    expect(await overlaps(await seedUser(suite.database.handle.db), T0, T0 + HOUR)).toBe(false);
  });

  it.skipIf(!available)('outOfOffice.sharesMembership: an accepted member of a shared team or organization; not of different ones, nor a pending invitee', async () => {
    const db = suite.database.handle.db;
    const [user, teammate, orgmate, stranger, invitee] = await Promise.all([seedUser(db), seedUser(db), seedUser(db), seedUser(db), seedUser(db)]);
    const t = await team();
    const other = await team();
    const org = await organization();
    await member(t, user);
    await member(t, teammate, 'admin');
    await member(other, stranger);
    for (const u of [user, orgmate]) {
      expect(await suite.stores.teams.insertMembership({ id: uniqueId('m'), userId: u, teamId: null, organizationId: org, role: 'member', createdAt: T0, updatedAt: T0 })).toBe(true);
    }
    await db.insertInto('membership_invitations').values({ id: uniqueId('i'), team_id: t, organization_id: null, email: null, user_id: invitee, role: 'member', invited_by: user, created_at: T0, updated_at: T0 }).execute();
    const shares = suite.stores.api.outOfOffice.sharesMembership;
    expect(await shares(user, teammate)).toBe(true);
    expect(await shares(user, orgmate)).toBe(true);
    expect(await shares(user, stranger)).toBe(false);
    expect(await shares(user, invitee)).toBe(false);
    expect(await shares(user, 'no-such-user')).toBe(false);
  });

  it.skipIf(!available)("transaction: an entry inserted under the user's lock rolls back when the function throws", async () => {
    const user = await seedUser(suite.database.handle.db);
    const e = oooEntry(user, T0);
    await expect(
      suite.stores.transaction(async (tx) => {
        await tx.api.outOfOffice.lockUser(user);
        await tx.api.outOfOffice.insert(e);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await suite.stores.api.outOfOffice.find(user, e.id)).toBeUndefined();
  });

  // BookingAttendeeStore and BookingProviderStore

  it.skipIf(!available)('bookings.insert writes the booker, then each guest other than the booker, as attendees; a rolled-back insert writes neither', async () => {
    const host = await seedUser(suite.database.handle.db);
    const b = bookingRecord(host, { guests: ['zed@example.com', 'bo@example.com', 'amy@example.com'] });
    await suite.stores.bookings.insert(b);
    const listed = await suite.stores.api.bookingAttendees.list(b.uid);
    expect(listed.map((a) => [a.role, a.email, a.name, a.timeZone, a.absent])).toEqual([
      ['booker', 'bo@example.com', 'Bo', 'UTC', false],
      ['guest', 'amy@example.com', '', 'UTC', false],
      ['guest', 'zed@example.com', '', 'UTC', false],
    ]);
    expect(new Set(listed.map((a) => a.id)).size).toBe(3);
    const failed = bookingRecord(host);
    await expect(suite.stores.transaction(async (tx) => {
      await tx.bookings.insert(failed);
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(await suite.stores.api.bookingAttendees.list(failed.uid)).toEqual([]);
  });

  it.skipIf(!available)("bookingAttendees: find is the booking's own only; an address twice throws; setAbsent reads back, and bookings.setHostAbsent", async () => {
    const host = await seedUser(suite.database.handle.db);
    const b = bookingRecord(host);
    const other = bookingRecord(host);
    await suite.stores.bookings.insert(b);
    await suite.stores.bookings.insert(other);
    const [added] = await suite.stores.api.bookingAttendees.insert([{ bookingUid: b.uid, role: 'added', email: 'cy@example.com', name: 'Cy', timeZone: 'UTC', phoneNumber: '+4915000000000', language: 'de', createdAt: T0 + 1 }]);
    expect(await suite.stores.api.bookingAttendees.find(b.uid, added!.id)).toEqual(added);
    expect(await suite.stores.api.bookingAttendees.find(other.uid, added!.id)).toBeUndefined();
    await expect(suite.stores.api.bookingAttendees.insert([{ ...added!, email: 'bo@example.com' }])).rejects.toThrow();
    await suite.stores.api.bookingAttendees.setAbsent(b.uid, 'CY@example.com', true);
    await suite.stores.api.bookingAttendees.setAbsent(b.uid, 'nobody@example.com', true);
    expect((await suite.stores.api.bookingAttendees.list(b.uid)).map((a) => [a.email, a.absent])).toEqual([['bo@example.com', false], ['cy@example.com', true]]);
    await suite.stores.bookings.setHostAbsent(b.uid, true);
    expect((await suite.stores.bookings.find(b.uid))!.absentHost).toBe(true);
    expect((await suite.stores.bookings.find(other.uid))!.absentHost).toBe(false);
  });

  it.skipIf(!available)('bookingProviders: lists are empty until written, oldest first, a reference type filters; a provider id taken is undefined', async () => {
    const host = await seedUser(suite.database.handle.db);
    const b = bookingRecord(host);
    await suite.stores.bookings.insert(b);
    const p = suite.stores.api.bookingProviders;
    expect(await p.bookingExists(b.uid)).toBe(true);
    expect(await p.bookingExists('no-such-booking')).toBe(false);
    expect([await p.references(b.uid), await p.recordings(b.uid), await p.transcripts(b.uid), await p.sessions(b.uid)]).toEqual([[], [], [], []]);
    const late = await p.addReference({ bookingUid: b.uid, type: 'zoom_video', eventUid: 'z', destinationCalendarId: null, createdAt: T0 + 2 });
    const early = await p.addReference({ bookingUid: b.uid, type: 'google_calendar', eventUid: 'g', destinationCalendarId: 'primary', createdAt: T0 + 1 });
    expect(await p.references(b.uid)).toEqual([early, late]);
    expect(await p.references(b.uid, 'zoom_video')).toEqual([late]);
    const recording = { id: uniqueId('rec'), bookingUid: b.uid, roomName: 'r', startTs: 1, status: 'completed', maxParticipants: null, duration: 60, shareToken: 's', downloadLink: null, error: null, createdAt: T0 };
    expect(await p.addRecording(recording)).toEqual(recording);
    expect(await p.addRecording({ ...recording, roomName: 'again' })).toBeUndefined();
    expect(await p.recordings(b.uid)).toEqual([recording]);
    const session = await p.addSession({ bookingUid: b.uid, room: 'r', startTime: 1, duration: 60, ongoing: true, maxParticipants: 2, participants: [{ userId: null, userName: 'Guest', joinTime: 2, duration: 30 }], createdAt: T0 });
    expect(await p.sessions(b.uid)).toEqual([session]);
    const transcript = await p.addTranscript({ bookingUid: b.uid, url: 'https://t.example.com/1', createdAt: T0 });
    expect(await p.transcripts(b.uid)).toEqual([transcript]);
  });
  // SlotStore

  it.skipIf(!available)("slots.hosts: a personal event type's owner, a team's members (by joining), each with their default schedule or null", async () => {
    const db = suite.database.handle.db;
    const [first, second, outsider] = [await seedUser(db), await seedUser(db), await seedUser(db)];
    const t = await team();
    await member(t, second, 'member', T0 + 1);
    await member(t, first, 'owner', T0);
    const own = schedule({ userId: first }, { timeZone: 'Europe/Berlin', overrides: [{ date: '2030-01-08', startTime: '00:00', endTime: '00:00' }] });
    await suite.stores.api.schedules.insert(own);
    await suite.stores.api.schedules.setDefault(first, own.id, false);
    // Another user's schedule named as a default is none of theirs.
    await suite.stores.api.schedules.setDefault(outsider, own.id, false);
    const firstHost = { id: first, timeZone: 'UTC', schedule: { timeZone: 'Europe/Berlin', availability: own.availability, overrides: own.overrides } };
    expect(await suite.stores.api.slots.hosts({ userId: first })).toEqual([firstHost]);
    expect(await suite.stores.api.slots.hosts({ teamId: t })).toEqual([firstHost, { id: second, timeZone: 'UTC', schedule: null }]);
    expect(await suite.stores.api.slots.hosts({ userId: outsider })).toEqual([{ id: outsider, timeZone: 'UTC', schedule: null }]);
    expect(await suite.stores.api.slots.hosts({ teamId: await team() })).toEqual([]);
    expect(await suite.stores.api.slots.hosts({ userId: 'no-such-user' })).toEqual([]);
  });

  it.skipIf(!available)('slots.bookings and slots.away: the hosts\' accepted and pending bookings and their time off overlapping the period, by start; exceptUid left out', async () => {
    const db = suite.database.handle.db;
    const [a, b, other] = [await seedUser(db), await seedUser(db), await seedUser(db)];
    const at = (hours: number) => T0 + hours * HOUR;
    const late = bookingRecord(a, { start: at(5), end: at(6) });
    const pending = bookingRecord(b, { start: at(1), end: at(2), status: 'pending' });
    const moving = bookingRecord(a, { start: at(3), end: at(4) });
    for (const booking of [late, pending, moving, bookingRecord(a, { start: at(2), end: at(3), status: 'cancelled' }), bookingRecord(a, { start: at(10), end: at(11) }), bookingRecord(other, { start: at(1), end: at(2) })]) {
      await suite.stores.bookings.insert(booking);
    }
    // Each with its uid and event type (none here: no buffers).
    const row = (booking: typeof late) => ({ hostId: booking.hostId, start: booking.start, end: booking.end, uid: booking.uid, eventTypeId: null, beforeBufferMinutes: 0, afterBufferMinutes: 0 });
    expect(await suite.stores.api.slots.bookings([a, b], at(1), at(6))).toEqual([row(pending), row(moving), row(late)]);
    expect(await suite.stores.api.slots.bookings([a, b], at(1), at(6), moving.uid)).toEqual([row(pending), row(late)]);
    expect(await suite.stores.api.slots.bookings([], at(0), at(100))).toEqual([]);
    await suite.stores.api.outOfOffice.insert(oooEntry(a, at(7)));
    await suite.stores.api.outOfOffice.insert(oooEntry(b, at(2)));
    await suite.stores.api.outOfOffice.insert(oooEntry(other, at(2)));
    // [start, end): an entry ending where the period starts does not overlap it.
    expect(await suite.stores.api.slots.away([a, b], at(3), at(8))).toEqual([{ hostId: a, start: at(7), end: at(8) }]);
    expect(await suite.stores.api.slots.away([a, b], at(0), at(8))).toEqual([{ hostId: b, start: at(2), end: at(3) }, { hostId: a, start: at(7), end: at(8) }]);
  });
});
