// Availability over real HTTP on both databases, one server per database (test/platform/fixtures.ts
// `useServer`), each block with a world of its own: what only HTTP shows of GET /v2/slots, slot
// reservations, bookings keeping to availability, and the event types' slot rules. The rules of
// what makes a slot are tested in process (test/services/platform/slots*.test.ts,
// slot-reservations.test.ts, booking-availability*.test.ts).
import { describe, expect, it } from 'vitest';
import { addMember, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { loadReference, referenceAvailable } from '../helpers/calcom-reference.ts';
import type { TestServer, TestUser } from '../helpers/server.ts';
import { fixtures, futureStart, mint, quickUser, type World, useServer, useWorld } from './fixtures.ts';

const VERSION = { 'cal-api-version': '2024-09-04' };
const reference = referenceAvailable ? loadReference() : undefined;
const slotsOperation = reference?.publicOperation('GET', '/v2/slots');
/** A Monday and a Tuesday in September 2050, in summer time in Berlin (+02:00), as Cal.com's own examples. */
const MONDAY = '2050-09-05';
const TUESDAY = '2050-09-06';
const iso = (ms: number) => new Date(ms).toISOString();
const attendee = (i: number) => ({ name: `Booker ${i}`, email: `booker-${i}@example.com`, timeZone: 'UTC' });
const DAY = 86_400_000;

describe.each(backends)('availability on $name', ({ name, available }) => {
  const shared = useServer(name, available, { LOG_LEVEL: 'warn' });

  // GET /v2/slots (docs/integrating.md#slots) over real HTTP on both databases: what only HTTP
  // shows. Cal.com's request shape (its MCP server's availability call, cal-api-version
  // 2024-09-04), the answer validated against Cal.com's response schema, the ways to name an
  // event type, and bad input refused with a 400 naming the parameter. The rules of what makes a
  // slot are tested in process (test/services/platform/slots*.test.ts).
  describe('GET /v2/slots', () => {
    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, w, f } = started));

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

  // /v2/slots/reservations (docs/integrating.md#slot-reservations) over real HTTP on both
  // databases: what only HTTP shows. Cal.com's request and answer, a held slot left out of
  // GET /v2/slots and refused to a booking without its uid (409 envelope), the 404 of a hold that
  // is gone, and real concurrent requests racing for one slot. The rules are tested in process
  // (test/services/platform/slot-reservations.test.ts).
  describe('slot reservations', () => {
    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, w, f } = started));

    const slotsOf = async (eventTypeId: string, start: number) => {
      const res = await server.api('GET', `/v2/slots?${new URLSearchParams({ eventTypeId, start: iso(start - 3600_000), end: iso(start + 3600_000) })}`, undefined, undefined, VERSION);
      return Object.values(res.body.data as Record<string, Array<{ start: string }>>).flat().map((s) => Date.parse(s.start));
    };

    it.skipIf(!available)("Cal.com's reserve, read, book with the uid: the held slot is offered to nobody, a booking without the uid is 409, the hold then gone is 404", async () => {
      const et = await f.eventType({ userId: w.owner.id });
      const start = futureStart(server);
      const made = await server.api('POST', '/v2/slots/reservations', undefined, { eventTypeId: Number(et.id), slotStart: iso(start) }, VERSION);
      expect(made.status).toBe(201);
      expect(made.headers.get('cache-control')).toBe('no-store');
      const data = made.body.data as Record<string, unknown>;
      expect(data).toEqual({
        eventTypeId: Number(et.id),
        slotStart: iso(start),
        slotEnd: iso(start + 30 * 60_000),
        slotDuration: 30,
        reservationUid: expect.stringMatching(/^[0-9A-Za-z]+$/),
        reservationDuration: 5,
        reservationUntil: expect.any(String),
      });
      // The platform's own answer schema (ReserveSlotOutputResponse_2024_09_04), when its reference is at hand.
      if (reference) expect(reference.checkResponse(reference.publicOperation('POST', '/v2/slots/reservations')!, 201, made.body)).toBeNull();
      const uid = data.reservationUid as string;
      expect((await server.api('GET', `/v2/slots/reservations/${uid}`, undefined, undefined, VERSION)).body.data).toEqual(data);
      expect(await slotsOf(et.id, start)).not.toContain(start);

      const other = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(start), attendee: attendee(1) });
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({ status: 'error', error: { code: 'conflict', message: expect.stringMatching(/^start: another booker holds this slot/) } });
      const holder = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(start), attendee: attendee(2), reservationUid: uid });
      expect(holder.status).toBe(201);
      const gone = await server.api('GET', `/v2/slots/reservations/${uid}`, undefined, undefined, VERSION);
      expect(gone.status).toBe(404);
      expect(gone.body.error).toMatchObject({ code: 'not_found', message: expect.stringMatching(/reservation/) });
    });

    it.skipIf(!available)('PATCH moves a hold and DELETE releases it: the slots come back; a bad reservationDuration is 400 naming it', async () => {
      const et = await f.eventType({ userId: w.owner.id });
      const first = futureStart(server);
      const second = futureStart(server);
      const made = await server.api('POST', '/v2/slots/reservations', undefined, { eventTypeId: et.id, slotStart: iso(first) }, VERSION);
      const uid = made.body.data.reservationUid as string;
      const moved = await server.api('PATCH', `/v2/slots/reservations/${uid}`, undefined, { eventTypeId: et.id, slotStart: iso(second) }, VERSION);
      expect(moved.status).toBe(200);
      expect(moved.body.data).toMatchObject({ reservationUid: uid, slotStart: iso(second) });
      if (reference) expect(reference.checkResponse(reference.publicOperation('PATCH', '/v2/slots/reservations/{uid}')!, 200, moved.body)).toBeNull();
      expect(await slotsOf(et.id, first)).toContain(first);
      expect(await slotsOf(et.id, second)).not.toContain(second);
      expect((await server.api('DELETE', `/v2/slots/reservations/${uid}`, undefined, undefined, VERSION)).status).toBe(200);
      expect(await slotsOf(et.id, second)).toContain(second);
      expect((await server.api('DELETE', `/v2/slots/reservations/${uid}`, undefined, undefined, VERSION)).status).toBe(404);
      const untokened = await server.api('POST', '/v2/slots/reservations', undefined, { eventTypeId: et.id, slotStart: iso(first), reservationDuration: 8 }, VERSION);
      expect(untokened.status).toBe(400);
      expect(untokened.body.error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/^reservationDuration: only a request with an access token/) });
    });

    it.skipIf(!available)('eight concurrent holds of one slot: exactly one is made, the rest 409', async () => {
      const et = await f.eventType({ userId: w.member.id });
      const start = futureStart(server);
      const results = await Promise.all(Array.from({ length: 8 }, () => server.api('POST', '/v2/slots/reservations', undefined, { eventTypeId: et.id, slotStart: iso(start) }, VERSION)));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    });

    it.skipIf(!available)('a hold and a booking racing for one slot: exactly one takes it, the other is 409', async () => {
      const et = await f.eventType({ userId: w.teamAdmin.id });
      const start = futureStart(server);
      const [held, booked] = await Promise.all([
        server.api('POST', '/v2/slots/reservations', undefined, { eventTypeId: et.id, slotStart: iso(start) }, VERSION),
        server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(start), attendee: attendee(3) }),
      ]);
      expect([held.status, booked.status].sort()).toEqual([201, 409]);
    });
  });

  // docs/rules.md#booking-availability over real HTTP on both databases: what only HTTP shows.
  // The envelope of a refused start (400 validation_error naming start and why), and real
  // concurrent requests racing for one host's time: a round-robin team's slot, and a booking
  // against a reschedule. Each refusal reason is tested in process
  // (test/services/platform/booking-availability*.test.ts).
  describe('bookings keep to availability', () => {
    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, w, f } = started));

    it.skipIf(!available)('a start that is not a slot: 400 validation_error naming start and why, and no booking is made', async () => {
      const et = await f.eventType({ userId: w.owner.id });
      // futureStart is a weekday at 09:00, 12:00 or 15:00 UTC; the Saturday of its week is a day off.
      const weekday = futureStart(server);
      const day = weekday - (weekday % DAY);
      // 1 January 1970 was a Thursday: (days + 3) % 7 counts from Monday.
      const saturday = day + (5 - ((day / DAY + 3) % 7)) * DAY + 10 * 3600_000;
      const before = (await server.services.stores.bookings.page({ userId: w.owner.id }, {}, 100, 0)).total;
      const dayOff = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(saturday), attendee: attendee(1) });
      expect(dayOff.status).toBe(400);
      expect(dayOff.body).toMatchObject({
        status: 'error',
        error: { code: 'validation_error', message: `start: ${iso(saturday).slice(0, 10)} is a day off for the host (UTC); GET /v2/slots lists the free times` },
      });
      const evening = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(weekday - (weekday % DAY) + 20 * 3600_000), attendee: attendee(2) });
      expect(evening.status).toBe(400);
      expect(evening.body.error.message).toBe(`start: ${iso(weekday).slice(0, 10)} 20:00 (UTC) is outside the working hours of the host; GET /v2/slots lists the free times`);
      expect((await server.services.stores.bookings.page({ userId: w.owner.id }, {}, 100, 0)).total).toBe(before);
    });

    it.skipIf(!available)('a reschedule by manageToken to a start that is not a slot: 400 naming why; the booking stays where it was', async () => {
      const et = await f.eventType({ userId: w.owner.id });
      const start = futureStart(server);
      const made = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(start), attendee: attendee(3) });
      expect(made.status).toBe(201);
      const { uid, manageToken } = made.body.data as { uid: string; manageToken: string };
      const offGrid = await server.api('POST', `/v2/bookings/${uid}/reschedule`, undefined, { start: iso(start + 10 * 60_000), manageToken });
      expect(offGrid.status).toBe(400);
      expect(offGrid.body.error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/^start: is not a slot: this event type's slots start every 30 minutes/) });
      expect((await server.services.stores.bookings.find(uid))!).toMatchObject({ status: 'accepted', start });
    });

    it.skipIf(!available)('ten concurrent bookings of one round-robin slot of a team of two: one booking per member at most, each host once, the rest 409', async () => {
      const owner = await quickUser(server, 'Rita Round');
      const other = await quickUser(server, 'Robin Round');
      const team = await createTeam(server.services, { name: 'Round', ownerId: owner.id });
      await addMember(server.services, { teamId: team.id }, other.id, 'member');
      const et = await f.eventType({ teamId: team.id }, { roundRobin: true });
      const start = futureStart(server);
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(start), attendee: attendee(10 + i) })));
      const made = results.filter((r) => r.status === 201);
      expect(made.length).toBeGreaterThanOrEqual(1);
      expect(results.filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
      const hosts = await Promise.all(made.map(async (r) => (await server.services.stores.bookings.find((r.body.data as { uid: string }).uid))!.hostId));
      expect(new Set(hosts).size).toBe(hosts.length);
      // What the database holds: no member has two active bookings at that time.
      for (const member of [owner, other]) {
        const theirs = (await server.services.stores.bookings.page({ userId: member.id }, {}, 100, 0)).bookings.filter((b) => b.start === start && b.status === 'accepted');
        expect(theirs.length).toBeLessThanOrEqual(1);
      }
    });

    it.skipIf(!available)('a booking and a reschedule racing into one slot: exactly one takes it, the other is 409', async () => {
      const et = await f.eventType({ userId: w.member.id });
      const first = futureStart(server);
      const target = futureStart(server);
      const made = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(first), attendee: attendee(30) });
      const { uid, manageToken } = made.body.data as { uid: string; manageToken: string };
      const [moved, booked] = await Promise.all([
        server.api('POST', `/v2/bookings/${uid}/reschedule`, undefined, { start: iso(target), manageToken }),
        server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(target), attendee: attendee(31) }),
      ]);
      expect([moved.status, booked.status].sort()).toEqual([201, 409]);
      const atTarget = (await server.services.stores.bookings.page({ userId: w.member.id }, {}, 100, 0)).bookings.filter((b) => b.start === target && b.status === 'accepted');
      expect(atTarget).toHaveLength(1);
    });
  });

  // docs/integrating.md#slot-rules over real HTTP on both databases: what only HTTP shows. Real
  // concurrent requests for a seated slot take no more than its seats, and for a limited host no
  // more than the limit (the booking asks its slot again under the host's lock), and a collective
  // booking racing a member's own booking takes the member's time or loses it whole; GET /v2/slots
  // answers a seated slot with its seats taken and its booking, as Cal.com's answer does; and a
  // refusal's envelope. Each rule is tested in process (test/services/platform/slots-rules.test.ts,
  // booking-availability.test.ts).
  describe('slot rules', () => {
    let server: TestServer;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, f } = started));

    const settle = (eventTypeId: string, changes: Parameters<TestServer['services']['stores']['api']['eventTypes']['update']>[1]) => server.services.stores.api.eventTypes.update(eventTypeId, changes);
    const active = async (hostId: string) => (await server.services.stores.bookings.page({ userId: hostId }, {}, 100, 0)).bookings.filter((b) => b.status === 'accepted');

    it.skipIf(!available)('eight concurrent bookers of a slot of three seats: three are booked, each their own booking with the host, the rest 409 "the slot is full"; the slots answer shows the seats taken', async () => {
      const host = await quickUser(server, 'Sam Seats');
      const et = await f.eventType({ userId: host.id }, { lengthInMinutes: 60 });
      await settle(et.id, { seats: { perTimeSlot: 3, showAttendeeInfo: false, showAvailabilityCount: true }, updatedAt: server.clock() });
      const start = futureStart(server);
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(start), attendee: attendee(i) })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
      for (const refused of results.filter((r) => r.status === 409)) {
        expect(refused.body.error).toMatchObject({ code: 'conflict', message: 'start: the slot is full: its 3 seats are taken; GET /v2/slots lists the free times' });
      }
      const seated = (await active(host.id)).filter((b) => b.start === start);
      expect(seated).toHaveLength(3);
      expect(new Set(seated.map((b) => b.attendee.email)).size).toBe(3);

      // Full, the slot is not offered; with a seat freed, it is, with its seats taken and its first booking.
      const query = `/v2/slots?eventTypeId=${et.id}&start=${iso(start)}&end=${iso(start)}&format=range`;
      expect((await server.api('GET', query)).body.data).toEqual({});
      await server.services.stores.bookings.transition(seated[0]!.uid, ['accepted'], 'cancelled', { updatedAt: server.clock() });
      const left = seated.slice(1).map((b) => b.uid).sort();
      expect((await server.api('GET', query)).body.data).toEqual({ [iso(start).slice(0, 10)]: [{ start: expect.stringMatching(new RegExp(`^${iso(start).slice(0, 19)}`)), end: expect.any(String), attendeesCount: 2, bookingUid: left[0] }] });
    });

    it.skipIf(!available)('two concurrent bookings of a host who takes one a day: one is booked, the other 409 "the booking limit is reached"', async () => {
      const host = await quickUser(server, 'Lee Limit');
      const et = await f.eventType({ userId: host.id });
      await settle(et.id, { bookingLimitsCount: { day: 1 }, updatedAt: server.clock() });
      const start = futureStart(server);
      const results = await Promise.all([0, 1].map((i) => server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(start + i * 3_600_000), attendee: attendee(20 + i) })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.status === 409)!.body.error).toMatchObject({
        code: 'conflict',
        message: 'start: the booking limit is reached: the host takes at most 1 booking of this event type a day; GET /v2/slots lists the free times',
      });
      expect(await active(host.id)).toHaveLength(1);
    });

    it.skipIf(!available)("a collective team booking and a member's own booking racing for one start, ten times: exactly one is booked each time, and a collective booking takes every member's time", async () => {
      const owner = await quickUser(server, 'Cole Collective');
      const member = await quickUser(server, 'Mia Member');
      const team = await createTeam(server.services, { name: 'Together', ownerId: owner.id });
      await addMember(server.services, { teamId: team.id }, member.id, 'member');
      const together = await f.eventType({ teamId: team.id });
      const hers = await f.eventType({ userId: member.id });
      for (let i = 0; i < 10; i++) {
        const start = futureStart(server);
        const [collective, own] = await Promise.all([
          server.api('POST', '/v2/bookings', undefined, { eventTypeId: together.id, start: iso(start), attendee: attendee(40 + i) }),
          server.api('POST', '/v2/bookings', undefined, { eventTypeId: hers.id, start: iso(start), attendee: attendee(60 + i) }),
        ]);
        expect([collective.status, own.status].sort()).toEqual([201, 409]);
        // The member's time at that start is taken once: by her own booking, or as one of the collective booking's hosts.
        const taken = (await server.api('GET', `/v2/slots?eventTypeId=${hers.id}&start=${iso(start)}&end=${iso(start)}`)).body.data;
        expect(taken).toEqual({});
      }
    });

    it.skipIf(!available)('a start beyond the booking window: 400 validation_error naming start and the window, and no booking is made', async () => {
      const host = await quickUser(server, 'Wyn Window');
      const et = await f.eventType({ userId: host.id });
      await settle(et.id, { bookingWindow: { type: 'range', from: '2020-01-01', to: '2020-01-31' }, updatedAt: server.clock() });
      const refused = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(server)), attendee: attendee(30) });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'validation_error', message: 'start: is beyond the booking window (from 2020-01-01 to 2020-01-31); GET /v2/slots lists the free times' });
      expect(await active(host.id)).toEqual([]);
    });
  });
});
