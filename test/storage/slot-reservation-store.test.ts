// The contract of SlotReservationStore (src/platform/slots/reservation-store.ts), on both
// backends (docs/integrating.md#slot-reservations): a hold reads back while it is live and is
// nothing once expired; the live holds of an event type overlapping a time, but the caller's;
// a live hold moves or is released, an expired one neither; and holds go with their event type.
import { describe, expect, it } from 'vitest';
import type { SlotReservation } from '../../src/platform/slots/reservation-store.ts';
import { backends } from '../helpers/backends.ts';
import { seedUser, T0, uniqueId, useServiceStores } from './seed.ts';

const MINUTE = 60_000;

describe.each(backends)('slot reservation store on $name', ({ name, available }) => {
  const suite = useServiceStores(name, available);
  const store = () => suite.stores.api.slotReservations;

  async function eventType(): Promise<string> {
    const id = uniqueId('et');
    const ownerId = await seedUser(suite.database.handle.db);
    await suite.stores.api.eventTypes.insert({ id, ownerId, teamId: null, title: '30 min', slug: id.toLowerCase(), description: '', lengthMinutes: 30, locations: [], bookingFields: [], hidden: false, requiresConfirmation: false, minimumBookingNotice: 0, schedulingType: null, createdAt: T0, updatedAt: T0 });
    return id;
  }

  async function hold(eventTypeId: string, start: number, over: Partial<SlotReservation> = {}): Promise<SlotReservation> {
    const made: SlotReservation = { uid: uniqueId('r'), eventTypeId, start, end: start + 30 * MINUTE, createdAt: T0, expiresAt: T0 + 5 * MINUTE, ...over };
    await store().insert(made);
    return made;
  }

  it.skipIf(!available)('findLive: a hold reads back until it expires, then is undefined, as an unknown uid is', async () => {
    const made = await hold(await eventType(), T0 + 60 * MINUTE);
    expect(await store().findLive(made.uid, T0)).toEqual(made);
    expect(await store().findLive(made.uid, made.expiresAt)).toBeUndefined();
    expect(await store().findLive(uniqueId('r'), T0)).toBeUndefined();
  });

  it.skipIf(!available)("liveOverlapping: the event type's live holds overlapping the time, by start, except the one named; not another event type's, not an expired one", async () => {
    const et = await eventType();
    const at = T0 + 600 * MINUTE;
    const later = await hold(et, at + 30 * MINUTE);
    const first = await hold(et, at);
    await hold(et, at + 60 * MINUTE, { expiresAt: T0 + MINUTE });
    await hold(await eventType(), at);
    expect(await store().liveOverlapping(et, at, at + 120 * MINUTE, T0 + 2 * MINUTE)).toEqual([first, later]);
    expect(await store().liveOverlapping(et, at + 29 * MINUTE, at + 31 * MINUTE, T0, later.uid)).toEqual([first]);
    expect(await store().liveOverlapping(et, at + 30 * MINUTE, at + 31 * MINUTE, T0, later.uid)).toEqual([]);
  });

  it.skipIf(!available)('move and release act on a live hold only; a hold goes with its event type', async () => {
    const et = await eventType();
    const made = await hold(et, T0 + 60 * MINUTE);
    expect(await store().move(made.uid, { start: T0 + 90 * MINUTE, end: T0 + 120 * MINUTE, expiresAt: T0 + 9 * MINUTE }, T0 + MINUTE)).toBe(true);
    expect(await store().findLive(made.uid, T0)).toMatchObject({ start: T0 + 90 * MINUTE, expiresAt: T0 + 9 * MINUTE });
    expect(await store().move(made.uid, { start: T0, end: T0 + 30 * MINUTE, expiresAt: T0 + 20 * MINUTE }, T0 + 9 * MINUTE)).toBe(false);
    expect(await store().release(made.uid, T0 + 9 * MINUTE)).toBe(false);
    expect(await store().release(made.uid, T0)).toBe(true);
    expect(await store().release(made.uid, T0)).toBe(false);
    const kept = await hold(et, T0);
    await suite.stores.api.eventTypes.delete(et);
    expect(await store().findLive(kept.uid, T0)).toBeUndefined();
  });
});
