// docs/rules.md#booking-availability over real HTTP on both databases: what only HTTP shows.
// The envelope of a refused start (400 validation_error naming start and why), and real
// concurrent requests racing for one host's time: a round-robin team's slot, and a booking
// against a reschedule. Each refusal reason is tested in process
// (test/services/platform/booking-availability*.test.ts).
import { describe, expect, it } from 'vitest';
import { addMember, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, futureStart, quickUser, type World, useWorld } from './fixtures.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;
const attendee = (i: number) => ({ name: `Booker ${i}`, email: `booker-${i}@example.com`, timeZone: 'UTC' });

describe.each(backends)('bookings keep to availability on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

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
