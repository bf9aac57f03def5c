// Bookings answered in Cal.com API v2's shape (BookingOutput_2024_08_13): hosts, duration,
// eventType, attendees, bookingFieldsResponses and the platform's statuses, with Gatehouse's
// own fields beside them; lists carry the platform's pagination beside data
// (docs/integrating.md#booking-statuses).
import { describe, expect, it } from 'vitest';
import { addMember, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, futureStart, mint, quickUser, type World, useWorld } from './fixtures.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(backends)('booking answers in the platform’s shape on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));
  // This file reads bookings as the platform's clients do: naming the documented version (docs/integrating.md#api-versions).
  const api = (method: string, path: string, token?: string, body?: unknown) => server.api(method, path, token, body, { 'cal-api-version': '2024-08-13' });

  const hostOf = async (id: string) => {
    const u = (await server.services.stores.users.findById(id))!;
    return { id: Number(u.id), name: u.name, email: u.email, displayEmail: u.email, username: u.username, timeZone: u.timeZone };
  };

  it.skipIf(!available)('POST /v2/bookings answers the host, duration, event type, attendees and form answers; GET answers the same', async () => {
    const host = await quickUser(server, 'Hana Host');
    const et = await f.eventType({ userId: host.id }, { lengthInMinutes: 45 });
    const start = futureStart(server);
    const made = await api('POST', '/v2/bookings', undefined, {
      eventTypeId: et.id,
      start: iso(start),
      attendee: { name: 'Pat Booker', email: 'Pat@Example.com', timeZone: 'Europe/Rome' },
      guests: ['guest@example.com'],
      notes: 'About the offer',
    });
    expect(made.status).toBe(201);
    const hostAnswer = await hostOf(host.id);
    expect(made.body.data).toMatchObject({
      hosts: [hostAnswer],
      status: 'accepted',
      duration: 45,
      durationInMinutes: 45,
      eventTypeId: Number(et.id),
      eventType: { id: Number(et.id), slug: et.slug },
      absentHost: false,
      attendees: [
        { name: 'Pat Booker', email: 'pat@example.com', displayEmail: 'pat@example.com', timeZone: 'Europe/Rome', absent: false },
        { name: '', email: 'guest@example.com', displayEmail: 'guest@example.com', timeZone: 'Europe/Rome', absent: false },
      ],
      guests: ['guest@example.com'],
      bookingFieldsResponses: { name: 'Pat Booker', email: 'pat@example.com', guests: ['guest@example.com'], notes: 'About the offer' },
    });
    // The platform leaves out what is not there, where Gatehouse wrote null.
    for (const absent of ['cancellationReason', 'rescheduledFromUid', 'rescheduledToUid']) expect(made.body.data).not.toHaveProperty(absent);
    const token = await mint(server, w, host, ['BOOKING_READ']);
    const read = await api('GET', `/v2/bookings/${made.body.data.uid}`, token);
    const { manageToken: _, ...answer } = made.body.data;
    expect(read.body.data).toEqual(answer);
  });

  it.skipIf(!available)('a declined booking answers rejected, a cancelled one cancelled; the list filter takes both families of names', async () => {
    const host = await quickUser(server);
    const token = await mint(server, w, host, ['BOOKING_READ', 'BOOKING_WRITE']);
    const declined = await f.booking({ hostId: host.id, status: 'pending' });
    const pending = await f.booking({ hostId: host.id, status: 'pending' });
    const accepted = await f.booking({ hostId: host.id });
    const cancelled = await f.booking({ hostId: host.id, status: 'cancelled' });
    const past = await f.booking({ hostId: host.id, start: server.clock() - 2 * 3600_000 });

    const res = await api('POST', `/v2/bookings/${declined.uid}/decline`, token, { reason: 'Away' });
    expect(res.body.data).toMatchObject({ status: 'rejected', declineReason: 'Away' });
    expect((await server.services.stores.bookings.find(declined.uid))!.status).toBe('declined');

    const uids = async (status: string) => {
      const list = await api('GET', `/v2/bookings?status=${status}`, token);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      return (list.body.data as Array<{ uid: string }>).map((b) => b.uid).sort();
    };
    const sorted = (...bs: Array<{ uid: string }>) => bs.map((b) => b.uid).sort();
    expect(await uids('declined')).toEqual(sorted(declined));
    expect(await uids('rejected')).toEqual(sorted(declined));
    expect(await uids('cancelled')).toEqual(sorted(cancelled));
    expect(await uids('upcoming')).toEqual(sorted(pending, accepted));
    expect(await uids('unconfirmed')).toEqual(sorted(pending));
    expect(await uids('past')).toEqual(sorted(past));
    expect(await uids('upcoming,past')).toEqual(sorted(pending, accepted, past));
    expect(await uids('recurring')).toEqual([]);
    expect((await api('GET', '/v2/bookings?status=cancelled', token)).body.data[0]).toMatchObject({ status: 'cancelled' });

    const bad = await api('GET', '/v2/bookings?status=upcoming,soon', token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^status: "soon" is not a status; use pending, accepted, declined, cancelled, rescheduled, upcoming, past, unconfirmed, recurring, rejected/);
  });

  it.skipIf(!available)('a list carries the platform’s pagination beside data: the whole count, the page and what remains', async () => {
    const host = await quickUser(server);
    const token = await mint(server, w, host, ['BOOKING_READ']);
    for (let i = 0; i < 5; i++) await f.booking({ hostId: host.id });
    const page = async (query: string) => (await api('GET', `/v2/bookings?${query}`, token)).body;
    const second = await page('take=2&skip=2');
    expect(second.data).toHaveLength(2);
    expect(second.pagination).toEqual({ totalItems: 5, remainingItems: 1, returnedItems: 2, itemsPerPage: 2, currentPage: 2, totalPages: 3, hasNextPage: true, hasPreviousPage: true });
    expect((await page('limit=2&offset=4')).pagination).toEqual({ totalItems: 5, remainingItems: 0, returnedItems: 1, itemsPerPage: 2, currentPage: 3, totalPages: 3, hasNextPage: false, hasPreviousPage: true });
    expect((await page('take=2&skip=10')).pagination).toEqual({ totalItems: 5, remainingItems: 0, returnedItems: 0, itemsPerPage: 2, currentPage: 6, totalPages: 3, hasNextPage: false, hasPreviousPage: true });
    expect((await page('status=cancelled')).pagination).toEqual({ totalItems: 0, remainingItems: 0, returnedItems: 0, itemsPerPage: 50, currentPage: 1, totalPages: 0, hasNextPage: false, hasPreviousPage: false });
  });

  it.skipIf(!available)('a team and an organization list carry pagination too, each booking with its host', async () => {
    const owner = await mint(server, w, w.owner, ['TEAM_BOOKING_READ', 'ORG_BOOKING_READ']);
    const b = await f.booking({ hostId: w.member.id, teamId: w.team.id });
    const team = await api('GET', `/v2/teams/${w.team.id}/bookings?limit=100`, owner);
    expect(team.body.pagination).toMatchObject({ returnedItems: team.body.data.length, totalItems: team.body.data.length });
    expect(team.body.data.find((x: { uid: string }) => x.uid === b.uid)).toMatchObject({ hosts: [await hostOf(w.member.id)] });
    const org = await api('GET', `/v2/organizations/${w.org.id}/bookings?limit=100`, owner);
    expect(org.body.pagination).toMatchObject({ returnedItems: org.body.data.length, currentPage: 1 });
  });

  it.skipIf(!available)('reassign answers the platform’s bookingId and reassignedTo beside the booking, with its new host', async () => {
    const [lead, next] = [await quickUser(server, 'Lee Lead'), await quickUser(server, 'Nia Next')];
    const team = await createTeam(server.services, { name: 'Desk', ownerId: lead.id });
    await addMember(server.services, { teamId: team.id }, next.id, 'member');
    const b = await f.booking({ hostId: lead.id, teamId: team.id });
    const res = await api('POST', `/v2/bookings/${b.uid}/reassign/${next.id}`, await mint(server, w, lead, ['BOOKING_WRITE']));
    expect(res.status).toBe(200);
    const nextHost = await hostOf(next.id);
    expect(res.body.data).toMatchObject({
      bookingId: Number(b.id),
      reassignedTo: { id: nextHost.id, name: 'Nia Next', email: nextHost.email, displayEmail: nextHost.email },
      id: Number(b.id),
      hosts: [nextHost],
    });
  });

  it.skipIf(!available)('mark-absent answers the booking with its attendees marked; a booking whose event type is deleted answers eventType null', async () => {
    const host = await quickUser(server);
    const token = await mint(server, w, host, ['BOOKING_READ', 'BOOKING_WRITE', 'EVENT_TYPE_WRITE']);
    const et = await f.eventType({ userId: host.id });
    const b = await f.booking({ hostId: host.id, eventTypeId: et.id });
    const marked = await api('POST', `/v2/bookings/${b.uid}/mark-absent`, token, { host: true, attendees: [{ email: 'ann@example.com', absent: true }] });
    expect(marked.status).toBe(200);
    expect(marked.body.data).toMatchObject({ absentHost: true, attendees: [{ email: 'ann@example.com', absent: true }], eventType: { id: Number(et.id), slug: et.slug } });

    expect((await api('DELETE', `/v2/event-types/${et.id}`, token)).status).toBe(200);
    const read = await api('GET', `/v2/bookings/${b.uid}`, token);
    expect(read.body.data).toMatchObject({ eventTypeId: null, eventType: null });
  });
});
