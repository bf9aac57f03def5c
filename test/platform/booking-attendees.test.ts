// A booking's attendees and who was absent (docs/integrating.md#booking-attendees), at Cal.com API
// v2's addresses, through real HTTP on both databases: the booker and guests a booking was made
// with are its first attendees, the host adds more and marks who did not come, and only the
// host reaches them (docs/rules.md#membership-rules).
import { describe, expect, it } from 'vitest';
import { copyAttendees } from '../../src/storage/migrations/019_booking_attendees.ts';
import { randomId } from '../../src/oauth/token-format.ts';
import { backends } from '../helpers/backends.ts';
import { type TestServer, type TestUser } from '../helpers/server.ts';
import { fixtures, futureStart, mint, quickUser, type World, useWorld } from './fixtures.ts';

const ann = { name: 'Ann Attendee', email: 'ann@example.com', timeZone: 'Europe/Paris' };

describe.each(backends)('booking attendees on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

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

  it.skipIf(!available)('a token without the scope is 403 insufficient_scope naming it: BOOKING_READ to read, BOOKING_WRITE to change', async () => {
    const host = await quickUser(server);
    const b = await f.booking({ hostId: host.id });
    const readOnly = await token(host, ['BOOKING_READ']);
    const writeOnly = await token(host, ['BOOKING_WRITE']);
    for (const [method, path, t, scope, body] of [
      ['GET', `/v2/bookings/${b.uid}/attendees`, writeOnly, 'BOOKING_READ', undefined],
      ['POST', `/v2/bookings/${b.uid}/attendees`, readOnly, 'BOOKING_WRITE', { name: 'X', email: 'x@example.com', timeZone: 'UTC' }],
      ['POST', `/v2/bookings/${b.uid}/mark-absent`, readOnly, 'BOOKING_WRITE', { host: true }],
    ] as const) {
      const res = await server.api(method, path, t, body);
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('insufficient_scope');
      expect(res.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${scope}"`);
    }
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
