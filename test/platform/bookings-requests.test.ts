// Cal.com API v2's own booking requests, as its OpenAPI description writes them
// (CreateBookingInput_2024_08_13, AddGuestsInput_2024_08_13, UpdateBookingLocationInput_2024_08_13,
// a reassign without a body), read beside Gatehouse's own; the booking keeps one form.
// The public-booking rules stay (docs/rules.md#public-booking): anyone books, the answer
// carries the manageToken once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createTeam } from '../../src/services/teams/teams.ts';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildWorld, fixtures, futureStart, mint, quickUser, uniq, type World } from './fixtures.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(backends)('the platform’s booking requests on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  let host: string;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    w = await buildWorld(server);
    f = fixtures(server);
    host = await mint(server, w, w.owner, ['BOOKING_READ', 'BOOKING_WRITE']);
  });
  afterAll(async () => server?.close());

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
