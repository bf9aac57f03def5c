// GET /v2/slots (docs/integrating.md#slots) over real HTTP on both databases: what only HTTP
// shows. Cal.com's request shape (its MCP server's availability call, cal-api-version
// 2024-09-04), the answer validated against Cal.com's response schema, the ways to name an
// event type, and bad input refused with a 400 naming the parameter. The rules of what makes a
// slot are tested in process (test/services/platform/slots*.test.ts).
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { loadReference, referenceAvailable } from '../helpers/calcom-reference.ts';
import { type TestServer, type TestUser } from '../helpers/server.ts';
import { fixtures, mint, quickUser, type World, useWorld } from './fixtures.ts';

const VERSION = { 'cal-api-version': '2024-09-04' };
const reference = referenceAvailable ? loadReference() : undefined;
const slotsOperation = reference?.publicOperation('GET', '/v2/slots');

/** A Monday and a Tuesday in September 2050, in summer time in Berlin (+02:00), as Cal.com's own examples. */
const MONDAY = '2050-09-05';
const TUESDAY = '2050-09-06';

describe.each(backends)('GET /v2/slots on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

  const get = (query: Record<string, string>, token?: string) => server.api('GET', `/v2/slots?${new URLSearchParams(query).toString()}`, token, undefined, VERSION);

  /** A host whose default schedule is Berlin's Monday and Tuesday, 09:00-17:00, and a 30-minute event type of theirs. */
  async function berlinHost(): Promise<{ user: TestUser; username: string; eventType: Awaited<ReturnType<typeof f.eventType>> }> {
    const user = await quickUser(server);
    const schedule = await f.schedule({ userId: user.id });
    await server.services.stores.api.schedules.setDefault(user.id, schedule.id, false);
    const eventType = await f.eventType({ userId: user.id });
    const username = (await server.services.stores.users.findById(user.id))!.username;
    return { user, username, eventType };
  }

  /** Starts every 30 minutes from 09:00 to 16:30 of a date, written in Berlin's summer time. */
  const workingDay = (date: string) => Array.from({ length: 16 }, (_, i) => `${date}T${String(9 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}:00.000+02:00`);

  it.skipIf(!available)("Cal.com's MCP server's availability call: eventTypeId, start and end date-times, timeZone, with a token it sends", async () => {
    const { user, eventType } = await berlinHost();
    const token = await mint(server, w, user, ['PROFILE_READ']);
    const res = await get({ start: `${MONDAY}T00:00:00.000Z`, end: `${TUESDAY}T23:59:59.999Z`, timeZone: 'Europe/Berlin', eventTypeId: eventType.id }, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      data: { [MONDAY]: workingDay(MONDAY).map((start) => ({ start })), [TUESDAY]: workingDay(TUESDAY).map((start) => ({ start })) },
    });
    if (referenceAvailable) expect(reference!.checkResponse(slotsOperation!, 200, res.body.data)).toBeNull();
  });

  it.skipIf(!available)('format=range and dates: each slot its start and end; a date is read as the whole day in timeZone; no token needed', async () => {
    const { username, eventType } = await berlinHost();
    const res = await get({ eventTypeSlug: eventType.slug, username, start: TUESDAY, end: TUESDAY, timeZone: 'America/New_York', format: 'range' });
    expect(res.status).toBe(200);
    // Berlin's 09:00-17:00 is New York's 03:00-11:00 (-04:00 in September).
    const slots = res.body.data[TUESDAY];
    expect(Object.keys(res.body.data)).toEqual([TUESDAY]);
    expect(slots).toHaveLength(16);
    expect(slots[0]).toEqual({ start: `${TUESDAY}T03:00:00.000-04:00`, end: `${TUESDAY}T03:30:00.000-04:00` });
    expect(slots.at(-1)).toEqual({ start: `${TUESDAY}T10:30:00.000-04:00`, end: `${TUESDAY}T11:00:00.000-04:00` });
    if (referenceAvailable) expect(reference!.checkResponse(slotsOperation!, 200, res.body.data)).toBeNull();
  });

  it.skipIf(!available)('no timeZone is UTC; a day without slots is left out, and none at all is {}', async () => {
    const { eventType } = await berlinHost();
    const monday = await get({ eventTypeId: eventType.id, start: MONDAY, end: '2050-09-11' });
    expect(Object.keys(monday.body.data)).toEqual([MONDAY, TUESDAY]);
    expect(monday.body.data[MONDAY][0]).toEqual({ start: `${MONDAY}T07:00:00.000+00:00` });
    const weekend = await get({ eventTypeId: eventType.id, start: '2050-09-10', end: '2050-09-11' });
    expect(weekend.body).toEqual({ status: 'success', data: {} });
  });

  it.skipIf(!available)("bookingUidToReschedule: the booking's own time is offered again", async () => {
    const { user, eventType } = await berlinHost();
    const booking = await f.booking({ hostId: user.id, eventTypeId: eventType.id, start: Date.parse(`${MONDAY}T07:00:00Z`) });
    const query = { eventTypeId: eventType.id, start: MONDAY, end: MONDAY, timeZone: 'Europe/Berlin' };
    expect((await get(query)).body.data[MONDAY][0]).toEqual({ start: `${MONDAY}T09:30:00.000+02:00` });
    expect((await get({ ...query, bookingUidToReschedule: booking.uid })).body.data[MONDAY][0]).toEqual({ start: `${MONDAY}T09:00:00.000+02:00` });
  });

  it.skipIf(!available)('a team event type by teamSlug (and organizationSlug): collective, every member free; round robin, any', async () => {
    const owner = await quickUser(server);
    const { createTeam, addMember } = await import('../../src/services/teams/teams.ts');
    const team = await createTeam(server.services, { name: 'Slots team', ownerId: owner.id, organizationId: w.org.id });
    const colleague = await quickUser(server);
    await addMember(server.services, { teamId: team.id }, colleague.id, 'member');
    // The owner has Cal.com's default week in UTC; the colleague works Berlin's hours: both from 09:00 to 15:00 UTC.
    const schedule = await f.schedule({ userId: colleague.id });
    await server.services.stores.api.schedules.setDefault(colleague.id, schedule.id, false);
    const eventType = await f.eventType({ teamId: team.id });
    const res = await get({ eventTypeSlug: eventType.slug, teamSlug: team.slug, organizationSlug: w.org.slug, start: MONDAY, end: MONDAY });
    expect(res.status).toBe(200);
    expect(res.body.data[MONDAY][0]).toEqual({ start: `${MONDAY}T09:00:00.000+00:00` });
    expect(res.body.data[MONDAY].at(-1)).toEqual({ start: `${MONDAY}T14:30:00.000+00:00` });
    expect((await get({ eventTypeSlug: eventType.slug, teamSlug: team.slug, organizationSlug: w.otherOrg.slug, start: MONDAY, end: MONDAY })).status).toBe(404);
    // Round robin: any member free, so the owner's 15:00-17:00 UTC and the colleague's 07:00-09:00 UTC are offered too.
    const roundRobin = await f.eventType({ teamId: team.id }, { roundRobin: true });
    const any = await get({ eventTypeId: roundRobin.id, start: MONDAY, end: MONDAY });
    expect(any.body.data[MONDAY][0]).toEqual({ start: `${MONDAY}T07:00:00.000+00:00` });
    expect(any.body.data[MONDAY].at(-1)).toEqual({ start: `${MONDAY}T16:30:00.000+00:00` });
    expect(any.body.data[MONDAY]).toHaveLength(20);
  });

  it.skipIf(!available)('bad input is refused with a 400 naming the parameter; an unknown or hidden event type is 404', async () => {
    const { eventType } = await berlinHost();
    const hidden = await f.eventType({ userId: eventType.ownerId! }, { hidden: true });
    const ok = { eventTypeId: eventType.id, start: MONDAY, end: TUESDAY };
    const refused = async (query: Record<string, string>, status: number, words: RegExp) => {
      const res = await get(query);
      expect({ status: res.status, message: res.body?.error?.message }).toEqual({ status, message: expect.stringMatching(words) });
    };
    await refused({ eventTypeId: eventType.id, end: TUESDAY }, 400, /^start: /);
    await refused({ ...ok, start: 'next monday' }, 400, /^start: /);
    await refused({ ...ok, end: '2050-02-31' }, 400, /^end: must be a date/);
    await refused({ ...ok, start: TUESDAY, end: MONDAY }, 400, /^end: must not be before start/);
    await refused({ ...ok, end: '2051-01-01' }, 400, /^end: at most 92 days/);
    await refused({ ...ok, timeZone: 'Mars/Olympus' }, 400, /^timeZone: "Mars\/Olympus" is not an IANA time zone/);
    await refused({ ...ok, format: 'list' }, 400, /^format: /);
    await refused({ ...ok, duration: '60' }, 400, /^duration: this event type lasts 30 minutes/);
    await refused({ ...ok, eventTypeId: 'abc' }, 400, /^eventTypeId: /);
    await refused({ start: MONDAY, end: TUESDAY }, 400, /^eventTypeId: required, or eventTypeSlug/);
    await refused({ start: MONDAY, end: TUESDAY, eventTypeSlug: eventType.slug }, 400, /^username: required with eventTypeSlug/);
    // docs/integrating.md#dynamic-groups: two usernames at least; an unknown one is 404 as an unknown event type is.
    await refused({ start: MONDAY, end: TUESDAY, usernames: 'alice' }, 400, /^usernames: at least 2 usernames/);
    await refused({ start: MONDAY, end: TUESDAY, usernames: 'no-such-alice,no-such-bob' }, 404, /^no such user "no-such-alice"/);
    await refused({ ...ok, eventTypeId: '987654321' }, 404, /no such event type/);
    await refused({ ...ok, eventTypeId: hidden.id }, 404, /no such event type/);
  });
});
