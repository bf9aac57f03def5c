// docs/integrating.md#slot-rules over real HTTP on both databases: what only HTTP shows. Real
// concurrent requests for a seated slot take no more than its seats, and for a limited host no
// more than the limit (the booking asks its slot again under the host's lock), and a collective
// booking racing a member's own booking takes the member's time or loses it whole; GET /v2/slots
// answers a seated slot with its seats taken and its booking, as Cal.com's answer does; and a
// refusal's envelope. Each rule is tested in process (test/services/platform/slots-rules.test.ts,
// booking-availability.test.ts).
import { describe, expect, it } from 'vitest';
import { addMember, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, futureStart, quickUser, useWorld } from './fixtures.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const attendee = (i: number) => ({ name: `Booker ${i}`, email: `booker-${i}@example.com`, timeZone: 'UTC' });

describe.each(backends)('slot rules over HTTP on $name', ({ name, available }) => {
  let server: TestServer;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, f } = started));

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
