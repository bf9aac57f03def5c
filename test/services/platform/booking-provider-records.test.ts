// What calendars and video services report of a booking (docs/integrating.md#provider-records),
// read through the bookings service (src/platform/bookings/service.ts) as the routes read it, in
// process: a booking's records are reached in its scope only — its host's, or its team's for a
// team booking (docs/rules.md#membership-rules) — and every reader answers another's booking as
// absent. Recording them is tested in test/services/platform/bookings.test.ts; the routes' shapes
// and the CLI's refusals in test/platform/bookings.test.ts ("booking provider records").
import { describe, expect } from 'vitest';
import { book, bookingRecordings, bookingReferences, bookingSessions, bookingTranscripts, recordReference, recordTranscript } from '../../../src/platform/bookings/service.ts';
import type { BookingScope } from '../../../src/platform/bookings/store.ts';
import { it, workday, type PlatformWorld } from './world.ts';

const HOUR = 3_600_000;
/** A booking `hoursIn` hours into the hosts' next working day (workday: a slot of theirs, docs/rules.md#booking-availability). */
const bookOf = async (world: PlatformWorld, eventTypeId: string, hoursIn: number) =>
  (await book(world.ctx, { eventTypeId, start: workday(world) + hoursIn * HOUR, attendee: { name: 'Ana', email: 'ana@example.com', timeZone: 'Europe/Berlin' } })).booking;

const readers = [bookingReferences, bookingRecordings, bookingTranscripts, bookingSessions] as const;

describe('booking provider records', () => {
  it("another user's booking is 404 to every reader, its records out of reach", async ({ world }) => {
    const host = await world.user();
    const stranger = await world.user();
    const booking = await bookOf(world, await world.eventType({ userId: host }), 2);
    await recordTranscript(world.ctx, { bookingUid: booking.uid, url: 'https://video.example.com/t/secret.txt' });
    for (const read of readers) {
      await expect(read(world.ctx, { userId: stranger }, booking.uid), read.name).rejects.toMatchObject({ kind: 'not_found', message: 'no such booking' });
      expect(await read(world.ctx, { userId: host }, booking.uid), read.name).toHaveLength(read === bookingTranscripts ? 1 : 0);
    }
  });

  it("a team booking's references are read in its team's scope; another team's booking is 404 there", async ({ world }) => {
    const owner = await world.user();
    const teamId = await world.team(owner);
    const otherTeam = await world.team(owner);
    const ours = await bookOf(world, await world.eventType({ teamId }), 2);
    const theirs = await bookOf(world, await world.eventType({ teamId: otherTeam }), 3);
    const reference = await recordReference(world.ctx, { bookingUid: ours.uid, type: 'office365_calendar', eventUid: 'o365-1' });
    await recordReference(world.ctx, { bookingUid: theirs.uid, type: 'office365_calendar', eventUid: 'o365-2' });
    const team: BookingScope = { teamId };
    expect(await bookingReferences(world.ctx, team, ours.uid)).toEqual([reference]);
    await expect(bookingReferences(world.ctx, team, theirs.uid)).rejects.toMatchObject({ kind: 'not_found', message: 'no such booking' });
  });
});
