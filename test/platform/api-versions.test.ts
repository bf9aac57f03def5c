// cal-api-version (docs/integrating.md#api-versions) on both databases: a booking answers the
// platform's 2024-08-13 shape to a request naming that version, and Gatehouse's own earlier
// shape (its stored status names, explicit nulls) to one naming none or another; event types
// and schedules answer their documented shape either way, since Gatehouse's earlier answers
// are part of it.
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, mint, quickUser, type World, useWorld } from './fixtures.ts';

const BOOKINGS = { 'cal-api-version': '2024-08-13' };

describe.each(backends)('cal-api-version on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

  it.skipIf(!available)('a declined booking is rejected to 2024-08-13 and declined otherwise; a reason not given is left out, or null', async () => {
    const host = await quickUser(server);
    const token = await mint(server, w, host, ['BOOKING_READ', 'BOOKING_WRITE']);
    const b = await f.booking({ hostId: host.id, status: 'pending' });
    expect((await server.api('POST', `/v2/bookings/${b.uid}/decline`, token, {})).status).toBe(200);
    const read = (headers: Record<string, string>) => server.api('GET', `/v2/bookings/${b.uid}`, token, undefined, headers);

    const documented = (await read(BOOKINGS)).body.data;
    expect(documented.status).toBe('rejected');
    for (const absent of ['cancellationReason', 'rescheduledFromUid', 'rescheduledToUid']) expect(documented).not.toHaveProperty(absent);

    for (const headers of [{}, { 'cal-api-version': '2024-04-15' }, { 'cal-api-version': 'next' }] as Array<Record<string, string>>) {
      const gatehouse = (await read(headers)).body.data;
      expect(gatehouse).toMatchObject({ status: 'declined', cancellationReason: null, rescheduledFromUid: null, rescheduledToUid: null });
      // Everything else is the same answer.
      const { status: _a, cancellationReason: _b, rescheduledFromUid: _c, rescheduledToUid: _d, ...rest } = gatehouse;
      const { status: _e, ...documentedRest } = documented;
      expect(rest).toEqual(documentedRest);
    }
  });

  it.skipIf(!available)('a list answers each booking in the version named, and its filter takes either family of names', async () => {
    const host = await quickUser(server);
    const token = await mint(server, w, host, ['BOOKING_READ', 'BOOKING_WRITE']);
    const declined = await f.booking({ hostId: host.id, status: 'pending' });
    expect((await server.api('POST', `/v2/bookings/${declined.uid}/decline`, token, {})).status).toBe(200);
    const answered = async (filter: string, headers: Record<string, string>) =>
      (await server.api('GET', `/v2/bookings?status=${filter}`, token, undefined, headers)).body.data.map((b: { uid: string; status: string; cancellationReason?: null }) => [b.uid, b.status, 'cancellationReason' in b]);
    for (const filter of ['rejected', 'declined']) {
      expect(await answered(filter, BOOKINGS)).toEqual([[declined.uid, 'rejected', false]]);
      expect(await answered(filter, {})).toEqual([[declined.uid, 'declined', true]]);
    }
  });

  it.skipIf(!available)('a team’s bookings answer the documented shape whatever the header says: the platform does not version its team and organization routes', async () => {
    const token = await mint(server, w, w.teamAdmin, ['TEAM_BOOKING_READ']);
    const b = await f.booking({ hostId: w.member.id, teamId: w.team.id, status: 'cancelled' });
    for (const headers of [{}, BOOKINGS] as Array<Record<string, string>>) {
      const listed = (await server.api('GET', `/v2/teams/${w.team.id}/bookings?limit=100`, token, undefined, headers)).body.data.find((x: { uid: string }) => x.uid === b.uid);
      expect(listed.status).toBe('cancelled');
      expect(listed).not.toHaveProperty('cancellationReason');
    }
  });

  it.skipIf(!available)('event types and schedules answer their documented shape with their version named, or none', async () => {
    const host = await quickUser(server);
    const token = await mint(server, w, host, ['EVENT_TYPE_READ', 'SCHEDULE_READ', 'SCHEDULE_WRITE']);
    const et = await f.eventType({ userId: host.id });
    const eventType = async (headers: Record<string, string>) => (await server.api('GET', `/v2/event-types/${et.id}`, token, undefined, headers)).body.data;
    const named = await eventType({ 'cal-api-version': '2024-06-14' });
    expect(named).toMatchObject({ id: Number(et.id), lengthInMinutesOptions: [30], disableGuests: false });
    expect(named.bookingFields.length).toBeGreaterThan(0);
    expect(await eventType({})).toEqual(named);

    const made = await server.api('POST', '/v2/schedules', token, { name: 'Work', timeZone: 'Europe/Rome', isDefault: true }, { 'cal-api-version': '2024-06-11' });
    expect(made.status).toBe(201);
    const schedule = async (headers: Record<string, string>) => (await server.api('GET', `/v2/schedules/${made.body.data.id}`, token, undefined, headers)).body.data;
    expect(await schedule({})).toEqual(await schedule({ 'cal-api-version': '2024-06-11' }));
  });
});
