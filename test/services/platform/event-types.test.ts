// The event types service's rules (src/platform/event-types/service.ts), called in process:
// what only HTTP shows (scopes, the envelope, the answer's shape) is tested in test/platform.
import { describe, expect } from 'vitest';
import { book } from '../../../src/platform/bookings/service.ts';
import {
  createEventType,
  createPrivateLink,
  deleteEventType,
  deletePrivateLink,
  findEventType,
  getEventType,
  listEventTypes,
  listOrganizationTeamEventTypes,
  listPrivateLinks,
  updateEventType,
  updatePrivateLink,
} from '../../../src/platform/event-types/service.ts';
import { it } from './world.ts';

const HOUR = 3_600_000;
const intro = { title: ' Intro call ', slug: 'intro', lengthInMinutes: 30 };

describe('event types', () => {
  it("a new event type takes the defaults, a trimmed title and the platform's places as values; a team's is collective", async ({ world }) => {
    const userId = await world.user({ name: 'Ada' });
    const mine = await createEventType(world.ctx, { userId }, { ...intro, locations: [{ type: 'address', address: '1 Main St' }, { type: 'link', value: 'https://meet.example.com/ada' }] });
    expect(mine.eventType).toMatchObject({ ownerId: userId, teamId: null, title: 'Intro call', slug: 'intro', lengthMinutes: 30, hidden: false, schedulingType: null, createdAt: world.now(), updatedAt: world.now() });
    expect(mine.eventType.locations).toEqual([{ type: 'address', value: '1 Main St' }, { type: 'link', value: 'https://meet.example.com/ada' }]);
    expect(mine.owner).toMatchObject({ id: userId, name: 'Ada', username: `user-${userId}` });
    expect(mine.hosts).toEqual([]);

    const teamId = await world.team(userId);
    const ours = await createEventType(world.ctx, { teamId }, intro);
    expect(ours.eventType).toMatchObject({ ownerId: null, teamId, schedulingType: 'collective' });
    expect((await findEventType(world.ctx, { teamId }, ours.eventType.id)).title).toBe('Intro call');
  });

  it("a team event type comes with its team and every member as a host, each with their username", async ({ world }) => {
    const owner = await world.user({ name: 'Olga' });
    const member = await world.user({ name: 'Max' });
    const teamId = await world.team(owner, { name: 'Support' });
    await world.join({ teamId }, member);
    const { eventType } = await createEventType(world.ctx, { teamId }, intro);
    const got = await getEventType(world.ctx, { teamId }, eventType.id);
    expect(got.team).toMatchObject({ id: teamId, name: 'Support' });
    expect(got.owner).toBeUndefined();
    expect(got.hosts).toEqual([
      { userId: owner, name: 'Olga', username: `user-${owner}` },
      { userId: member, name: 'Max', username: `user-${member}` },
    ]);
  });

  it('a slug is the owner\'s once: a second one conflicts naming it, on create and on change; another owner may use it', async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    await createEventType(world.ctx, { userId: alice }, intro);
    await expect(createEventType(world.ctx, { userId: alice }, { ...intro, title: 'Again' })).rejects.toMatchObject({ kind: 'conflict', message: 'slug: an event type with slug "intro" already exists here' });
    const other = await createEventType(world.ctx, { userId: alice }, { ...intro, slug: 'other' });
    await expect(updateEventType(world.ctx, { userId: alice }, other.eventType.id, { slug: 'intro', title: 'Renamed' })).rejects.toMatchObject({ kind: 'conflict' });
    expect((await findEventType(world.ctx, { userId: alice }, other.eventType.id)).title).toBe('Intro call');
    expect((await createEventType(world.ctx, { userId: bob }, intro)).eventType.slug).toBe('intro');
    expect((await listEventTypes(world.ctx, { userId: alice }, 10, 0)).map((d) => d.eventType.slug)).toEqual(['intro', 'other']);
  });

  it('a place without its value, or a link that is no http(s) URL, is refused naming the field', async ({ world }) => {
    const userId = await world.user();
    await expect(createEventType(world.ctx, { userId }, { ...intro, locations: [{ type: 'phone', public: true }] })).rejects.toMatchObject({
      kind: 'validation',
      message: 'locations.0.phone: a phone location needs its phone (or value)',
    });
    const { eventType } = await createEventType(world.ctx, { userId }, intro);
    // The refusal used up no number of the series: the first event type kept is number 1.
    expect(eventType.id).toBe('1');
    await expect(updateEventType(world.ctx, { userId }, eventType.id, { locations: [{ type: 'address', value: 'here' }, { type: 'link', link: 'javascript:alert(1)' }] })).rejects.toMatchObject({
      message: 'locations.1.value: a link location must be an http(s) URL',
    });
    expect((await findEventType(world.ctx, { userId }, eventType.id)).locations).toEqual([]);
  });

  it("another owner's event type is as absent as a missing one, for read, change, delete and its links", async ({ world }) => {
    const alice = await world.user();
    const bob = await world.user();
    const teamId = await world.team(alice);
    const hers = (await createEventType(world.ctx, { userId: alice }, intro)).eventType;
    const team = (await createEventType(world.ctx, { teamId }, intro)).eventType;
    for (const attempt of [
      getEventType(world.ctx, { userId: bob }, hers.id),
      updateEventType(world.ctx, { userId: bob }, hers.id, { title: 'Mine now' }),
      deleteEventType(world.ctx, { userId: bob }, hers.id),
      listPrivateLinks(world.ctx, { userId: bob }, hers.id),
      createPrivateLink(world.ctx, { userId: bob }, hers.id, {}),
      // A team's event type is not its owner's personal one.
      getEventType(world.ctx, { userId: alice }, team.id),
      findEventType(world.ctx, { userId: alice }, '999999'),
    ]) {
      await expect(attempt).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
    }
    expect((await findEventType(world.ctx, { userId: alice }, hers.id)).title).toBe('Intro call');
    expect(await listPrivateLinks(world.ctx, { userId: alice }, hers.id)).toEqual([]);
  });

  it("an organization reaches its teams' and its members' event types, and nobody else's", async ({ world }) => {
    const owner = await world.user();
    const member = await world.user();
    const outsider = await world.user();
    const organizationId = await world.organization(owner);
    await world.join({ organizationId }, member);
    const teamId = await world.team(owner, { organizationId });
    const teams = (await createEventType(world.ctx, { teamId }, intro)).eventType;
    const members = (await createEventType(world.ctx, { userId: member }, intro)).eventType;
    const outsiders = (await createEventType(world.ctx, { userId: outsider }, intro)).eventType;
    const scope = { organizationId };
    expect((await listEventTypes(world.ctx, scope, 10, 0)).map((d) => d.eventType.id).sort()).toEqual([teams.id, members.id].sort());
    expect((await listOrganizationTeamEventTypes(world.ctx, organizationId, 10, 0)).map((d) => d.eventType.id)).toEqual([teams.id]);
    await expect(updateEventType(world.ctx, scope, outsiders.id, { title: 'Taken' })).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type in this organization' });
    await expect(deleteEventType(world.ctx, scope, outsiders.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect((await findEventType(world.ctx, { userId: outsider }, outsiders.id)).title).toBe('Intro call');
  });

  it("how a team picks its host is the team's only: an organization cannot give one to a member's event type", async ({ world }) => {
    const owner = await world.user();
    const organizationId = await world.organization(owner);
    const teamId = await world.team(owner, { organizationId });
    const personal = (await createEventType(world.ctx, { userId: owner }, intro)).eventType;
    const team = (await createEventType(world.ctx, { teamId }, intro)).eventType;
    await expect(updateEventType(world.ctx, { organizationId }, personal.id, { schedulingType: 'roundRobin' })).rejects.toMatchObject({
      kind: 'validation',
      message: 'schedulingType: applies to team event types only',
    });
    expect((await findEventType(world.ctx, { userId: owner }, personal.id)).schedulingType).toBeNull();
    world.advance(60_000);
    const changed = await updateEventType(world.ctx, { organizationId }, team.id, { schedulingType: 'roundRobin' });
    expect(changed.eventType).toMatchObject({ schedulingType: 'roundRobin', updatedAt: world.now(), createdAt: world.now() - 60_000 });
  });

  it('a delete answers what the event type was, and its links go with it', async ({ world }) => {
    const userId = await world.user();
    const { eventType } = await createEventType(world.ctx, { userId }, { ...intro, hidden: true });
    await createPrivateLink(world.ctx, { userId }, eventType.id, {});
    expect(await deleteEventType(world.ctx, { userId }, eventType.id)).toMatchObject({ id: eventType.id, slug: 'intro', title: 'Intro call' });
    expect(await listEventTypes(world.ctx, { userId }, 10, 0)).toEqual([]);
    expect(await world.ctx.stores.api.eventTypes.listPrivateLinks(eventType.id)).toEqual([]);
  });
});

describe('private links', () => {
  it('a link made with neither an expiry nor a number of uses is good for one booking, then expired', async ({ world }) => {
    const userId = await world.user();
    const { eventType } = await createEventType(world.ctx, { userId }, { ...intro, hidden: true });
    const link = await createPrivateLink(world.ctx, { userId }, eventType.id, {});
    expect(link).toMatchObject({ eventTypeId: eventType.id, expiresAt: null, maxUses: 1, useCount: 0, isExpired: false, createdAt: world.now() });
    expect(link.hash).not.toBe(link.id);

    await book(world.ctx, { eventTypeId: eventType.id, start: world.now() + 24 * HOUR, attendee: { name: 'Guest', email: 'guest@example.com', timeZone: 'UTC' }, privateLink: link.hash });
    expect(await listPrivateLinks(world.ctx, { userId }, eventType.id)).toEqual([{ ...link, useCount: 1, isExpired: true }]);
  });

  it('a link with an expiry is expired once the clock passes it; an expiry must be in the future', async ({ world }) => {
    const userId = await world.user();
    const { eventType } = await createEventType(world.ctx, { userId }, intro);
    await expect(createPrivateLink(world.ctx, { userId }, eventType.id, { expiresAt: new Date(world.now()).toISOString() })).rejects.toMatchObject({
      kind: 'validation',
      message: 'expiresAt: must be in the future',
    });
    const link = await createPrivateLink(world.ctx, { userId }, eventType.id, { expiresAt: new Date(world.now() + HOUR).toISOString() });
    expect(link).toMatchObject({ expiresAt: world.now() + HOUR, maxUses: null, isExpired: false });
    world.advance(HOUR);
    expect((await listPrivateLinks(world.ctx, { userId }, eventType.id))[0]!.isExpired).toBe(true);

    const moved = await updatePrivateLink(world.ctx, { userId }, eventType.id, link.id, { expiresAt: new Date(world.now() + HOUR).toISOString(), maxUsageCount: 5 });
    expect(moved).toMatchObject({ expiresAt: world.now() + HOUR, maxUses: 5, isExpired: false });
    await expect(updatePrivateLink(world.ctx, { userId }, eventType.id, link.id, { expiresAt: new Date(world.now() - 1).toISOString() })).rejects.toMatchObject({ message: 'expiresAt: must be in the future' });
    expect((await listPrivateLinks(world.ctx, { userId }, eventType.id))[0]).toMatchObject({ expiresAt: world.now() + HOUR, maxUses: 5 });
    // Cal.com API v2 sends no field at all on some routes: nothing changes, the link is answered as it is.
    expect(await updatePrivateLink(world.ctx, { userId }, eventType.id, link.id, {})).toMatchObject({ id: link.id, expiresAt: world.now() + HOUR, maxUses: 5, isExpired: false });
  });

  it("a link is its event type's: another event type's link is absent, for change and delete", async ({ world }) => {
    const userId = await world.user();
    const teamId = await world.team(userId);
    const first = (await createEventType(world.ctx, { userId }, intro)).eventType;
    const second = (await createEventType(world.ctx, { userId }, { ...intro, slug: 'second' })).eventType;
    const teams = (await createEventType(world.ctx, { teamId }, intro)).eventType;
    const link = await createPrivateLink(world.ctx, { userId }, first.id, { maxUsageCount: 3 });
    const teamLink = await createPrivateLink(world.ctx, { teamId }, teams.id, {});
    await expect(updatePrivateLink(world.ctx, { userId }, second.id, link.id, { maxUsageCount: 9 })).rejects.toMatchObject({ kind: 'not_found', message: 'no such private link' });
    await expect(deletePrivateLink(world.ctx, { userId }, second.id, link.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such private link' });
    await expect(deletePrivateLink(world.ctx, { userId }, teams.id, teamLink.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
    expect((await listPrivateLinks(world.ctx, { userId }, first.id)).map((l) => l.maxUses)).toEqual([3]);

    expect(await deletePrivateLink(world.ctx, { userId }, first.id, link.id)).toBe(link.id);
    expect(await listPrivateLinks(world.ctx, { userId }, first.id)).toEqual([]);
    expect((await listPrivateLinks(world.ctx, { teamId }, teams.id)).map((l) => l.id)).toEqual([teamLink.id]);
  });
});
