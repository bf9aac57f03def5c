// The bookings service's reads (src/platform/bookings/service.ts), called in process: what the
// routes read themselves before, now the service's: the event type a request names, a booking
// in the caller's scope (another's is 404), a page with its total and the relations its answers
// show, and a booking's attendees. The booking rules themselves (notice, lengths, hosts,
// manageToken, transitions) are tested over HTTP in test/platform/booking*.test.ts.
import { describe, expect } from 'vitest';
import type { EventTypeOwner } from '../../../src/platform/event-types/store.ts';
import {
  book,
  bookingRecordings,
  bookingReferences,
  bookingTranscripts,
  eventTypeOf,
  findAttendee,
  findBooking,
  listAttendees,
  listBookings,
  recordRecording,
  recordReference,
  recordTranscript,
  shownOne,
} from '../../../src/platform/bookings/service.ts';
import type { PlatformContext } from '../../../src/platform/stores.ts';
import { it, type PlatformWorld } from './world.ts';

/** An event type of the owner, written through its store; returns its id and slug. */
async function eventTypeFor(ctx: PlatformContext, owner: EventTypeOwner): Promise<{ id: string; slug: string }> {
  const id = await ctx.stores.ids.next('event_types');
  const slug = `intro-${id}`;
  await ctx.stores.api.eventTypes.insert({
    id,
    ownerId: 'userId' in owner ? owner.userId : null,
    teamId: 'teamId' in owner ? owner.teamId : null,
    title: 'Intro call',
    slug,
    description: '',
    lengthMinutes: 30,
    locations: [],
    bookingFields: [],
    hidden: false,
    requiresConfirmation: false,
    minimumBookingNotice: 0,
    schedulingType: null,
    createdAt: ctx.clock(),
    updatedAt: ctx.clock(),
  });
  return { id, slug };
}

const HOUR = 3_600_000;
const bookOf = (world: PlatformWorld, eventTypeId: string, hoursAhead: number, email = 'ana@example.com') =>
  book(world.ctx, { eventTypeId, start: world.now() + hoursAhead * HOUR, attendee: { name: 'Ana', email, timeZone: 'Europe/Berlin' } });

describe('bookings', () => {
  it('the event type is named by id, or by slug with exactly one of username and teamSlug; an unknown slug is 404', async ({ world }) => {
    const host = await world.user();
    const { id, slug } = await eventTypeFor(world.ctx, { userId: host });
    expect(await eventTypeOf(world.ctx, { eventTypeId: '42' })).toBe('42');
    expect(await eventTypeOf(world.ctx, { eventTypeSlug: slug, username: `user-${host}` })).toBe(id);
    await expect(eventTypeOf(world.ctx, {})).rejects.toMatchObject({ kind: 'validation', message: 'eventTypeId: is required, or eventTypeSlug with username or teamSlug' });
    await expect(eventTypeOf(world.ctx, { eventTypeSlug: slug })).rejects.toMatchObject({ kind: 'validation', message: 'eventTypeSlug: needs exactly one of username and teamSlug beside it' });
    await expect(eventTypeOf(world.ctx, { eventTypeSlug: slug, username: 'x', teamSlug: 'y' })).rejects.toMatchObject({ kind: 'validation' });
    await expect(eventTypeOf(world.ctx, { eventTypeSlug: 'nope', username: `user-${host}` })).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
  });

  it("a booking is found in its host's or team's scope only; another's is 404", async ({ world }) => {
    const host = await world.user();
    const other = await world.user();
    const teamId = await world.team(host);
    const { booking } = await bookOf(world, (await eventTypeFor(world.ctx, { userId: host })).id, 2);
    const { booking: teamBooking } = await bookOf(world, (await eventTypeFor(world.ctx, { teamId })).id, 3);
    expect(await findBooking(world.ctx, { userId: host }, booking.uid)).toEqual(booking);
    expect(await findBooking(world.ctx, { teamId }, teamBooking.uid)).toEqual(teamBooking);
    await expect(findBooking(world.ctx, { userId: other }, booking.uid)).rejects.toMatchObject({ kind: 'not_found', message: 'no such booking' });
    await expect(findBooking(world.ctx, { teamId }, booking.uid)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('a page holds its total and the relations its answers show: the host, the event type and the attendees', async ({ world }) => {
    const host = await world.user({ name: 'Hana' });
    const et = await eventTypeFor(world.ctx, { userId: host });
    const first = await bookOf(world, et.id, 2);
    const second = await bookOf(world, et.id, 5, 'bo@example.com');
    const page = await listBookings(world.ctx, { userId: host }, {}, 1, 0);
    expect(page.total).toBe(2);
    expect(page.bookings.map((b) => b.uid)).toEqual([first.booking.uid]);
    expect(page.relations.eventTypes.get(et.id)).toMatchObject({ slug: et.slug });
    expect([...page.relations.attendees.keys()]).toEqual([first.booking.uid]);
    const one = await shownOne(world.ctx, second.booking);
    expect(one.bookings).toEqual([second.booking]);
    expect(one.relations.attendees.get(second.booking.uid)?.map((a) => a.email)).toEqual(['bo@example.com']);
  });

  it("a booking's attendees are its host's to read; another's booking and another booking's attendee are 404", async ({ world }) => {
    const host = await world.user();
    const et = await eventTypeFor(world.ctx, { userId: host });
    const { booking } = await bookOf(world, et.id, 2);
    const { booking: otherBooking } = await bookOf(world, et.id, 4, 'bo@example.com');
    const attendees = await listAttendees(world.ctx, host, booking.uid);
    expect(attendees.map((a) => a.email)).toEqual(['ana@example.com']);
    expect(await findAttendee(world.ctx, host, booking.uid, attendees[0]!.id)).toEqual(attendees[0]);
    await expect(listAttendees(world.ctx, await world.user(), booking.uid)).rejects.toMatchObject({ kind: 'not_found', message: 'no such booking' });
    const otherAttendee = (await listAttendees(world.ctx, host, otherBooking.uid))[0]!;
    await expect(findAttendee(world.ctx, host, booking.uid, otherAttendee.id)).rejects.toMatchObject({ kind: 'not_found', message: 'no such attendee' });
  });

  it("what an operator records is the booking's, read in its scope only: an unknown booking, a bad address and a taken provider id are refused", async ({ world }) => {
    const host = await world.user();
    const { booking } = await bookOf(world, (await eventTypeFor(world.ctx, { userId: host })).id, 2);
    await expect(recordReference(world.ctx, { bookingUid: 'no-such-uid', type: 'google_calendar', eventUid: 'g1' })).rejects.toMatchObject({ kind: 'not_found', message: 'no booking has the uid no-such-uid' });
    await expect(recordTranscript(world.ctx, { bookingUid: booking.uid, url: 'ftp://files.example.com/t.txt' })).rejects.toMatchObject({ kind: 'validation', message: expect.stringMatching(/^url: /) });
    const reference = await recordReference(world.ctx, { bookingUid: booking.uid, type: 'google_calendar', eventUid: 'g1', destinationCalendarId: 'primary' });
    expect(reference).toMatchObject({ bookingUid: booking.uid, type: 'google_calendar', eventUid: 'g1', destinationCalendarId: 'primary', createdAt: world.now() });
    await recordReference(world.ctx, { bookingUid: booking.uid, type: 'zoom_video', eventUid: 'z1' });
    expect(await bookingReferences(world.ctx, { userId: host }, booking.uid, 'google_calendar')).toEqual([reference]);
    const recording = await recordRecording(world.ctx, { bookingUid: booking.uid, id: 'rec-1', roomName: 'room', startTs: 1_700_000_000, duration: 60, shareToken: 'share' });
    await expect(recordRecording(world.ctx, { bookingUid: booking.uid, id: 'rec-1', roomName: 'room', startTs: 1_700_000_000, duration: 60, shareToken: 'share' })).rejects.toMatchObject({ kind: 'conflict', message: 'id: a recording of id rec-1 is already recorded' });
    expect(await bookingRecordings(world.ctx, { userId: host }, booking.uid)).toEqual([recording]);
    await recordTranscript(world.ctx, { bookingUid: booking.uid, url: 'https://files.example.com/t.txt' });
    expect(await bookingTranscripts(world.ctx, { userId: host }, booking.uid)).toEqual(['https://files.example.com/t.txt']);
    await expect(bookingReferences(world.ctx, { userId: await world.user() }, booking.uid)).rejects.toMatchObject({ kind: 'not_found', message: 'no such booking' });
  });
});
