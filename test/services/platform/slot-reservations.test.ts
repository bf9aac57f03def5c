// docs/integrating.md#slot-reservations: a slot held for a few minutes is offered to nobody
// else and booked only with its uid; it frees itself when it expires, and retention deletes
// it. Called in process on the world's people with the clock set to a fixed instant.
import { describe, expect } from 'vitest';
import { book } from '../../../src/platform/bookings/service.ts';
import { findFreeSlots } from '../../../src/platform/slots/service.ts';
import { findReservation, moveReservation, releaseReservation, reserveSlot } from '../../../src/platform/slots/reservations.ts';
import { pruneEnded } from '../../../src/services/retention/prune.ts';
import { it, type PlatformWorld } from './world.ts';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;
const attendee = (email: string) => ({ name: 'Ada Booker', email, timeZone: 'UTC' });
const MONDAY = { start: at('2030-01-07T00:00:00Z'), end: at('2030-01-07T23:59:59.999Z') };
const NINE = at('2030-01-07T09:00:00Z');

/** A host with Cal.com's default week in UTC and a 30-minute event type; the clock on Sunday 6 January 2030. */
async function host(world: PlatformWorld) {
  world.advance(at('2030-01-06T12:00:00Z') - world.now());
  const userId = await world.user();
  return { userId, eventTypeId: await world.eventType({ userId }) };
}
const offered = async (world: PlatformWorld, eventTypeId: string) => (await findFreeSlots(world.ctx, { eventType: { id: eventTypeId }, ...MONDAY })).slots.map((s) => s.start);

describe('slot reservations', () => {
  it('a held slot is not offered to others, and is booked only with its uid; the booking ends the hold', async ({ world }) => {
    const { eventTypeId } = await host(world);
    const held = await reserveSlot(world.ctx, { eventTypeId, slotStart: NINE, authenticated: false });
    expect(held).toMatchObject({ eventTypeId, start: NINE, end: NINE + 30 * MINUTE, expiresAt: world.now() + 5 * MINUTE });
    expect(await offered(world, eventTypeId)).not.toContain(NINE);
    await expect(book(world.ctx, { eventTypeId, start: NINE, attendee: attendee('other@example.com') })).rejects.toMatchObject({
      kind: 'conflict',
      message: 'start: another booker holds this slot for a few minutes (a reservation); choose another slot, or try again when the hold ends',
    });
    const { booking } = await book(world.ctx, { eventTypeId, start: NINE, attendee: attendee('holder@example.com'), reservationUid: held.uid });
    expect(booking.start).toBe(NINE);
    await expect(findReservation(world.ctx, held.uid)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('a hold frees itself when it expires: offered and bookable again, unknown by its uid, and deleted by retention', async ({ world }) => {
    const { eventTypeId } = await host(world);
    const held = await reserveSlot(world.ctx, { eventTypeId, slotStart: NINE, authenticated: false });
    world.advance(5 * MINUTE);
    expect(await offered(world, eventTypeId)).toContain(NINE);
    await expect(findReservation(world.ctx, held.uid)).rejects.toMatchObject({ kind: 'not_found', message: 'no such reservation (unknown, released or expired)' });
    world.advance(MINUTE);
    const counts = await pruneEnded(world.ctx, { replayWindowSeconds: 60, auditRetentionDays: 365 });
    expect(counts.slotReservations).toBe(1);
    expect((await book(world.ctx, { eventTypeId, start: NINE, attendee: attendee('late@example.com') })).booking.start).toBe(NINE);
  });

  it('only a slot GET /v2/slots offers is held: a day off, another’s hold, or a booked time is refused naming slotStart', async ({ world }) => {
    const { eventTypeId } = await host(world);
    await expect(reserveSlot(world.ctx, { eventTypeId, slotStart: at('2030-01-12T09:00:00Z'), authenticated: false })).rejects.toMatchObject({ kind: 'validation', field: 'slotStart', message: /^slotStart: 2030-01-12 is a day off for the host/ });
    await reserveSlot(world.ctx, { eventTypeId, slotStart: NINE, authenticated: false });
    await expect(reserveSlot(world.ctx, { eventTypeId, slotStart: NINE, authenticated: false })).rejects.toMatchObject({ kind: 'conflict', message: /^slotStart: another booker holds this slot/ });
    await book(world.ctx, { eventTypeId, start: NINE + 30 * MINUTE, attendee: attendee('bo@example.com') });
    await expect(reserveSlot(world.ctx, { eventTypeId, slotStart: NINE + 30 * MINUTE, authenticated: false })).rejects.toMatchObject({ kind: 'conflict', message: 'slotStart: the host is not available at that time' });
  });

  it('reservationDuration: 5 minutes by default; chosen only with a token, up to 10', async ({ world }) => {
    const { eventTypeId } = await host(world);
    await expect(reserveSlot(world.ctx, { eventTypeId, slotStart: NINE, reservationDuration: 8, authenticated: false })).rejects.toMatchObject({ kind: 'validation', field: 'reservationDuration' });
    await expect(reserveSlot(world.ctx, { eventTypeId, slotStart: NINE, reservationDuration: 11, authenticated: true })).rejects.toMatchObject({ message: 'reservationDuration: at most 10 minutes' });
    const held = await reserveSlot(world.ctx, { eventTypeId, slotStart: NINE, reservationDuration: 8, authenticated: true });
    expect(held.expiresAt).toBe(world.now() + 8 * MINUTE);
  });

  it('a hold moves to another free slot, held afresh, and gives its old slot back; released, it holds nothing', async ({ world }) => {
    const { eventTypeId } = await host(world);
    const held = await reserveSlot(world.ctx, { eventTypeId, slotStart: NINE, authenticated: false });
    world.advance(3 * MINUTE);
    const moved = await moveReservation(world.ctx, held.uid, { eventTypeId, slotStart: NINE + 60 * MINUTE, authenticated: false });
    expect(moved).toMatchObject({ uid: held.uid, start: NINE + 60 * MINUTE, expiresAt: world.now() + 5 * MINUTE });
    expect(await offered(world, eventTypeId)).toContain(NINE);
    expect(await offered(world, eventTypeId)).not.toContain(NINE + 60 * MINUTE);
    await releaseReservation(world.ctx, held.uid);
    expect(await offered(world, eventTypeId)).toContain(NINE + 60 * MINUTE);
    await expect(releaseReservation(world.ctx, held.uid)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('a hidden or unknown event type is not found, as on GET /v2/slots', async ({ world }) => {
    const { eventTypeId } = await host(world);
    await world.ctx.stores.api.eventTypes.update(eventTypeId, { hidden: true, updatedAt: world.now() });
    await expect(reserveSlot(world.ctx, { eventTypeId, slotStart: NINE, authenticated: false })).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
    await expect(reserveSlot(world.ctx, { eventTypeId: '999999', slotStart: NINE, authenticated: false })).rejects.toMatchObject({ kind: 'not_found' });
  });
});
