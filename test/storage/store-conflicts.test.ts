// The remaining contracts of the account and booking stores on both backends: the users
// store's batch read and organization marks, a session's duplicate hash, a booking's
// organization scope and host lock, and the private link's foreign key.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { bookingRecord, seedOrganization, seedUser, T0, uniqueId, userRecord, useServiceStores } from './seed.ts';

describe.each(backends)('account and booking store conflicts on $name', ({ name, available }) => {
  const suite = useServiceStores(name, available);

  const organization = () => seedOrganization(suite.database.handle.db);

  async function team(organizationId: string | null = null): Promise<string> {
    const id = uniqueId('t');
    expect(await suite.stores.teams.insertTeam({ id, organizationId, name: 'T', slug: id.toLowerCase(), bio: '', timeZone: 'UTC', brandColor: '#292929', createdAt: T0, updatedAt: T0 })).toBe(true);
    return id;
  }

  it.skipIf(!available)('users.insert: a taken username answers false and writes nothing', async () => {
    const first = userRecord();
    expect(await suite.stores.users.insert(first)).toBe(true);
    const second = userRecord({ username: first.username });
    expect(await suite.stores.users.insert(second)).toBe(false);
    expect(await suite.stores.users.findById(second.id)).toBeUndefined();
    expect(await suite.stores.users.findByEmail(second.email)).toBeUndefined();
  });

  it.skipIf(!available)('users.findByIds: the users of those ids; unknown ids are left out', async () => {
    const a = userRecord();
    const b = userRecord();
    await suite.stores.users.insert(a);
    await suite.stores.users.insert(b);
    const found = await suite.stores.users.findByIds([a.id, 'no-such-user', b.id]);
    expect(found.sort((x, y) => x.id.localeCompare(y.id))).toEqual([a, b].sort((x, y) => x.id.localeCompare(y.id)));
    expect(await suite.stores.users.findByIds([])).toEqual([]);
  });

  it.skipIf(!available)("users.setOrganizationIfNone and clearOrganization: the first organization sticks; only that one is cleared", async () => {
    const u = userRecord();
    await suite.stores.users.insert(u);
    const first = await organization();
    const second = await organization();
    await suite.stores.users.setOrganizationIfNone(u.id, first, T0 + 1);
    await suite.stores.users.setOrganizationIfNone(u.id, second, T0 + 2);
    await suite.stores.users.setOrganizationIfNone('no-such-user', first, T0 + 2);
    expect((await suite.stores.users.findById(u.id))?.organizationId).toBe(first);
    await suite.stores.users.clearOrganization(u.id, second, T0 + 3);
    expect((await suite.stores.users.findById(u.id))?.organizationId).toBe(first);
    await suite.stores.users.clearOrganization(u.id, first, T0 + 3);
    expect((await suite.stores.users.findById(u.id))?.organizationId).toBeNull();
  });

  it.skipIf(!available)('users.updateProfile: the changes roll back with the transaction they ran in', async () => {
    const u = userRecord();
    await suite.stores.users.insert(u);
    await expect(
      suite.stores.transaction(async (tx) => {
        expect(await tx.users.updateProfile(u.id, { name: 'Renamed' }, T0 + 1)).toMatchObject({ name: 'Renamed' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await suite.stores.users.findById(u.id)).toEqual(u);
  });

  it.skipIf(!available)('sessions.insert: a duplicate hash rejects; findLive of an unknown hash is undefined', async () => {
    const u = userRecord();
    await suite.stores.users.insert(u);
    const session = { idHash: uniqueId('h'), userId: u.id, createdAt: T0, expiresAt: T0 + 1000 };
    await suite.stores.sessions.insert(session);
    await expect(suite.stores.sessions.insert({ ...session, createdAt: T0 + 1 })).rejects.toThrow();
    expect(await suite.stores.sessions.findLive(session.idHash, T0)).toEqual({ user: u, createdAt: T0 });
    expect(await suite.stores.sessions.findLive('no-such-hash', T0)).toBeUndefined();
  });

  it.skipIf(!available)("bookings.findScoped and page in an organization: its teams' and its members' bookings, not another organization's team bookings", async () => {
    const org = await organization();
    const otherOrg = await organization();
    const memberId = await seedUser(suite.database.handle.db);
    expect(await suite.stores.teams.insertMembership({ id: uniqueId('m'), userId: memberId, teamId: null, organizationId: org, role: 'member', createdAt: T0, updatedAt: T0 })).toBe(true);
    const own = bookingRecord(memberId, { start: T0 });
    const teamBooking = bookingRecord(await seedUser(suite.database.handle.db), { teamId: await team(org), start: T0 + 1 });
    const foreign = bookingRecord(memberId, { teamId: await team(otherOrg), start: T0 + 2 });
    for (const b of [own, teamBooking, foreign]) await suite.stores.bookings.insert(b);
    expect(await suite.stores.bookings.findScoped({ organizationId: org }, own.uid)).toEqual(own);
    expect(await suite.stores.bookings.findScoped({ organizationId: org }, teamBooking.uid)).toEqual(teamBooking);
    expect(await suite.stores.bookings.findScoped({ organizationId: org }, foreign.uid)).toBeUndefined();
    expect((await suite.stores.bookings.page({ organizationId: org }, {}, 10, 0)).bookings.map((b) => b.uid)).toEqual([own.uid, teamBooking.uid]);
  });

  it.skipIf(!available)('bookings.lockHost: inside a transaction it changes nothing visible, and the booking written after it commits', async () => {
    const host = await seedUser(suite.database.handle.db);
    const b = bookingRecord(host);
    await suite.stores.transaction(async (tx) => {
      await tx.bookings.lockHost(host);
      expect(await tx.bookings.hostIsBusy(host, b.start, b.end)).toBe(false);
      await tx.bookings.insert(b);
    });
    expect(await suite.stores.bookings.find(b.uid)).toEqual(b);
    expect(await suite.stores.bookings.hostIsBusy(host, b.start, b.end)).toBe(true);
  });

  it.skipIf(!available)('bookings.pickTeamHost: round-robin ties go to the longest member; isTeamMember ignores an invitation', async () => {
    const t = await team();
    const longest = await seedUser(suite.database.handle.db);
    const newer = await seedUser(suite.database.handle.db);
    const invitee = await seedUser(suite.database.handle.db);
    expect(await suite.stores.teams.insertMembership({ id: uniqueId('m'), userId: newer, teamId: t, organizationId: null, role: 'owner', createdAt: T0 + 2, updatedAt: T0 })).toBe(true);
    expect(await suite.stores.teams.insertMembership({ id: uniqueId('m'), userId: longest, teamId: t, organizationId: null, role: 'member', createdAt: T0 + 1, updatedAt: T0 })).toBe(true);
    await suite.stores.invitations.insert({ id: uniqueId('i'), teamId: t, organizationId: null, email: null, userId: invitee, role: 'member', invitedBy: newer, createdAt: T0, updatedAt: T0 });
    expect(await suite.stores.bookings.pickTeamHost(t, true, T0)).toBe(longest);
    expect(await suite.stores.bookings.pickTeamHost(t, false, T0)).toBe(newer);
    expect(await suite.stores.bookings.isTeamMember(t, invitee)).toBe(false);
  });

  it.skipIf(!available)('eventTypes.insertPrivateLink: an unknown event type or a duplicate id throws', async () => {
    const host = await seedUser(suite.database.handle.db);
    const id = uniqueId('et');
    await suite.stores.api.eventTypes.insert({
      id,
      ownerId: host,
      teamId: null,
      title: 'T',
      slug: id.toLowerCase(),
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
    });
    const link = { id: uniqueId('pl'), eventTypeId: id, hash: uniqueId('hash'), expiresAt: null, maxUses: null, useCount: 0, createdAt: T0 };
    await expect(suite.stores.api.eventTypes.insertPrivateLink({ ...link, eventTypeId: 'no-such-event-type' })).rejects.toThrow();
    await suite.stores.api.eventTypes.insertPrivateLink(link);
    await expect(suite.stores.api.eventTypes.insertPrivateLink({ ...link, hash: uniqueId('hash') })).rejects.toThrow();
    expect(await suite.stores.api.eventTypes.listPrivateLinks(id)).toEqual([link]);
  });

  it.skipIf(!available)("teams.delete: the team's routing forms, workflows, schedules and memberships go with it", async () => {
    const t = await team();
    const u = await seedUser(suite.database.handle.db);
    expect(await suite.stores.teams.insertMembership({ id: uniqueId('m'), userId: u, teamId: t, organizationId: null, role: 'owner', createdAt: T0, updatedAt: T0 })).toBe(true);
    const formId = uniqueId('form');
    await suite.stores.api.routingForms.insert({ id: formId, teamId: t, organizationId: null, name: 'F', description: '', fields: [], disabled: false, createdAt: T0, updatedAt: T0 });
    await suite.stores.api.routingForms.insertResponse({ id: uniqueId('r'), formId, answers: {}, createdAt: T0, updatedAt: T0 });
    const workflowId = uniqueId('wf');
    await suite.stores.api.workflows.insert({ id: workflowId, teamId: t, name: 'W', trigger: 'BEFORE_EVENT', timeOffsetMinutes: 0, steps: [], activeOnEventTypeIds: [], active: true, createdAt: T0, updatedAt: T0 });
    const scheduleId = uniqueId('s');
    await suite.stores.api.schedules.insert({ id: scheduleId, ownerId: null, teamId: t, name: 'S', timeZone: 'UTC', availability: [], overrides: [], createdAt: T0, updatedAt: T0 });
    expect(await suite.stores.teams.deleteTeam(t, u, T0)).toBe(true);
    expect(await suite.stores.api.routingForms.find({ teamId: t }, formId)).toBeUndefined();
    expect(await suite.stores.api.routingForms.listResponses(formId, 10, 0)).toEqual([]);
    expect(await suite.stores.api.workflows.find(t, workflowId)).toBeUndefined();
    expect(await suite.stores.api.schedules.find({ teamId: t }, scheduleId)).toBeUndefined();
    expect(await suite.stores.bookings.isTeamMember(t, u)).toBe(false);
  });
});
