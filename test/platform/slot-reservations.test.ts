// /v2/slots/reservations (docs/integrating.md#slot-reservations) over real HTTP on both
// databases: what only HTTP shows. Cal.com's request and answer, a held slot left out of
// GET /v2/slots and refused to a booking without its uid (409 envelope), the 404 of a hold that
// is gone, and real concurrent requests racing for one slot. The rules are tested in process
// (test/services/platform/slot-reservations.test.ts).
import { describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.ts';
import { loadReference, referenceAvailable } from '../helpers/calcom-reference.ts';
import type { TestServer } from '../helpers/server.ts';
import { fixtures, futureStart, type World, useWorld } from './fixtures.ts';

const VERSION = { 'cal-api-version': '2024-09-04' };
const reference = referenceAvailable ? loadReference() : undefined;
const iso = (ms: number) => new Date(ms).toISOString();
const attendee = (i: number) => ({ name: `Booker ${i}`, email: `booker-${i}@example.com`, timeZone: 'UTC' });

describe.each(backends)('slot reservations on $name', ({ name, available }) => {
  let server: TestServer;
  let w: World;
  let f: ReturnType<typeof fixtures>;
  useWorld(name, available, (started) => ({ server, w, f } = started));

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
