// The platform's bookings over real HTTP on both databases, one server per database for every
// block below (each block builds a world of its own on it): what only HTTP shows of a booking,
// its answers, attendees, fields, manageToken, provider records, Cal.com's requests and an
// organization member's bookings. The rules themselves are tested in process
// (test/services/platform/bookings.test.ts and its neighbours).
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import type { TestServer, TestUser } from '../helpers/server.ts';
import { buildWorld, fixtures, futureStart, mint, quickUser, uniq, useServer, useWorld, type World } from './fixtures.ts';
import { copyAttendees } from '../../src/storage/migrations/019_booking_attendees.ts';
import { generateToken, hashToken, randomId } from '../../src/oauth/token-format.ts';
import { loadReference, referenceAvailable } from '../helpers/calcom-reference.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';

describe.each(backends)('bookings over HTTP on $name', ({ name, available }) => {
  const shared = useServer(name, available, { LOG_LEVEL: 'warn' });

  // Bookings answered in Cal.com API v2's shape (BookingOutput_2024_08_13): hosts, duration,
  // eventType, attendees, bookingFieldsResponses and the platform's statuses, with Gatehouse's
  // own fields beside them; lists carry the platform's pagination beside data
  // (docs/integrating.md#booking-statuses).
  describe('booking answers in the platform’s shape', () => {
    const iso = (ms: number) => new Date(ms).toISOString();

    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, w, f } = started));
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

  // A booking's attendees and who was absent (docs/integrating.md#booking-attendees), at Cal.com API
  // v2's addresses, through real HTTP on both databases: the booker and guests a booking was made
  // with are its first attendees, the host adds more and marks who did not come, and only the
  // host reaches them (docs/rules.md#membership-rules).
  describe('booking attendees', () => {
    const ann = { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Paris' };

    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, w, f } = started));

    const token = (user: TestUser, scopes: string[]) => mint(server, w, user, scopes);
    const hostWithToken = async () => {
      const host = await quickUser(server);
      return { host, t: await token(host, ['BOOKING_READ', 'BOOKING_WRITE']) };
    };

    it.skipIf(!available)('a booking made publicly lists its booker, then its guests by address, as attendees, none absent', async () => {
      const { host, t } = await hostWithToken();
      const et = await f.eventType({ userId: host.id });
      const made = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: new Date(futureStart(server)).toISOString(), attendee: ann, guests: ['Gus@Example.com', { email: 'gia@example.com', name: 'Gia' }] });
      expect(made.status).toBe(201);
      const uid = made.body.data.uid as string;

      const listed = await server.api('GET', `/v2/bookings/${uid}/attendees`, t);
      expect(listed.status).toBe(200);
      const base = { bookingUid: uid, timeZone: 'Europe/Paris', absent: false };
      expect(listed.body).toEqual({
        status: 'success',
        data: [
          { ...base, id: expect.any(Number), name: 'Ann Attendee', email: 'ann@example.com', displayEmail: 'ann@example.com' },
          { ...base, id: expect.any(Number), name: '', email: 'gia@example.com', displayEmail: 'gia@example.com' },
          { ...base, id: expect.any(Number), name: '', email: 'gus@example.com', displayEmail: 'gus@example.com' },
        ],
      });
      const one = await server.api('GET', `/v2/bookings/${uid}/attendees/${listed.body.data[0].id}`, t);
      expect(one.body).toEqual({ status: 'success', data: listed.body.data[0] });
      // The booking's own answer is as before, with whether the host was absent.
      const read = await server.api('GET', `/v2/bookings/${uid}`, t);
      expect(read.body.data).toMatchObject({ attendee: ann, guests: ['gus@example.com', 'gia@example.com'], absentHost: false });
    });

    it.skipIf(!available)('POST …/attendees adds one (201) that the list and GET show; its address again is 409; guests added later are attendees too', async () => {
      const { host, t } = await hostWithToken();
      const b = await f.booking({ hostId: host.id });
      const added = await server.api('POST', `/v2/bookings/${b.uid}/attendees`, t, { name: ' Bo Booked ', email: 'Bo@Example.com', timeZone: 'America/New_York', phoneNumber: '+919876543210', language: 'it' });
      expect(added.status).toBe(201);
      expect(added.body).toEqual({
        status: 'success',
        data: { id: expect.any(Number), bookingId: Number(b.id), bookingUid: b.uid, name: 'Bo Booked', email: 'bo@example.com', displayEmail: 'bo@example.com', timeZone: 'America/New_York', phoneNumber: '+919876543210', language: 'it', absent: false },
      });
      const { bookingId: _, ...read } = added.body.data;
      expect((await server.api('GET', `/v2/bookings/${b.uid}/attendees/${added.body.data.id}`, t)).body.data).toEqual(read);

      const again = await server.api('POST', `/v2/bookings/${b.uid}/attendees`, t, { name: 'Bo', email: 'bo@example.com', timeZone: 'UTC' });
      expect(again.status).toBe(409);
      expect(again.body.error.message).toBe('email: the booking already has an attendee of that address');

      expect((await server.api('POST', `/v2/bookings/${b.uid}/guests`, t, { guests: ['gus@example.com', 'bo@example.com'] })).status).toBe(200);
      const emails = (await server.api('GET', `/v2/bookings/${b.uid}/attendees`, t)).body.data.map((a: { email: string }) => a.email);
      expect(emails).toEqual(['ann@example.com', 'bo@example.com', 'gus@example.com']);
    });

    it.skipIf(!available)('guests added through POST …/guests count toward the 25 attendees too: past them it is 400 naming guests, and nothing changes', async () => {
      const { host, t } = await hostWithToken();
      const b = await f.booking({ hostId: host.id });
      const at = server.clock();
      await server.services.stores.api.bookingAttendees.insert(
        Array.from({ length: 22 }, (_, i) => ({ bookingUid: b.uid, role: 'added' as const, email: `extra-${i}@example.com`, name: `Extra ${i}`, timeZone: 'UTC', phoneNumber: null, language: null, createdAt: at })),
      );
      const res = await server.api('POST', `/v2/bookings/${b.uid}/guests`, t, { guests: ['g1@example.com', 'g2@example.com', 'g3@example.com'] });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: 'validation_error', message: 'guests: a booking has at most 25 attendees; this one has 23' });
      expect((await server.api('GET', `/v2/bookings/${b.uid}/attendees`, t)).body.data).toHaveLength(23);
      expect((await server.api('GET', `/v2/bookings/${b.uid}`, await token(host, ['BOOKING_READ']))).body.data.guests).toEqual([]);
      expect((await server.api('POST', `/v2/bookings/${b.uid}/guests`, t, { guests: ['g1@example.com', 'g2@example.com'] })).status).toBe(200);
    });

    it.skipIf(!available)('two concurrent POST …/attendees of one address: one is added (201), the other refused (409), one row', async () => {
      const { host, t } = await hostWithToken();
      const b = await f.booking({ hostId: host.id });
      const body = { name: 'Bo', email: 'bo@example.com', timeZone: 'UTC' };
      const answers = await Promise.all([1, 2].map(() => server.api('POST', `/v2/bookings/${b.uid}/attendees`, t, body)));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      const emails = (await server.services.stores.api.bookingAttendees.list(b.uid)).map((a) => a.email);
      expect(emails).toEqual(['ann@example.com', 'bo@example.com']);
    });

    it.skipIf(!available)('POST …/attendees: a bad body is 400 naming the field; a cancelled booking takes none (409)', async () => {
      const { host, t } = await hostWithToken();
      const b = await f.booking({ hostId: host.id });
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ email: 'x@example.com', timeZone: 'UTC' }, 'name'],
        [{ name: 'X', email: 'not-an-address', timeZone: 'UTC' }, 'email'],
        [{ name: 'X', email: 'x@example.com', timeZone: 'Mars/Olympus' }, 'timeZone'],
        [{ name: 'X', email: 'x@example.com', timeZone: 'UTC', language: 'xx' }, 'language'],
      ];
      for (const [body, field] of cases) {
        const res = await server.api('POST', `/v2/bookings/${b.uid}/attendees`, t, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message).toContain(field);
      }
      const cancelled = await f.booking({ hostId: host.id, status: 'cancelled' });
      const res = await server.api('POST', `/v2/bookings/${cancelled.uid}/attendees`, t, { name: 'X', email: 'x@example.com', timeZone: 'UTC' });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe('the booking is cancelled; only a pending or accepted booking takes new attendees');
    });

    it.skipIf(!available)('POST …/mark-absent: the host and attendees marked absent show on GET of the booking and its attendees; present again undoes it', async () => {
      const { host, t } = await hostWithToken();
      const b = await f.booking({ hostId: host.id });
      await server.api('POST', `/v2/bookings/${b.uid}/attendees`, t, { name: 'Bo', email: 'bo@example.com', timeZone: 'UTC' });
      const marked = await server.api('POST', `/v2/bookings/${b.uid}/mark-absent`, t, { host: true, attendees: [{ email: 'ANN@example.com', absent: true }] });
      expect(marked.status).toBe(200);
      expect(marked.body.data).toMatchObject({ uid: b.uid, absentHost: true });
      expect(marked.body.data.attendees.map((a: { email: string; absent: boolean }) => [a.email, a.absent])).toEqual([['ann@example.com', true], ['bo@example.com', false]]);

      expect((await server.api('GET', `/v2/bookings/${b.uid}`, t)).body.data.absentHost).toBe(true);
      const listed = (await server.api('GET', `/v2/bookings/${b.uid}/attendees`, t)).body.data;
      expect(listed.map((a: { absent: boolean }) => a.absent)).toEqual([true, false]);
      expect((await server.api('GET', `/v2/bookings/${b.uid}/attendees/${listed[0].id}`, t)).body.data.absent).toBe(true);

      const undone = await server.api('POST', `/v2/bookings/${b.uid}/mark-absent`, t, { host: false, attendees: [{ email: 'ann@example.com', absent: false }] });
      expect(undone.body.data.absentHost).toBe(false);
      expect(undone.body.data.attendees.every((a: { absent: boolean }) => !a.absent)).toBe(true);
    });

    it.skipIf(!available)('POST …/mark-absent: nothing to mark, a wrong type or an address not attending is 400 and changes nothing; a pending booking is 409', async () => {
      const { host, t } = await hostWithToken();
      const b = await f.booking({ hostId: host.id });
      const empty = await server.api('POST', `/v2/bookings/${b.uid}/mark-absent`, t, {});
      expect(empty.status).toBe(400);
      expect(empty.body.error.message).toBe('host: send host, attendees, or both: who was absent');
      const wrongType = await server.api('POST', `/v2/bookings/${b.uid}/mark-absent`, t, { host: 'yes' });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.error.message).toContain('host');
      const stranger = await server.api('POST', `/v2/bookings/${b.uid}/mark-absent`, t, { host: true, attendees: [{ email: 'zed@example.com', absent: true }] });
      expect(stranger.status).toBe(400);
      expect(stranger.body.error.message).toBe(`attendees[0].email: zed@example.com is not an attendee of this booking (GET /v2/bookings/${b.uid}/attendees lists them)`);
      expect((await server.api('GET', `/v2/bookings/${b.uid}`, t)).body.data.absentHost).toBe(false);

      const pending = await f.booking({ hostId: host.id, status: 'pending' });
      const res = await server.api('POST', `/v2/bookings/${pending.uid}/mark-absent`, t, { host: true });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe('the booking is pending; only an accepted booking has a meeting to be absent from');
    });

    it.skipIf(!available)("another user's booking is 404 on every attendee route, and nothing changes", async () => {
      const { host } = await hostWithToken();
      const b = await f.booking({ hostId: host.id });
      const { t } = await hostWithToken();
      const theirs = (await server.services.stores.api.bookingAttendees.list(b.uid))[0]!;
      const calls: Array<[string, string, unknown?]> = [
        ['GET', `/v2/bookings/${b.uid}/attendees`],
        ['GET', `/v2/bookings/${b.uid}/attendees/${theirs.id}`],
        ['POST', `/v2/bookings/${b.uid}/attendees`, { name: 'X', email: 'x@example.com', timeZone: 'UTC' }],
        ['POST', `/v2/bookings/${b.uid}/mark-absent`, { host: true }],
      ];
      for (const [method, path, body] of calls) {
        const res = await server.api(method as 'GET' | 'POST', path, t, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error).toEqual({ code: 'not_found', message: 'no such booking' });
      }
      expect(await server.services.stores.api.bookingAttendees.list(b.uid)).toEqual([theirs]);
      const own = await f.booking({ hostId: w.owner.id });
      const ownToken = await token(w.owner, ['BOOKING_READ']);
      expect((await server.api('GET', `/v2/bookings/${own.uid}/attendees/${theirs.id}`, ownToken)).body.error).toEqual({ code: 'not_found', message: 'no such attendee' });
    });

    it.skipIf(!available)('a rescheduled booking keeps its attendees, the added ones included, none absent', async () => {
      const { host, t } = await hostWithToken();
      const b = await f.booking({ hostId: host.id });
      await server.api('POST', `/v2/bookings/${b.uid}/attendees`, t, { name: 'Bo', email: 'bo@example.com', timeZone: 'UTC' });
      const moved = await server.api('POST', `/v2/bookings/${b.uid}/reschedule`, undefined, { start: new Date(futureStart(server)).toISOString(), manageToken: b.manageToken });
      expect(moved.status).toBe(201);
      const listed = (await server.api('GET', `/v2/bookings/${moved.body.data.uid}/attendees`, t)).body.data;
      expect(listed.map((a: { email: string; absent: boolean }) => [a.email, a.absent])).toEqual([['ann@example.com', false], ['bo@example.com', false]]);
    });

    it.skipIf(!available)("migration 019: a booking stored before it gets its booker and guests as attendees, the booker's address once; the booking reads as before", async () => {
      const host = await quickUser(server);
      const uid = randomId();
      const at = server.clock();
      // As bookings were stored before 019: the booker and guests in the row, no attendee rows.
      await server.db
        .insertInto('bookings')
        .values({
          uid, id: await server.services.stores.ids.next('bookings'), event_type_id: null, user_id: host.id, team_id: null, title: 'Old call', description: '', start_time: at + 86_400_000, end_time: at + 88_200_000,
          status: 'accepted', attendee_name: 'Old Booker', attendee_email: 'old@example.com', attendee_time_zone: 'Asia/Tokyo',
          guests: JSON.stringify(['zoe@example.com', 'old@example.com', 'amy@example.com']), location: '', cancellation_reason: null, decline_reason: null,
          rescheduled_from: null, rescheduled_to: null, manage_token_hash: null, absent_host: 0, created_at: at, updated_at: at,
        })
        .execute();
      await copyAttendees(server.db, name);
      await copyAttendees(server.db, name);
      const t = await token(host, ['BOOKING_READ']);
      const listed = (await server.api('GET', `/v2/bookings/${uid}/attendees`, t)).body.data;
      expect(listed.map((a: { role?: string; name: string; email: string; timeZone: string; absent: boolean }) => [a.name, a.email, a.timeZone, a.absent])).toEqual([
        ['Old Booker', 'old@example.com', 'Asia/Tokyo', false],
        ['', 'amy@example.com', 'Asia/Tokyo', false],
        ['', 'zoe@example.com', 'Asia/Tokyo', false],
      ]);
      expect((await server.api('GET', `/v2/bookings/${uid}`, t)).body.data).toMatchObject({ attendee: { name: 'Old Booker', email: 'old@example.com', timeZone: 'Asia/Tokyo' }, guests: ['zoe@example.com', 'old@example.com', 'amy@example.com'], absentHost: false });
    });
  });

  // docs/integrating.md#booking-fields over HTTP: Cal.com API v2's own requests, with their
  // cal-api-version, set an event type's booking fields (personal, team and organization routes)
  // and answer them when booking; the answers are validated against Cal.com's response schema
  // when the reference is beside the project (test/helpers/calcom-reference.ts). The rules
  // themselves are tested in process (test/services/platform/event-types.test.ts, bookings.test.ts).
  describe('booking fields', () => {
    const EVENT_TYPES_VERSION = { 'cal-api-version': '2024-06-14' };
    const BOOKINGS_VERSION = { 'cal-api-version': '2024-08-13' };

    /**
     * A booking field of each kind, as the examples of Cal.com's input variants write them
     * (CreateEventTypeInput_2024_06_14's bookingFields), each custom field under a slug of its own.
     */
    const documentedFields = [
      { type: 'name', label: 'Your name', placeholder: 'John Doe' },
      { type: 'email', label: 'Your email', placeholder: 'john@example.com' },
      { slug: 'location', label: 'Where should we meet?' },
      { slug: 'notes', required: false, hidden: false, label: 'Anything we should know?', placeholder: 'Notes' },
      { type: 'phone', slug: 'attendeePhoneNumber', label: 'Phone', required: true, placeholder: '+1 415 555 0123', hidden: false },
      { type: 'address', slug: 'address-field', label: 'Please enter your address', required: false, placeholder: 'e.g., 1234 Main St', hidden: false },
      { type: 'text', slug: 'customField', label: 'Please enter your text', required: true, placeholder: 'e.g., Enter text here', hidden: false },
      { type: 'number', slug: 'number-field', label: 'Please enter a number', required: false, placeholder: 'e.g., 100', hidden: false },
      { type: 'textarea', slug: 'textarea-field', label: 'Please enter detailed information', required: false, placeholder: 'e.g., Detailed description here...', hidden: false },
      { type: 'select', slug: 'select-field', label: 'Please select an option', required: false, placeholder: 'Select...', options: ['Option 1', 'Option 2'], hidden: false },
      { type: 'multiselect', slug: 'multiselect-field', label: 'Please select multiple options', required: false, options: ['Option 1', 'Option 2'], hidden: false },
      { type: 'multiemail', slug: 'multiemail-field', label: 'Please enter multiple emails', required: false, placeholder: 'e.g., example@example.com', hidden: false },
      { type: 'checkbox', slug: 'checkbox-field', label: 'Select all that apply', required: false, options: ['Checkbox 1', 'Checkbox 2'], hidden: false },
      { type: 'radio', slug: 'radio-field', label: 'Select one option', required: false, options: ['Radio 1', 'Radio 2'], hidden: false },
      { type: 'boolean', slug: 'boolean-field', label: 'Agree to terms?', required: false, hidden: false },
      { type: 'url', slug: 'url-field', label: 'Please enter your text', required: false, placeholder: 'e.g., Enter url here', hidden: false },
    ];

    /** Validates an answer against Cal.com's response schema of the operation (a scoped or a public one); a no-op without the reference. */
    function conformsTo(method: string, path: string, status: number, body: unknown): void {
      if (!referenceAvailable) return;
      const reference = loadReference();
      const op = reference.operations.find((o) => o.method === method && o.path === path) ?? reference.publicOperation(method, path);
      expect(op, `${method} ${path} in Cal.com's description`).toBeDefined();
      expect(reference.checkResponse(op!, status, body), `${method} ${path} against Cal.com's schema`).toBeNull();
    }

    let server: TestServer;
    let w: World;
    useWorld(shared, available, (started) => ({ server, w } = started));

    const places = [
      { type: 'address', address: '1 Main St', public: true },
      { type: 'link', link: 'https://meet.example.com/intro', public: true },
    ];
    const eventTypeBody = (bookingFields: unknown[] = documentedFields) => ({ title: 'Intro', slug: `intro-${uniq().toLowerCase()}`, lengthInMinutes: 30, locations: places, bookingFields });
    const attendee = { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Rome' };
    const bookingCount = async () => (await server.services.stores.bookings.count({ userId: w.owner.id }, {})) + (await server.services.stores.bookings.count({ teamId: w.team.id }, {}));

    it.skipIf(!available)("POST /v2/event-types with Cal.com's booking fields → 201, each field answered in Cal.com's shape between the default ones; GET reads the same", async () => {
      const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
      const made = await server.api('POST', '/v2/event-types', token, eventTypeBody(), EVENT_TYPES_VERSION);
      expect(made.status).toBe(201);
      const fields = made.body.data.bookingFields;
      expect(fields.map((f: { slug: string }) => f.slug)).toEqual([
        'name', 'email', 'location',
        ...documentedFields.slice(4).map((f) => f.slug),
        'title', 'notes', 'guests', 'rescheduleReason',
      ]);
      expect(fields[0]).toEqual({ type: 'name', slug: 'name', label: 'Your name', placeholder: 'John Doe', required: true, hidden: false, isDefault: true });
      expect(fields[2]).toEqual({ type: 'radioInput', slug: 'location', label: 'Where should we meet?', required: false, hidden: false, isDefault: true });
      expect(fields.find((f: { slug: string }) => f.slug === 'select-field')).toEqual({ type: 'select', slug: 'select-field', label: 'Please select an option', placeholder: 'Select...', options: ['Option 1', 'Option 2'], required: false, hidden: false, isDefault: false });
      expect(fields.find((f: { slug: string }) => f.slug === 'boolean-field')).toEqual({ type: 'boolean', slug: 'boolean-field', label: 'Agree to terms?', required: false, hidden: false, isDefault: false });
      expect(fields.find((f: { slug: string }) => f.slug === 'notes')).toEqual({ type: 'textarea', slug: 'notes', label: 'Anything we should know?', placeholder: 'Notes', required: false, hidden: false, isDefault: true });
      conformsTo('POST', '/v2/event-types', 201, made.body);

      const read = await server.api('GET', `/v2/event-types/${made.body.data.id}`, token, undefined, EVENT_TYPES_VERSION);
      expect(read.body.data.bookingFields).toEqual(fields);
      conformsTo('GET', '/v2/event-types/{eventTypeId}', 200, read.body);
    });

    it.skipIf(!available)('a client that sends back the fields it read changes nothing; a change replaces them', async () => {
      const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
      const made = await server.api('POST', '/v2/event-types', token, eventTypeBody(), EVENT_TYPES_VERSION);
      const path = `/v2/event-types/${made.body.data.id}`;
      const again = await server.api('PATCH', path, token, { bookingFields: made.body.data.bookingFields }, EVENT_TYPES_VERSION);
      expect(again.status).toBe(200);
      expect(again.body.data.bookingFields).toEqual(made.body.data.bookingFields);
      const one = await server.api('PATCH', path, token, { bookingFields: [{ type: 'text', slug: 'company', label: 'Company', required: true, placeholder: '', hidden: false }] }, EVENT_TYPES_VERSION);
      expect(one.status).toBe(200);
      expect(one.body.data.bookingFields.map((f: { slug: string }) => f.slug)).toEqual(['name', 'email', 'location', 'company', 'title', 'notes', 'guests', 'rescheduleReason']);
      conformsTo('PATCH', '/v2/event-types/{eventTypeId}', 200, one.body);
    });

    it.skipIf(!available)("a team's and an organization's team event types take them too, at the team's and the organization's addresses", async () => {
      const admin = await mint(server, w, w.teamAdmin, ['TEAM_EVENT_TYPE_READ', 'TEAM_EVENT_TYPE_WRITE']);
      const teamPath = `/v2/teams/${w.team.id}/event-types`;
      const made = await server.api('POST', teamPath, admin, { ...eventTypeBody(), schedulingType: 'collective' }, EVENT_TYPES_VERSION);
      expect(made.status).toBe(201);
      expect(made.body.data.bookingFields).toContainEqual(expect.objectContaining({ slug: 'customField', type: 'text', required: true, isDefault: false }));
      conformsTo('POST', '/v2/teams/{teamId}/event-types', 201, made.body);

      const orgPath = `/v2/organizations/${w.org.id}/teams/${w.team.id}/event-types`;
      const orgMade = await server.api('POST', orgPath, admin, { ...eventTypeBody(), schedulingType: 'roundRobin' }, EVENT_TYPES_VERSION);
      expect(orgMade.status).toBe(201);
      const changed = await server.api('PATCH', `${orgPath}/${orgMade.body.data.id}`, admin, { bookingFields: [{ type: 'checkbox', slug: 'needs', label: 'Needs', required: false, options: ['Projector'], hidden: false }] }, EVENT_TYPES_VERSION);
      expect(changed.status).toBe(200);
      expect(changed.body.data.bookingFields.filter((f: { isDefault: boolean }) => !f.isDefault)).toEqual([{ type: 'checkbox', slug: 'needs', label: 'Needs', options: ['Projector'], required: false, hidden: false, isDefault: false }]);
      conformsTo('PATCH', '/v2/organizations/{orgId}/teams/{teamId}/event-types/{eventTypeId}', 200, changed.body);
      const listed = await server.api('GET', `${teamPath}?limit=100`, admin, undefined, EVENT_TYPES_VERSION);
      conformsTo('GET', '/v2/teams/{teamId}/event-types', 200, listed.body);
    });

    it.skipIf(!available)('a field that is wrong is 400 naming it, on create and change, and nothing is made or changed', async () => {
      const token = await mint(server, w, w.owner, ['EVENT_TYPE_READ', 'EVENT_TYPE_WRITE']);
      const cases: Array<[unknown[], RegExp]> = [
        [[{ type: 'select', slug: 'pick', label: 'Pick', required: true, placeholder: '', hidden: false }], /^bookingFields\.0\.options: a select field needs its options/],
        [[{ type: 'date', slug: 'day', label: 'Day', required: true }], /^bookingFields\.0\.type: /],
        [[{ type: 'text', slug: 'has space', label: 'x', required: true }], /^bookingFields\.0\.slug: /],
        [[{ type: 'text', slug: 'a', label: 'A', required: true }, { type: 'number', slug: 'a', label: 'B', required: false }], /^bookingFields\.1\.slug: "a" is already the slug of bookingFields\.0/],
        [[{ type: 'email', label: 'Email', placeholder: '', required: false, hidden: true }], /^bookingFields\.0\.required: the booker's email is always asked/],
      ];
      const slugs = async () => (await server.services.stores.api.eventTypes.list({ userId: w.owner.id }, 1000, 0)).map((e) => e.slug);
      const existing = await server.api('POST', '/v2/event-types', token, eventTypeBody([]), EVENT_TYPES_VERSION);
      const before = await slugs();
      for (const [bookingFields, message] of cases) {
        const made = await server.api('POST', '/v2/event-types', token, eventTypeBody(bookingFields), EVENT_TYPES_VERSION);
        expect(made.status, JSON.stringify(bookingFields)).toBe(400);
        expect(made.body.error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(message) });
        const changed = await server.api('PATCH', `/v2/event-types/${existing.body.data.id}`, token, { bookingFields }, EVENT_TYPES_VERSION);
        expect(changed.status, JSON.stringify(bookingFields)).toBe(400);
        expect(changed.body.error.message).toMatch(message);
      }
      // A change refuses a property no booking field has, as every PATCH refuses what it cannot change.
      const unknown = await server.api('PATCH', `/v2/event-types/${existing.body.data.id}`, token, { bookingFields: [{ type: 'text', slug: 'a', label: 'A', required: true, colour: 'red' }] }, EVENT_TYPES_VERSION);
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.message).toMatch(/^bookingFields\.0.*colour/);
      expect(await slugs()).toEqual(before);
      expect((await server.services.stores.api.eventTypes.findOwned({ userId: w.owner.id }, String(existing.body.data.id)))!.bookingFields).toEqual([]);
    });

    it.skipIf(!available)("POST /v2/bookings with Cal.com's documented example (bookingFieldsResponses: {customField: 'customValue'}) → 201, the answers shown in the booking and kept", async () => {
      const token = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE', 'BOOKING_READ']);
      const et = await server.api('POST', '/v2/event-types', token, eventTypeBody(), EVENT_TYPES_VERSION);
      const booked = await server.api('POST', '/v2/bookings', undefined, {
        start: new Date(futureStart(server)).toISOString(),
        eventTypeId: et.body.data.id,
        attendee,
        bookingFieldsResponses: { customField: 'customValue', attendeePhoneNumber: '+39 06 1234 5678', 'checkbox-field': ['Checkbox 2'], 'boolean-field': true, 'number-field': 3, notes: 'See you' },
      }, BOOKINGS_VERSION);
      expect(booked.status).toBe(201);
      const answers = { customField: 'customValue', attendeePhoneNumber: '+390612345678', 'checkbox-field': ['Checkbox 2'], 'boolean-field': true, 'number-field': 3 };
      expect(booked.body.data.bookingFieldsResponses).toEqual({ ...answers, name: 'Ann Attendee', email: 'ann@example.com', guests: [], notes: 'See you' });
      expect(booked.body.data.description).toBe('See you');
      expect((await server.services.stores.bookings.find(booked.body.data.uid))!.responses).toEqual(answers);
      conformsTo('POST', '/v2/bookings', 201, booked.body);

      const read = await server.api('GET', `/v2/bookings/${booked.body.data.uid}`, token, undefined, BOOKINGS_VERSION);
      expect(read.body.data.bookingFieldsResponses).toEqual(booked.body.data.bookingFieldsResponses);
      conformsTo('GET', '/v2/bookings/{bookingUid}', 200, read.body);
      const listed = await server.api('GET', '/v2/bookings?limit=100', token, undefined, BOOKINGS_VERSION);
      expect(listed.body.data.find((b: { uid: string }) => b.uid === booked.body.data.uid).bookingFieldsResponses).toEqual(booked.body.data.bookingFieldsResponses);
      conformsTo('GET', '/v2/bookings', 200, listed.body);
    });

    it.skipIf(!available)('POST /v2/bookings missing a required answer, answering with the wrong kind or naming a field the event type has not → 400 naming it, nothing booked', async () => {
      const token = await mint(server, w, w.owner, ['EVENT_TYPE_WRITE']);
      const et = await server.api('POST', '/v2/event-types', token, eventTypeBody(), EVENT_TYPES_VERSION);
      const bare = await server.api('POST', '/v2/event-types', token, eventTypeBody([]), EVENT_TYPES_VERSION);
      const required = { customField: 'customValue', attendeePhoneNumber: '+14155550123' };
      const cases: Array<[string, Record<string, unknown>, string | RegExp]> = [
        [et.body.data.id, { customField: 'customValue' }, 'bookingFieldsResponses.attendeePhoneNumber: is required by this event type ("Phone")'],
        [et.body.data.id, { ...required, 'number-field': 'many' }, 'bookingFieldsResponses.number-field: must be a number'],
        [et.body.data.id, { ...required, 'select-field': 'Option 3' }, 'bookingFieldsResponses.select-field: must be one of its options: "Option 1", "Option 2"'],
        [et.body.data.id, { ...required, 'url-field': 'not a url' }, 'bookingFieldsResponses.url-field: must be an http(s) URL'],
        [et.body.data.id, { ...required, company: 'Acme' }, /^bookingFieldsResponses\.company: this event type has no booking field "company"; its own are attendeePhoneNumber, address-field, customField/],
        [bare.body.data.id, { customField: 'customValue' }, 'bookingFieldsResponses.customField: this event type has no booking field "customField"; it has none of its own, beside notes and title'],
      ];
      const before = await bookingCount();
      for (const [eventTypeId, bookingFieldsResponses, message] of cases) {
        const res = await server.api('POST', '/v2/bookings', undefined, { start: new Date(futureStart(server)).toISOString(), eventTypeId, attendee, bookingFieldsResponses }, BOOKINGS_VERSION);
        expect(res.status, JSON.stringify(bookingFieldsResponses)).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'validation_error', message: typeof message === 'string' ? message : expect.stringMatching(message) });
      }
      expect(await bookingCount()).toBe(before);
    });

    it.skipIf(!available)("a team books on an attendee's behalf with the same answers", async () => {
      const admin = await mint(server, w, w.teamAdmin, ['TEAM_EVENT_TYPE_WRITE', 'TEAM_BOOKING_WRITE']);
      const et = await server.api('POST', `/v2/teams/${w.team.id}/event-types`, admin, { ...eventTypeBody([{ type: 'radio', slug: 'size', label: 'Size', required: true, options: ['S', 'M'], hidden: false }]), schedulingType: 'collective' }, EVENT_TYPES_VERSION);
      const missing = await server.api('POST', `/v2/teams/${w.team.id}/bookings`, admin, { start: new Date(futureStart(server)).toISOString(), eventTypeId: et.body.data.id, attendee });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toBe('bookingFieldsResponses.size: is required by this event type ("Size")');
      const booked = await server.api('POST', `/v2/teams/${w.team.id}/bookings`, admin, { start: new Date(futureStart(server)).toISOString(), eventTypeId: et.body.data.id, attendee, bookingFieldsResponses: { size: 'M' } });
      expect(booked.status).toBe(201);
      expect(booked.body.data.bookingFieldsResponses).toMatchObject({ size: 'M', name: 'Ann Attendee' });
    });
  });

  // Public booking operations act for the booker (docs/rules.md#public-booking,
  // docs/rules.md#membership-rules): cancel and reschedule need the booking's manageToken, returned once
  // at creation, or an access token with the booking write scope of the booking's family.
  // Everything through real HTTP, on both databases.
  describe('booking manageToken', () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    const attendee = { name: 'Bea Booker', email: 'bea@example.com', timeZone: 'Europe/Paris' };

    /** What an answer says, apart from when and where it was given (docs/rules.md#api-envelope). */
    const answer = (body: { status: string; error?: unknown }) => ({ status: body.status, error: body.error });

    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, w, f } = started));

    /** A booking made as a booker makes it: the public route, no token. */
    async function bookPublicly(owner: { userId: string } | { teamId: string }) {
      const et = await f.eventType(owner);
      const res = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(server)), attendee });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { uid: res.body.data.uid as string, manageToken: res.body.data.manageToken as string, created: res.body };
    }

    const unknownUid = async (path: 'cancel' | 'reschedule', body: Record<string, unknown>) => server.api('POST', `/v2/bookings/noSuchBookingUid/${path}`, undefined, body);
    /** The booking's status as the platform's clients read it, naming the documented version (docs/integrating.md#api-versions). */
    const status = async (uid: string) => (await server.api('GET', `/v2/bookings/${uid}`, await mint(server, w, w.owner, ['BOOKING_READ']), undefined, { 'cal-api-version': '2024-08-13' })).body.data.status as string;

    it.skipIf(!available)('refuses the attack: a BOOKING_READ token lists the uids, but the public routes want the manageToken (docs/rules.md#public-booking)', async () => {
      const { uid, manageToken } = await bookPublicly({ userId: w.owner.id });
      const reader = await mint(server, w, w.owner, ['BOOKING_READ']);
      const list = await server.api('GET', '/v2/bookings?limit=100', reader);
      expect(list.body.data.map((b: { uid: string }) => b.uid)).toContain(uid);

      // No token, no manageToken: 400 naming the field, on both routes, with or without a body.
      for (const [path, body] of [['cancel', undefined], ['cancel', { cancellationReason: 'gone' }], ['reschedule', { start: iso(futureStart(server)) }]] as const) {
        const res = await server.api('POST', `/v2/bookings/${uid}/${path}`, undefined, body);
        expect(res.status, path).toBe(400);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.message).toMatch(/^manageToken: /);
      }

      // A wrong manageToken (well-formed or not) answers exactly like an unknown uid.
      for (const path of ['cancel', 'reschedule'] as const) {
        const extra = path === 'reschedule' ? { start: iso(futureStart(server)) } : {};
        const unknown = await unknownUid(path, { ...extra, manageToken });
        expect(unknown.status).toBe(404);
        for (const wrong of [generateToken('bookingManageToken'), 'not-a-token', manageToken.slice(0, -1) + (manageToken.endsWith('a') ? 'b' : 'a')]) {
          const res = await server.api('POST', `/v2/bookings/${uid}/${path}`, undefined, { ...extra, manageToken: wrong });
          expect(res.status, `${path} ${wrong}`).toBe(404);
          expect(answer(res.body)).toEqual(answer(unknown.body));
        }
      }
      expect(await status(uid)).toBe('accepted');

      // The right one cancels.
      const cancelled = await server.api('POST', `/v2/bookings/${uid}/cancel`, undefined, { manageToken, cancellationReason: 'plans changed' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ uid, status: 'cancelled', cancellationReason: 'plans changed' });
      expect(cancelled.body.data).not.toHaveProperty('manageToken');
    });

    it.skipIf(!available)('returns the manageToken once, at creation, and stores only its SHA-256 hash (docs/rules.md#public-booking, docs/rules.md#token-formats)', async () => {
      const et = await f.eventType({ userId: w.owner.id });
      const res = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(server)), attendee });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { uid, manageToken } = res.body.data as { uid: string; manageToken: string };
      expect(manageToken).toMatch(/^gbm_[0-9A-Za-z]{49}$/);

      const reader = await mint(server, w, w.owner, ['BOOKING_READ']);
      const one = await server.api('GET', `/v2/bookings/${uid}`, reader);
      expect(one.status).toBe(200);
      expect(one.body.data).not.toHaveProperty('manageToken');
      const list = await server.api('GET', '/v2/bookings?limit=100', reader);
      expect(JSON.stringify(list.body)).not.toContain(manageToken);
      expect(list.body.data.find((b: { uid: string }) => b.uid === uid)).not.toHaveProperty('manageToken');

      const row = (await server.services.stores.bookings.find(uid))!;
      expect(row.manageTokenHash).toBe(hashToken(manageToken));
      expect(JSON.stringify(row)).not.toContain(manageToken);
    });

    it.skipIf(!available)('reschedules with the manageToken; the same manageToken manages the new booking, and no new one is issued', async () => {
      const { uid, manageToken } = await bookPublicly({ userId: w.owner.id });
      const later = futureStart(server);
      const moved = await server.api('POST', `/v2/bookings/${uid}/reschedule`, undefined, { start: iso(later), manageToken });
      expect(moved.status).toBe(201);
      expect(moved.body.data).toMatchObject({ rescheduledFromUid: uid, start: iso(later), status: 'accepted' });
      expect(moved.body.data).not.toHaveProperty('manageToken');
      // The platform has no rescheduled status: the booking moved away from is cancelled, and names the new one.
      expect(await status(uid)).toBe('cancelled');
      expect((await server.services.stores.bookings.find(uid))!.status).toBe('rescheduled');

      const again = await server.api('POST', `/v2/bookings/${uid}/cancel`, undefined, { manageToken });
      expect(again.status).toBe(409);
      const cancelled = await server.api('POST', `/v2/bookings/${moved.body.data.uid}/cancel`, undefined, { manageToken });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data.status).toBe('cancelled');
    });

    it.skipIf(!available)("a reschedule keeps the event type's minimum notice, with the manageToken as with the host's token", async () => {
      const et = await f.eventType({ userId: w.owner.id }, { minimumBookingNotice: 1440 });
      const booked = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(server)), attendee });
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
      const { uid, manageToken } = booked.body.data as { uid: string; manageToken: string };
      const soon = iso(server.clock() + 5 * 60_000);
      // What creation refuses, a reschedule refuses, in the same words.
      const create = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: soon, attendee });
      expect(create.status).toBe(400);
      const writer = await mint(server, w, w.owner, ['BOOKING_WRITE']);
      for (const [who, bearer, proof] of [['manageToken', undefined, { manageToken }], ['host token', writer, {}]] as const) {
        const res = await server.api('POST', `/v2/bookings/${uid}/reschedule`, bearer, { start: soon, ...proof });
        expect(res.status, who).toBe(400);
        expect(res.body.error, who).toMatchObject({ code: 'validation_error', message: create.body.error.message });
        expect(res.body.error.message).toBe('start: must be at least 1440 minutes from now');
      }
      expect(await status(uid)).toBe('accepted');
      // Far enough ahead, it moves.
      const moved = await server.api('POST', `/v2/bookings/${uid}/reschedule`, undefined, { start: iso(futureStart(server)), manageToken });
      expect(moved.status).toBe(201);
    });

    it.skipIf(!available)('the manageToken needs no scope, with or without an access token beside it; beside it, a wrong one is still 404 (docs/rules.md#public-booking)', async () => {
      const { uid, manageToken } = await bookPublicly({ userId: w.owner.id });
      const stranger = await mint(server, w, w.outsider, []);
      const wrong = await server.api('POST', `/v2/bookings/${uid}/cancel`, stranger, { manageToken: generateToken('bookingManageToken') });
      expect(wrong.status).toBe(404);
      expect(answer(wrong.body)).toEqual(answer((await unknownUid('cancel', { manageToken })).body));
      // Even the host's write token does not rescue a wrong manageToken: the manageToken, when sent, decides.
      const hostWriter = await mint(server, w, w.owner, ['BOOKING_WRITE']);
      expect((await server.api('POST', `/v2/bookings/${uid}/cancel`, hostWriter, { manageToken: 'wrong' })).status).toBe(404);

      const ok = await server.api('POST', `/v2/bookings/${uid}/cancel`, stranger, { manageToken });
      expect(ok.status).toBe(200);
      expect(ok.body.data.status).toBe('cancelled');
    });

    it.skipIf(!available)("without a manageToken, the host's token needs BOOKING_WRITE for a personal booking; another user's token is 404 (docs/rules.md#public-booking, docs/rules.md#membership-rules)", async () => {
      const { uid } = await bookPublicly({ userId: w.owner.id });
      const reader = await mint(server, w, w.owner, ['BOOKING_READ']);
      for (const [path, body] of [['cancel', {}], ['reschedule', { start: iso(futureStart(server)) }]] as const) {
        const res = await server.api('POST', `/v2/bookings/${uid}/${path}`, reader, body);
        expect(res.status, path).toBe(403);
        expect(res.body.error.code).toBe('insufficient_scope');
        expect(res.body.error.message).toContain('BOOKING_WRITE');
        expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="BOOKING_WRITE"');
      }
      // Another user's token, whatever its scopes, does not learn that the booking exists.
      const unknown = await server.api('POST', '/v2/bookings/noSuchBookingUid/cancel', await mint(server, w, w.outsider, ['BOOKING_WRITE']), {});
      expect(unknown.status).toBe(404);
      for (const scopes of [['BOOKING_WRITE'], ['BOOKING_READ'], null]) {
        const res = await server.api('POST', `/v2/bookings/${uid}/cancel`, await mint(server, w, w.outsider, scopes), {});
        expect(res.status, String(scopes)).toBe(404);
        expect(answer(res.body)).toEqual(answer(unknown.body));
      }
      expect(await status(uid)).toBe('accepted');

      const writer = await mint(server, w, w.owner, ['BOOKING_WRITE']);
      const later = futureStart(server);
      const moved = await server.api('POST', `/v2/bookings/${uid}/reschedule`, writer, { start: iso(later) });
      expect(moved.status).toBe(201);
      expect(moved.body.data).toMatchObject({ rescheduledFromUid: uid, start: iso(later) });
      const cancelled = await server.api('POST', `/v2/bookings/${moved.body.data.uid}/cancel`, writer, { cancellationReason: 'host is ill' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancellationReason: 'host is ill' });

      // A legacy token passes the scope check, for its own user's booking only (docs/rules.md#scope-checks).
      const other = await bookPublicly({ userId: w.owner.id });
      expect((await server.api('POST', `/v2/bookings/${other.uid}/cancel`, await mint(server, w, w.owner, null), {})).status).toBe(200);
    });

    it.skipIf(!available)('without a manageToken, a team booking needs TEAM_BOOKING_WRITE (or ORG_BOOKING_WRITE) of a team admin or organization admin (docs/rules.md#public-booking, docs/rules.md#membership-rules)', async () => {
      const first = await bookPublicly({ teamId: w.team.id });
      const path = `/v2/bookings/${first.uid}/cancel`;

      // The personal scope is not the team booking's family, even for its host.
      const hostPersonal = await server.api('POST', path, await mint(server, w, w.owner, ['BOOKING_WRITE']), {});
      expect(hostPersonal.status).toBe(403);
      expect(hostPersonal.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="TEAM_BOOKING_WRITE"');
      // A plain member may read the team's bookings, not change them.
      const member = await server.api('POST', path, await mint(server, w, w.member, ['TEAM_BOOKING_WRITE']), {});
      expect(member.status).toBe(403);
      expect(member.body.error.code).toBe('forbidden');
      // Someone outside the team and its organization learns nothing.
      const outsider = await server.api('POST', path, await mint(server, w, w.outsider, ['TEAM_BOOKING_WRITE', 'ORG_BOOKING_WRITE']), {});
      expect(outsider.status).toBe(404);
      expect(answer(outsider.body)).toEqual(answer((await server.api('POST', '/v2/bookings/noSuchBookingUid/cancel', await mint(server, w, w.outsider, ['TEAM_BOOKING_WRITE']), {})).body));
      expect(await status(first.uid)).toBe('accepted');

      const byTeamAdmin = await server.api('POST', path, await mint(server, w, w.teamAdmin, ['TEAM_BOOKING_WRITE']), {});
      expect(byTeamAdmin.status).toBe(200);
      expect(byTeamAdmin.body.data.status).toBe('cancelled');

      // docs/rules.md#scope-checks: ORG_BOOKING_WRITE of an organization admin stands in for TEAM_BOOKING_WRITE.
      const second = await bookPublicly({ teamId: w.team.id });
      const later = futureStart(server);
      const byOrgAdmin = await server.api('POST', `/v2/bookings/${second.uid}/reschedule`, await mint(server, w, w.orgAdmin, ['ORG_BOOKING_WRITE']), { start: iso(later) });
      expect(byOrgAdmin.status).toBe(201);
      expect(byOrgAdmin.body.data).toMatchObject({ rescheduledFromUid: second.uid, teamId: Number(w.team.id), start: iso(later) });
    });

    it.skipIf(!available)('a team booking made by a team admin for an attendee also returns its manageToken, once', async () => {
      const et = await f.eventType({ teamId: w.team.id });
      const admin = await mint(server, w, w.teamAdmin, ['TEAM_BOOKING_WRITE', 'TEAM_BOOKING_READ']);
      const created = await server.api('POST', `/v2/teams/${w.team.id}/bookings`, admin, { eventTypeId: et.id, start: iso(futureStart(server)), attendee });
      expect(created.status).toBe(201);
      const { uid, manageToken } = created.body.data as { uid: string; manageToken: string };
      expect(manageToken).toMatch(/^gbm_/);
      expect((await server.api('GET', `/v2/teams/${w.team.id}/bookings/${uid}`, admin)).body.data).not.toHaveProperty('manageToken');
      expect((await server.api('POST', `/v2/bookings/${uid}/cancel`, undefined, { manageToken })).status).toBe(200);
    });

    it.skipIf(!available)('a manageToken of the wrong type or length is a 400 naming it, never a 500', async () => {
      const { uid } = await bookPublicly({ userId: w.owner.id });
      for (const manageToken of ['', 'x'.repeat(300), { token: 'x' }, ['a', 'b'], null]) {
        const res = await server.api('POST', `/v2/bookings/${uid}/cancel`, undefined, { manageToken });
        expect(res.status, JSON.stringify(manageToken)).toBe(400);
        expect(res.body.error.message).toMatch(/^manageToken: /);
      }
    });
  });

  // What calendars and video services report of a booking (docs/integrating.md#provider-records):
  // Gatehouse runs none, so an operator records it with `gatehouse bookings add-…` and the /v2
  // routes at Cal.com API v2's addresses answer it, through real HTTP on both databases. Nothing
  // recorded is an empty list. Who reaches a booking's records — its host, or its team for a team
  // booking's references (docs/rules.md#membership-rules) — is test/services/platform/booking-provider-records.test.ts's;
  // the scope, and the organization's address of the team route, are platform-access's and team-access's.
  describe('booking provider records', () => {
    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, w, f } = started));

    const gatehouse = (...args: string[]): Promise<CliResult> => runCli(args, { env: { DATABASE_URL: server.database.url, ...server.database.env } });
    const recorded = async (...args: string[]) => {
      const res = await gatehouse('bookings', ...args, '--json');
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout) as Record<string, unknown>;
    };
    const read = (user: TestUser) => mint(server, w, user, ['BOOKING_READ']);

    it.skipIf(!available)('nothing recorded: each route answers an empty list', async () => {
      const host = await quickUser(server);
      const b = await f.booking({ hostId: host.id });
      const t = await read(host);
      for (const what of ['references', 'recordings', 'transcripts', 'conferencing-sessions']) {
        const res = await server.api('GET', `/v2/bookings/${b.uid}/${what}`, t);
        expect(res.status, what).toBe(200);
        expect(res.body, what).toEqual({ status: 'success', data: [] });
      }
    });

    it.skipIf(!available)('what the CLI records, the routes answer in the platform shapes; ?type= keeps one provider', async () => {
      const host = await quickUser(server);
      const b = await f.booking({ hostId: host.id });
      const t = await read(host);
      const ref = await recorded('add-reference', '--booking', b.uid, '--type', 'google_calendar', '--event-uid', 'gcal-123', '--calendar', 'primary');
      await recorded('add-reference', '--booking', b.uid, '--type', 'daily_video', '--event-uid', 'room-9');
      const rec = await recorded('add-recording', '--booking', b.uid, '--room', 'daily-room-9', '--start', '2030-01-31T09:00:00Z', '--duration', '1800', '--share-token', 'share-1', '--download-link', 'https://video.example.com/rec/1', '--id', `rec-${b.uid}`);
      await recorded('add-transcript', '--booking', b.uid, '--url', 'https://video.example.com/transcripts/1.txt');
      const participants = JSON.stringify([{ userId: host.id, userName: 'Host', joinTime: 1896080400, duration: 1700 }, { userId: null, userName: null, joinTime: 1896080460, duration: 1600 }]);
      const ses = await recorded('add-session', '--booking', b.uid, '--room', 'daily-room-9', '--start', '1896080400', '--duration', '1800', '--max-participants', '2', '--participants', participants);

      const references = await server.api('GET', `/v2/bookings/${b.uid}/references`, t);
      expect(references.body.data).toEqual([
        { id: Number(ref.id), type: 'google_calendar', eventUid: 'gcal-123', destinationCalendarId: 'primary' },
        { id: expect.any(Number), type: 'daily_video', eventUid: 'room-9', destinationCalendarId: null },
      ]);
      expect((await server.api('GET', `/v2/bookings/${b.uid}/references?type=daily_video`, t)).body.data.map((r: { type: string }) => r.type)).toEqual(['daily_video']);
      expect((await server.api('GET', `/v2/bookings/${b.uid}/recordings`, t)).body.data).toEqual([
        { id: rec.id, roomName: 'daily-room-9', startTs: 1896080400, status: 'completed', duration: 1800, shareToken: 'share-1', downloadLink: 'https://video.example.com/rec/1', error: null },
      ]);
      expect(rec.id).toBe(`rec-${b.uid}`);
      expect((await server.api('GET', `/v2/bookings/${b.uid}/transcripts`, t)).body).toEqual({ status: 'success', data: ['https://video.example.com/transcripts/1.txt'] });
      expect((await server.api('GET', `/v2/bookings/${b.uid}/conferencing-sessions`, t)).body.data).toEqual([
        { id: ses.id, room: 'daily-room-9', startTime: 1896080400, duration: 1800, ongoing: false, maxParticipants: 2, participants: JSON.parse(participants) },
      ]);
    });

    it.skipIf(!available)('the CLI refuses, one line and exit 1: an unknown booking, a bad address, a bad time, malformed participants, a provider id recorded already', async () => {
      const b = await f.booking({ hostId: w.owner.id });
      const cases: Array<[string[], string]> = [
        [['add-transcript', '--booking', 'no-such-booking', '--url', 'https://x.example.com/t'], 'no booking has the uid no-such-booking'],
        [['add-transcript', '--booking', b.uid, '--url', 'ftp://x.example.com/t'], 'url: must be an absolute https:// or http:// address'],
        [['add-recording', '--booking', b.uid, '--room', 'r', '--start', 'yesterday', '--duration', '60', '--share-token', 's'], '--start: give an ISO 8601 time'],
        [['add-session', '--booking', b.uid, '--room', 'r', '--start', '1896080400', '--duration', '60', '--max-participants', '1', '--participants', '[{"joinTime":"soon","duration":1}]'], 'participants[0].joinTime: must be a whole number'],
        [['add-session', '--booking', b.uid, '--room', 'r', '--start', '1896080400', '--duration', '60', '--max-participants', '1', '--participants', 'not json'], '--participants: give a JSON list'],
      ];
      for (const [args, message] of cases) {
        const res = await gatehouse('bookings', ...args);
        expect(res.code, args.join(' ')).toBe(1);
        expect(res.stderr, args.join(' ')).toContain(message);
      }
      const args = ['add-recording', '--booking', b.uid, '--room', 'r', '--start', '1896080400', '--duration', '60', '--share-token', 's', '--id', `dup-${b.uid}`];
      expect((await gatehouse('bookings', ...args)).code).toBe(0);
      const again = await gatehouse('bookings', ...args);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`id: a recording of id dup-${b.uid} is already recorded`);
      expect((await server.api('GET', `/v2/bookings/${b.uid}/recordings`, await read(w.owner))).body.data).toHaveLength(1);
    });
  });

  // Cal.com API v2's own booking requests, as its OpenAPI description writes them
  // (CreateBookingInput_2024_08_13, AddGuestsInput_2024_08_13, UpdateBookingLocationInput_2024_08_13,
  // a reassign without a body), read beside Gatehouse's own; the booking keeps one form.
  // The public-booking rules stay (docs/rules.md#public-booking): anyone books, the answer
  // carries the manageToken once.
  describe('the platform’s booking requests', () => {
    const iso = (ms: number) => new Date(ms).toISOString();

    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    let host: string;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      w = await buildWorld(server);
      f = fixtures(server);
      host = await mint(server, w, w.owner, ['BOOKING_READ', 'BOOKING_WRITE']);
    });

    const stored = (uid: string) => server.services.stores.bookings.find(uid);
    const attendee = { name: 'Ann Attendee', email: 'Ann@Example.com', timeZone: 'Europe/Rome', language: 'it', phoneNumber: '+390612345678' };

    /** An event type whose id is all digits, as the platform's numeric ids are. */
    async function numericEventType() {
      const et = await f.eventType({ userId: w.owner.id });
      const id = String(Date.now()) + String(Math.floor(Math.random() * 1000));
      await server.services.stores.api.eventTypes.insert({ ...et, id, slug: `n-${uniq().toLowerCase()}` });
      return { ...et, id };
    }

    it.skipIf(!available)('POST /v2/bookings with the platform’s body (a numeric eventTypeId, an attendee location, notes among bookingFieldsResponses, metadata) → 201; the booking stored as Gatehouse keeps it', async () => {
      const et = await numericEventType();
      const start = futureStart(server);
      const res = await server.api('POST', '/v2/bookings', undefined, {
        start: iso(start),
        attendee,
        eventTypeId: Number(et.id),
        guests: ['Guest@Example.com'],
        location: { type: 'attendeeAddress', address: '1 Main Street, Rome' },
        bookingFieldsResponses: { notes: 'About the offer' },
        metadata: { crmId: '42' },
        lengthInMinutes: 30,
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ eventTypeId: Number(et.id), location: '1 Main Street, Rome', description: 'About the offer', guests: ['guest@example.com'], manageToken: expect.any(String) });
      expect(await stored(res.body.data.uid)).toMatchObject({
        eventTypeId: et.id,
        hostId: w.owner.id,
        start,
        end: start + 30 * 60_000,
        attendee: { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Rome' },
        guests: ['guest@example.com'],
        location: '1 Main Street, Rome',
        description: 'About the offer',
      });
    });

    it.skipIf(!available)('POST /v2/bookings by eventTypeSlug with username, or with teamSlug (and organizationSlug); an organizer’s location type takes the event type’s place', async () => {
      const mine = await f.eventType({ userId: w.owner.id });
      const { username } = (await server.services.stores.users.findById(w.owner.id))!;
      const byUser = await server.api('POST', '/v2/bookings', undefined, { start: iso(futureStart(server)), attendee, eventTypeSlug: mine.slug, username, location: { type: 'link' } });
      expect(byUser.status).toBe(201);
      expect(await stored(byUser.body.data.uid)).toMatchObject({ eventTypeId: mine.id, location: 'https://meet.example.com/intro' });
      const teams = await f.eventType({ teamId: w.team.id });
      const byTeam = await server.api('POST', '/v2/bookings', undefined, { start: iso(futureStart(server)), attendee, eventTypeSlug: teams.slug, teamSlug: w.team.slug, organizationSlug: w.org.slug });
      expect(byTeam.status).toBe(201);
      expect(await stored(byTeam.body.data.uid)).toMatchObject({ eventTypeId: teams.id, teamId: w.team.id });
    });

    it.skipIf(!available)('POST /v2/bookings naming an unknown slug, another organization, or no event type at all → 404 / 400 naming the field, and no booking is stored', async () => {
      const teams = await f.eventType({ teamId: w.team.id });
      const before = (await server.services.stores.bookings.page({ teamId: w.team.id }, {}, 100, 0)).bookings;
      const elsewhere = await server.api('POST', '/v2/bookings', undefined, { start: iso(futureStart(server)), attendee, eventTypeSlug: teams.slug, teamSlug: w.team.slug, organizationSlug: w.otherOrg.slug });
      expect(elsewhere.status).toBe(404);
      const unknown = await server.api('POST', '/v2/bookings', undefined, { start: iso(futureStart(server)), attendee, eventTypeSlug: 'no-such-slug', teamSlug: w.team.slug });
      expect(unknown.status).toBe(404);
      const none = await server.api('POST', '/v2/bookings', undefined, { start: iso(futureStart(server)), attendee });
      expect(none.status).toBe(400);
      expect(none.body.error.message).toMatch(/^eventTypeId: is required, or eventTypeSlug/);
      const both = await server.api('POST', '/v2/bookings', undefined, { start: iso(futureStart(server)), attendee, eventTypeSlug: teams.slug, teamSlug: w.team.slug, username: 'someone' });
      expect(both.status).toBe(400);
      expect(both.body.error.message).toMatch(/^eventTypeSlug: /);
      expect((await server.services.stores.bookings.page({ teamId: w.team.id }, {}, 100, 0)).bookings).toEqual(before);
    });

    it.skipIf(!available)('POST /v2/bookings asking for what Gatehouse cannot do (a meeting link it would have to make, another length, a booking field the event type has not) → 400 naming the field, nothing stored', async () => {
      const et = await f.eventType({ userId: w.owner.id });
      const before = (await server.services.stores.bookings.page({ userId: w.owner.id }, {}, 100, 0)).bookings;
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ location: { type: 'integration', integration: 'zoom' } }, /^location\.integration: the event type offers no zoom location, and Gatehouse makes no meeting links/],
        [{ location: { type: 'address' } }, /^location\.type: the event type offers no location of type address/],
        [{ location: { type: 'attendeePhone' } }, /^location\.phone: is required/],
        [{ lengthInMinutes: 45 }, /^lengthInMinutes: this event type lasts 30 minutes/],
        [{ bookingFieldsResponses: { company: 'Acme' } }, /^bookingFieldsResponses\.company: /],
      ];
      for (const [extra, message] of cases) {
        const res = await server.api('POST', '/v2/bookings', undefined, { start: iso(futureStart(server)), attendee, eventTypeId: et.id, ...extra });
        expect(res.status, JSON.stringify(extra)).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'validation_error', message: expect.stringMatching(message) });
      }
      expect((await server.services.stores.bookings.page({ userId: w.owner.id }, {}, 100, 0)).bookings).toEqual(before);
    });

    it.skipIf(!available)('POST /v2/bookings with Gatehouse’s own body (location as text, notes) still books as before', async () => {
      const et = await f.eventType({ userId: w.owner.id });
      const res = await server.api('POST', '/v2/bookings', undefined, { eventTypeId: et.id, start: iso(futureStart(server)), attendee: { name: 'Bo', email: 'bo@example.com', timeZone: 'UTC' }, location: 'Room 4', notes: 'Hi', guests: ['g@example.com'] });
      expect(res.status).toBe(201);
      expect(await stored(res.body.data.uid)).toMatchObject({ location: 'Room 4', description: 'Hi', guests: ['g@example.com'] });
    });

    it.skipIf(!available)('POST /v2/bookings/{uid}/guests with the platform’s guest objects (and an address, as before) → 200, the addresses stored', async () => {
      const b = await f.booking({ hostId: w.owner.id });
      const res = await server.api('POST', `/v2/bookings/${b.uid}/guests`, host, { guests: [{ email: 'Kim@Example.com', name: 'Kim', timeZone: 'Europe/Oslo', language: 'no' }, 'lee@example.com'] });
      expect(res.status).toBe(200);
      expect(res.body.data.guests).toEqual(['kim@example.com', 'lee@example.com']);
      expect((await stored(b.uid))!.guests).toEqual(['kim@example.com', 'lee@example.com']);
      const bad = await server.api('POST', `/v2/bookings/${b.uid}/guests`, host, { guests: [{ name: 'No Address' }] });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/^guests\.0.*email/);
      const malformed = await server.api('POST', `/v2/bookings/${b.uid}/guests`, host, { guests: [{ email: 'not-an-address' }] });
      expect(malformed.status).toBe(400);
      expect(malformed.body.error.message).toMatch(/^guests\.0\.email: /);
      expect((await stored(b.uid))!.guests).toEqual(['kim@example.com', 'lee@example.com']);
    });

    it.skipIf(!available)('PATCH /v2/bookings/{uid}/location with the platform’s location object → 200, its place stored; a type without its value → 400 naming the field; text still works', async () => {
      const b = await f.booking({ hostId: w.owner.id });
      const path = `/v2/bookings/${b.uid}/location`;
      const address = await server.api('PATCH', path, host, { location: { type: 'address', address: 'Via Roma 1' } });
      expect(address.status).toBe(200);
      expect((await stored(b.uid))!.location).toBe('Via Roma 1');
      const link = await server.api('PATCH', path, host, { location: { type: 'link', link: 'https://meet.example.com/x' } });
      expect(link.status).toBe(200);
      expect(link.body.data.location).toBe('https://meet.example.com/x');
      const missing = await server.api('PATCH', path, host, { location: { type: 'phone' } });
      expect(missing.status).toBe(400);
      expect(missing.body.error.message).toMatch(/^location\.phone: is required/);
      const untyped = await server.api('PATCH', path, host, { location: { address: 'Via Roma 1' } });
      expect(untyped.status).toBe(400);
      expect(untyped.body.error.message).toMatch(/^location.*type/);
      const text = await server.api('PATCH', path, host, { location: 'Room 9' });
      expect(text.status).toBe(200);
      expect((await stored(b.uid))!.location).toBe('Room 9');
    });

    it.skipIf(!available)('POST /v2/bookings/{uid}/reassign without a body → 200, the team booking handed to the first free member in round-robin order; none free → 409, the host unchanged', async () => {
      const [lead, busy, free] = [await quickUser(server), await quickUser(server), await quickUser(server)];
      const team = await createTeam(server.services, { name: 'Support', ownerId: lead.id });
      await addMember(server.services, { teamId: team.id }, busy.id, 'member');
      await addMember(server.services, { teamId: team.id }, free.id, 'member');
      const start = futureStart(server);
      const b = await f.booking({ hostId: lead.id, teamId: team.id, start });
      await f.booking({ hostId: busy.id, start });
      const token = await mint(server, w, lead, ['BOOKING_WRITE']);
      const res = await server.api('POST', `/v2/bookings/${b.uid}/reassign`, token);
      expect(res.status).toBe(200);
      expect(res.body.data.hostId).toBe(Number(free.id));
      expect((await stored(b.uid))!.hostId).toBe(free.id);

      const later = futureStart(server);
      const c = await f.booking({ hostId: lead.id, teamId: team.id, start: later });
      await f.booking({ hostId: busy.id, start: later });
      await f.booking({ hostId: free.id, start: later });
      const none = await server.api('POST', `/v2/bookings/${c.uid}/reassign`, token, {});
      expect(none.status).toBe(409);
      expect(none.body.error.message).toMatch(/no other member of the team is available/);
      expect((await stored(c.uid))!.hostId).toBe(lead.id);
    });

    it.skipIf(!available)('POST /v2/bookings/{uid}/reassign/{userId} → 200, the team booking handed to that member; someone outside the team → 400 naming userId, the host unchanged', async () => {
      const [lead, next] = [await quickUser(server), await quickUser(server)];
      const team = await createTeam(server.services, { name: 'Desk', ownerId: lead.id });
      await addMember(server.services, { teamId: team.id }, next.id, 'member');
      const b = await f.booking({ hostId: lead.id, teamId: team.id });
      const token = await mint(server, w, lead, ['BOOKING_WRITE']);
      const res = await server.api('POST', `/v2/bookings/${b.uid}/reassign/${next.id}`, token, { reason: 'On leave' });
      expect(res.status).toBe(200);
      expect(res.body.data.hostId).toBe(Number(next.id));
      expect((await stored(b.uid))!.hostId).toBe(next.id);

      const stranger = await quickUser(server);
      const refused = await server.api('POST', `/v2/bookings/${b.uid}/reassign/${stranger.id}`, await mint(server, w, next, ['BOOKING_WRITE']));
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe("userId: is not a member of the booking's team");
      expect((await stored(b.uid))!.hostId).toBe(next.id);
    });
  });

  // An organization member's bookings (GET /v2/organizations/:orgId/users/:userId/bookings,
  // ORG_BOOKING_READ) as Cal.com's own MCP server asks for them (get_org_user_bookings): its
  // headers, `status` repeated as it sends an array, take and skip; the answer in the platform's
  // booking list shape. What the service decides (which bookings, who is a member) is tested in
  // process (test/services/platform/bookings.test.ts); scope and role by the access suites.
  describe("an organization member's bookings", () => {
    /** What Cal.com's MCP server sends with every request (apps/mcp-server's API client), a GET included. */
    const CALCOM_HEADERS = { 'cal-api-version': '2024-08-13', 'content-type': 'application/json' };

    /** Cal.com documents no answer for this operation: its bookings are those of GET /v2/bookings, so that one's schema checks them. */
    function documentedMismatch(status: number, body: unknown): string | null {
      if (!referenceAvailable) return null;
      const { operations, checkResponse } = loadReference();
      return checkResponse(operations.find((o) => o.method === 'GET' && o.path === '/v2/bookings')!, status, body);
    }

    let server: TestServer;
    let w: World;
    let f: ReturnType<typeof fixtures>;
    useWorld(shared, available, (started) => ({ server, w, f } = started));

    const get = (path: string, token: string) => server.api('GET', path, token, undefined, CALCOM_HEADERS);

    it.skipIf(!available)("Cal.com's get_org_user_bookings (status repeated, take, skip, sortStart=asc) → 200, the member's upcoming and past bookings in the organization, earliest first, with pagination", async () => {
      const { user } = await f.membership({ organizationId: w.org.id });
      // Of an event type, as every booking the API makes is.
      const eventTypeId = (await f.eventType({ userId: user.id })).id;
      const past = await f.booking({ hostId: user.id, eventTypeId, start: server.clock() - 3 * 3600_000 });
      // Soon first: a later slot of the fixtures' week is never earlier (a Friday's last slot
      // and the next Monday's first lie more than 48 hours apart).
      const soon = await f.booking({ hostId: user.id, eventTypeId });
      const later = await f.booking({ hostId: user.id, eventTypeId, start: futureStart(server) + 48 * 3600_000 });
      const orgTeam = await createTeam(server.services, { name: 'Support', ownerId: user.id, organizationId: w.org.id });
      const ofTeam = await f.booking({ hostId: user.id, teamId: orgTeam.id, eventTypeId: (await f.eventType({ teamId: orgTeam.id })).id, start: futureStart(server) + 72 * 3600_000 });
      await f.booking({ hostId: user.id, status: 'cancelled' });
      // Theirs, but in a team of another organization: not this organization's to read.
      const rivalTeam = await createTeam(server.services, { name: 'Elsewhere', ownerId: user.id, organizationId: w.otherOrg.id });
      await f.booking({ hostId: user.id, teamId: rivalTeam.id });
      await f.booking({ hostId: w.orgAdmin.id });
      const token = await mint(server, w, w.orgAdmin, ['ORG_BOOKING_READ']);
      const path = `/v2/organizations/${w.org.id}/users/${user.id}/bookings`;

      const res = await get(`${path}?status=upcoming&status=past&take=3&skip=0&sortStart=asc`, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.map((b: { uid: string }) => b.uid)).toEqual([past.uid, soon.uid, later.uid]);
      expect(res.body.data[0]).toMatchObject({ hosts: [{ id: Number(user.id), email: user.email }], status: 'accepted' });
      expect(res.body.pagination).toMatchObject({ totalItems: 4, returnedItems: 3, itemsPerPage: 3, currentPage: 1, totalPages: 2, hasNextPage: true, hasPreviousPage: false });
      expect(documentedMismatch(res.status, res.body)).toBeNull();
      const next = await get(`${path}?status=upcoming,past&take=3&skip=3`, token);
      expect(next.body.data.map((b: { uid: string }) => b.uid)).toEqual([ofTeam.uid]);
      expect((await get(`${path}?status=cancelled`, token)).body.data).toHaveLength(1);
    });

    it.skipIf(!available)('a filter Cal.com documents and Gatehouse does not take → 400 naming it, never a list that ignored it; so is sortStart=desc', async () => {
      const { user } = await f.membership({ organizationId: w.org.id });
      const token = await mint(server, w, w.orgAdmin, ['ORG_BOOKING_READ']);
      const path = `/v2/organizations/${w.org.id}/users/${user.id}/bookings`;
      for (const [query, field] of [
        ['attendeeEmail=ann%40example.com', 'attendeeEmail'],
        ['status=upcoming&bookingUid=abc', 'bookingUid'],
        ['eventTypeIds=100,200', 'eventTypeIds'],
        ['sortUpdatedAt=desc', 'sortUpdatedAt'],
        ['afterCreatedAt=2025-03-07T10:00:00.000Z', 'afterCreatedAt'],
      ] as const) {
        const res = await get(`${path}?${query}`, token);
        expect(res.status, query).toBe(400);
        expect(res.body.error, query).toEqual({ code: 'validation_error', message: `${field}: is not supported: a member's bookings are filtered by status, afterStart, beforeEnd, sortStart=asc, take and skip only` });
      }
      const desc = await get(`${path}?sortStart=desc`, token);
      expect(desc.status).toBe(400);
      expect(desc.body.error.message).toBe('sortStart: only asc is supported: the bookings come by start time, earliest first');
      const badStatus = await get(`${path}?status=upcoming&status=soon`, token);
      expect(badStatus.status).toBe(400);
      expect(badStatus.body.error.message).toMatch(/^status: "soon" is not a status/);
    });

    it.skipIf(!available)('a user who is not an accepted member of the organization → 404 as an unknown user, whether invited, elsewhere or nobody', async () => {
      const token = await mint(server, w, w.owner, ['ORG_BOOKING_READ']);
      // The world's invitee is invited to the organization by id; the outsider owns another one.
      for (const userId of [w.invitee.id, w.outsider.id, '999999']) {
        await f.booking({ hostId: userId === '999999' ? w.outsider.id : userId });
        const res = await get(`/v2/organizations/${w.org.id}/users/${userId}/bookings`, token);
        expect(res.status, userId).toBe(404);
        expect(res.body.error, userId).toEqual({ code: 'not_found', message: 'no such user in this organization' });
      }
    });

    it.skipIf(!available)('the personal GET /v2/bookings takes status repeated too, as Cal.com’s clients send an array', async () => {
      const { user } = await f.membership({ organizationId: w.org.id });
      const past = await f.booking({ hostId: user.id, start: server.clock() - 3 * 3600_000 });
      const soon = await f.booking({ hostId: user.id });
      await f.booking({ hostId: user.id, status: 'cancelled' });
      const res = await get('/v2/bookings?status=upcoming&status=past', await mint(server, w, user, ['BOOKING_READ']));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.map((b: { uid: string }) => b.uid)).toEqual([past.uid, soon.uid]);
    });
  });
});
