// Event types answer as Cal.com API v2 (2024-06-14) does (docs/integrating.md#event-type-fields):
// a user's as EventTypeOutput, a team's as TeamEventTypeOutput, the fields Gatehouse keeps from
// its data and the rest with the values that say it has none; the platform's location writing
// is read on the way in. Real HTTP, both databases.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, uniq, type World, useWorld } from './fixtures.ts';

describe.each(backends)('event types in the platform shape on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  useWorld(name, available, (started) => ({ server, w } = started));

  it.skipIf(!available)("a user's event type, made with the platform's locations, answers with its owner, booking fields and honest defaults; Gatehouse keeps {type, value}", async () => {
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
    const slug = `shape-${uniq().toLowerCase()}`;
    const made = await server.api('POST', '/v2/event-types', token, {
      title: 'Shape',
      slug,
      lengthInMinutes: 45,
      locations: [
        { type: 'address', address: '1 Main St', public: true },
        { type: 'link', link: 'https://meet.example.com/shape' },
      ],
      // The platform's field Gatehouse has no notion of: dropped, not refused.
      disableGuests: true,
    });
    expect(made.status).toBe(201);
    const owner = (await server.services.stores.users.findById(w.owner.id))!;
    expect(made.body.data).toMatchObject({
      title: 'Shape',
      slug,
      lengthInMinutes: 45,
      lengthInMinutesOptions: [45],
      locations: [
        { type: 'address', address: '1 Main St', public: false, value: '1 Main St' },
        { type: 'link', link: 'https://meet.example.com/shape', public: false, value: 'https://meet.example.com/shape' },
      ],
      disableGuests: false,
      recurrence: null,
      metadata: {},
      price: 0,
      scheduleId: null,
      successRedirectUrl: null,
      ownerId: Number(w.owner.id),
      teamId: null,
      users: [{ id: Number(w.owner.id), name: owner.name, username: owner.username, avatarUrl: null, weekStart: owner.weekStart }],
      bookingUrl: `${server.config.appUrl}/${owner.username}/${slug}`,
    });
    // Two places: the booker picks one, so the location field is listed.
    expect(made.body.data.bookingFields.map((f: { slug: string }) => f.slug)).toEqual(['name', 'email', 'location', 'title', 'notes', 'guests', 'rescheduleReason']);
    expect(made.body.data).not.toHaveProperty('hosts');
    const stored = await server.services.stores.api.eventTypes.findOwned({ userId: w.owner.id }, String(made.body.data.id));
    expect(stored!.locations).toEqual([
      { type: 'address', value: '1 Main St' },
      { type: 'link', value: 'https://meet.example.com/shape' },
    ]);

    const read = await server.api('GET', `/v2/event-types/${made.body.data.id}`, token);
    expect(read.body.data).toEqual(made.body.data);
  });

  it.skipIf(!available)('a platform location without its value is 400 naming the field, and nothing is made', async () => {
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE']);
    const slug = `no-place-${uniq().toLowerCase()}`;
    const refused = await server.api('POST', '/v2/event-types', token, { title: 'No place', slug, lengthInMinutes: 30, locations: [{ type: 'phone' }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('locations.0.phone');
    const listed = await server.services.stores.api.eventTypes.list({ userId: w.owner.id }, 1000, 0);
    expect(listed.map((e) => e.slug)).not.toContain(slug);
  });

  it.skipIf(!available)("a team's event type answers with its team and every member as a host, at the team's and the organization's addresses", async () => {
    const et = await fixtures(server).eventType({ teamId: w.team.id });
    const token = await mint(server, w, w.teamAdmin, ['TEAM_EVENT_TYPE_READ']);
    const team = (await server.services.stores.teams.findTeam(w.team.id))!;
    const members = await server.services.stores.teams.listMembers({ teamId: w.team.id }, 100);
    for (const path of [`/v2/teams/${w.team.id}/event-types/${et.id}`, `/v2/organizations/${w.org.id}/teams/${w.team.id}/event-types/${et.id}`]) {
      const read = await server.api('GET', path, token);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({
        id: Number(et.id),
        teamId: Number(w.team.id),
        ownerId: null,
        parentEventTypeId: null,
        schedulingType: 'collective',
        assignAllTeamMembers: true,
        team: { id: Number(w.team.id), slug: team.slug, name: team.name, logoUrl: null },
        // One place: nothing to choose, no location field.
        bookingFields: expect.not.arrayContaining([expect.objectContaining({ slug: 'location' })]),
      });
      expect(read.body.data.hosts.map((h: { userId: number }) => String(h.userId)).sort()).toEqual(members.map((m) => m.userId).sort());
      expect(read.body.data.hosts).toContainEqual(expect.objectContaining({ userId: Number(w.member.id), name: 'Mo Member' }));
      expect(read.body.data).not.toHaveProperty('users');
    }
  });

  it.skipIf(!available)("an organization's list answers each event type in its own kind's shape; a change takes the platform's location writing", async () => {
    const f = fixtures(server);
    const mine = await f.eventType({ userId: w.owner.id });
    const ours = await f.eventType({ teamId: w.team.id });
    const admin = await mint(server, w, w.owner, ['ORG_EVENT_TYPE_READ', 'ORG_EVENT_TYPE_WRITE']);
    const listed = await server.api('GET', `/v2/organizations/${w.org.id}/event-types?limit=100`, admin);
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.data.map((e: { id: number }) => [String(e.id), e]));
    expect(byId.get(mine.id)).toMatchObject({ users: [{ id: Number(w.owner.id) }], ownerId: Number(w.owner.id) });
    expect(byId.get(mine.id)).not.toHaveProperty('hosts');
    expect(byId.get(ours.id)).toMatchObject({ team: { id: Number(w.team.id) }, assignAllTeamMembers: true });
    expect(byId.get(ours.id)).not.toHaveProperty('users');

    const changed = await server.api('PATCH', `/v2/organizations/${w.org.id}/event-types/${ours.id}`, admin, { locations: [{ type: 'phone', phone: '+4915112345678', public: false }] });
    expect(changed.status).toBe(200);
    expect(changed.body.data.locations).toEqual([{ type: 'phone', phone: '+4915112345678', public: false, value: '+4915112345678' }]);
    expect((await server.services.stores.api.eventTypes.findInOrganization(w.org.id, ours.id))!.locations).toEqual([{ type: 'phone', value: '+4915112345678' }]);
  });

  it.skipIf(!available)('DELETE answers what the event type was, as the platform does, and it is gone', async () => {
    const et = await fixtures(server).eventType({ userId: w.owner.id }, { lengthInMinutes: 20 });
    const token = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE']);
    const removed = await server.api('DELETE', `/v2/event-types/${et.id}`, token);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ id: Number(et.id), lengthInMinutes: 20, title: et.title, slug: et.slug, deleted: true });
    expect(await server.services.stores.api.eventTypes.findOwned({ userId: w.owner.id }, et.id)).toBeUndefined();
  });
});
