// docs/rules.md#booking-availability: a booking, and a reschedule, takes a start GET /v2/slots
// offers, or is refused saying why. Called in process on the world's people, schedules,
// bookings and time off with the clock set to a fixed instant; each test names the reason it
// checks. The HTTP envelope of a refusal and the race of two bookers are in
// test/platform/booking-availability.test.ts.
import { describe, expect } from 'vitest';
import { book, reassignBooking, rescheduleBooking, type NewBooking } from '../../../src/platform/bookings/service.ts';
import { findFreeSlots } from '../../../src/platform/slots/service.ts';
import { createEntry } from '../../../src/platform/out-of-office/service.ts';
import { createSchedule } from '../../../src/platform/schedules/service.ts';
import type { AvailabilityOverride, AvailabilityRange } from '../../../src/platform/schedules/store.ts';
import type { EventTypeChanges } from '../../../src/platform/event-types/store.ts';
import { mondayMorningTeam } from './slot-fixtures.ts';
import { it, type PlatformWorld } from './world.ts';

const at = (iso: string) => Date.parse(iso);
const attendee = { name: 'Ada Booker', email: 'ada@example.com', timeZone: 'Europe/Berlin' };
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
/** The clock of every test: Sunday 6 January 2030, noon UTC. */
const NOW = at('2030-01-06T12:00:00Z');

async function host(world: PlatformWorld, schedule?: { timeZone: string; availability: AvailabilityRange[]; overrides?: AvailabilityOverride[] }, user: { timeZone?: string } = {}) {
  world.advance(NOW - world.now());
  const userId = await world.user(user);
  if (schedule) await createSchedule(world.ctx, { userId }, { name: 'Working hours', ...schedule });
  const eventTypeId = await world.eventType({ userId });
  return { userId, eventTypeId };
}
const change = (world: PlatformWorld, eventTypeId: string, changes: Omit<EventTypeChanges, 'updatedAt'>) => world.ctx.stores.api.eventTypes.update(eventTypeId, { ...changes, updatedAt: world.now() });
const bookAt = (world: PlatformWorld, eventTypeId: string, iso: string, over: Partial<NewBooking> = {}) => book(world.ctx, { eventTypeId, start: at(iso), attendee, ...over });
const SEE = 'GET /v2/slots lists the free times';

describe('booking keeps to availability: each reason a start is refused', () => {
  it('a start in the past: "must be in the future"', async ({ world }) => {
    const { eventTypeId } = await host(world);
    await expect(bookAt(world, eventTypeId, '2030-01-04T10:00:00Z')).rejects.toMatchObject({ kind: 'validation', field: 'start', message: 'start: must be in the future' });
  });

  it('too soon: a start inside the minimum booking notice is refused naming it; the first one after it is booked', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '12:00' }] });
    await change(world, eventTypeId, { minimumBookingNotice: 90 });
    world.advance(at('2030-01-07T08:00:00Z') - world.now());
    await expect(bookAt(world, eventTypeId, '2030-01-07T09:00:00Z')).rejects.toMatchObject({ kind: 'validation', message: 'start: must be at least 90 minutes from now' });
    expect((await bookAt(world, eventTypeId, '2030-01-07T09:30:00Z')).booking.start).toBe(at('2030-01-07T09:30:00Z'));
  });

  it("a day off: a weekend day of Cal.com's default week, in the host's zone", async ({ world }) => {
    const { eventTypeId } = await host(world, undefined, { timeZone: 'America/New_York' });
    // Saturday 12 January 2030, 15:00 in New York.
    await expect(bookAt(world, eventTypeId, '2030-01-12T20:00:00Z')).rejects.toMatchObject({
      kind: 'validation',
      message: `start: 2030-01-12 is a day off for the host (America/New_York); ${SEE}`,
    });
  });

  it('a day off: a date override of 00:00-00:00 on a working weekday', async ({ world }) => {
    const { userId, eventTypeId } = await host(world, { timeZone: 'Europe/Berlin', availability: [{ days: WEEKDAYS, startTime: '09:00', endTime: '17:00' }] });
    const [schedule] = await world.ctx.stores.api.schedules.list({ userId }, 1, 0);
    await world.ctx.stores.api.schedules.update(schedule!.id, { overrides: [{ date: '2030-01-08', startTime: '00:00', endTime: '00:00' }], updatedAt: world.now() });
    await expect(bookAt(world, eventTypeId, '2030-01-08T09:00:00Z')).rejects.toMatchObject({ message: `start: 2030-01-08 is a day off for the host (Europe/Berlin); ${SEE}` });
    expect((await bookAt(world, eventTypeId, '2030-01-09T09:00:00Z')).booking.status).toBe('accepted');
  });

  it("outside working hours: named as the host's wall clock in their schedule's zone", async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'Europe/Berlin', availability: [{ days: WEEKDAYS, startTime: '09:00', endTime: '17:00' }] });
    // 16:45 in Berlin: a 30-minute booking would end after 17:00.
    await expect(bookAt(world, eventTypeId, '2030-01-07T15:45:00Z')).rejects.toMatchObject({ kind: 'validation', message: `start: 2030-01-07 16:45 (Europe/Berlin) is outside the working hours of the host; ${SEE}` });
    await expect(bookAt(world, eventTypeId, '2030-01-07T07:00:00Z')).rejects.toMatchObject({ message: `start: 2030-01-07 08:00 (Europe/Berlin) is outside the working hours of the host; ${SEE}` });
    expect((await bookAt(world, eventTypeId, '2030-01-07T15:30:00Z')).booking.end).toBe(at('2030-01-07T16:00:00Z'));
  });

  it('not on the grid: inside the hours, a start between two slots is refused with the step', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '12:00' }] });
    await expect(bookAt(world, eventTypeId, '2030-01-07T09:10:00Z')).rejects.toMatchObject({
      kind: 'validation',
      message: `start: is not a slot: this event type's slots start every 30 minutes from the start of the working hours; ${SEE}`,
    });
  });

  it('out of office: the host’s time off refuses a start inside it', async ({ world }) => {
    const { userId, eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '12:00' }] });
    await createEntry(world.ctx, userId, { start: '2030-01-07T09:00:00.000Z', end: '2030-01-07T10:00:00.000Z' });
    await expect(bookAt(world, eventTypeId, '2030-01-07T09:30:00Z')).rejects.toMatchObject({ kind: 'validation', message: `start: the host is out of office at that time; ${SEE}` });
  });

  it('booked: a start overlapping an active booking of the host is a conflict (409), as the race’s loser gets', async ({ world }) => {
    const { userId, eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '12:00' }] });
    const other = await world.eventType({ userId });
    await change(world, other, { lengthMinutes: 60 });
    await bookAt(world, other, '2030-01-07T09:00:00Z');
    await expect(bookAt(world, eventTypeId, '2030-01-07T09:30:00Z')).rejects.toMatchObject({ kind: 'conflict', message: 'start: the host is not available at that time' });
  });

  it('a refused booking leaves nothing behind: no booking, no webhook event, no private-link use', async ({ world }) => {
    const { userId, eventTypeId } = await host(world);
    await expect(bookAt(world, eventTypeId, '2030-01-12T10:00:00Z')).rejects.toMatchObject({ kind: 'validation' });
    expect((await world.ctx.stores.bookings.page({ userId }, {}, 10, 0)).total).toBe(0);
  });
});

describe('reschedule keeps to availability', () => {
  it('the new start must be a slot of the booking’s host: a day off is refused, a slot is taken', async ({ world }) => {
    const { eventTypeId } = await host(world);
    const { booking } = await bookAt(world, eventTypeId, '2030-01-07T09:00:00Z');
    await expect(rescheduleBooking(world.ctx, booking.uid, at('2030-01-12T09:00:00Z'), undefined)).rejects.toMatchObject({ kind: 'validation', message: `start: 2030-01-12 is a day off for the host (UTC); ${SEE}` });
    await expect(rescheduleBooking(world.ctx, booking.uid, at('2030-01-07T09:05:00Z'), undefined)).rejects.toMatchObject({ kind: 'validation', message: /^start: is not a slot/ });
    expect((await rescheduleBooking(world.ctx, booking.uid, at('2030-01-08T16:30:00Z'), undefined)).start).toBe(at('2030-01-08T16:30:00Z'));
  });

  it('the booking’s own time counts as free: it may move to a time only it takes, not to another booking’s', async ({ world }) => {
    const { eventTypeId } = await host(world);
    const { booking } = await bookAt(world, eventTypeId, '2030-01-07T09:00:00Z');
    await bookAt(world, eventTypeId, '2030-01-07T09:30:00Z', { attendee: { ...attendee, email: 'bo@example.com' } });
    await expect(rescheduleBooking(world.ctx, booking.uid, at('2030-01-07T09:30:00Z'), undefined)).rejects.toMatchObject({ kind: 'conflict', message: 'start: the host is not available at that time' });
    const same = await rescheduleBooking(world.ctx, booking.uid, at('2030-01-07T09:00:00Z'), 'New agenda');
    expect(same).toMatchObject({ start: at('2030-01-07T09:00:00Z'), rescheduledFrom: booking.uid });
  });

  it('the minimum notice holds for the new start too', async ({ world }) => {
    const { eventTypeId } = await host(world);
    await change(world, eventTypeId, { minimumBookingNotice: 24 * 60 });
    const { booking } = await bookAt(world, eventTypeId, '2030-01-08T09:00:00Z');
    world.advance(at('2030-01-07T12:00:00Z') - world.now());
    await expect(rescheduleBooking(world.ctx, booking.uid, at('2030-01-07T16:00:00Z'), undefined)).rejects.toMatchObject({ message: 'start: must be at least 1440 minutes from now' });
  });
});

describe('team event types keep to their hosts’ availability', () => {
  async function team(world: PlatformWorld) {
    world.advance(NOW - world.now());
    return mondayMorningTeam(world);
  }

  it('collective: a start outside one host’s hours is refused naming them as one of the hosts', async ({ world }) => {
    const { eventTypeId } = await team(world);
    // 08:00Z is 09:00 in Berlin but 08:00 in London.
    await expect(bookAt(world, eventTypeId, '2030-01-07T08:00:00Z')).rejects.toMatchObject({ message: `start: 2030-01-07 08:00 (Europe/London) is outside the working hours of one of the hosts; ${SEE}` });
    expect((await bookAt(world, eventTypeId, '2030-01-07T09:00:00Z')).booking.status).toBe('accepted');
  });

  it("collective: the booking is every member's, so each one's time is taken: their own event types no longer offer it, nor book it; moved, it keeps them all", async ({ world }) => {
    const { berlin, london, eventTypeId } = await team(world);
    const made = await bookAt(world, eventTypeId, '2030-01-07T09:00:00Z');
    expect(made.booking.hostId).toBe(berlin);
    expect(await world.ctx.stores.bookings.coHosts(made.booking.uid)).toEqual([london]);
    const londons = await world.eventType({ userId: london });
    const monday = { start: at('2030-01-07T00:00:00Z'), end: at('2030-01-07T23:59:00Z') };
    const starts = async () => (await findFreeSlots(world.ctx, { eventType: { id: londons }, ...monday })).slots.map((x) => new Date(x.start).toISOString().slice(11, 16));
    expect(await starts()).toEqual(['09:30', '10:00', '10:30']);
    await expect(bookAt(world, londons, '2030-01-07T09:00:00Z')).rejects.toMatchObject({ kind: 'conflict', message: 'start: the host is not available at that time' });
    // Moved to 09:30Z, both members' 09:00 is free again and their 09:30 taken.
    const moved = await rescheduleBooking(world.ctx, made.booking.uid, at('2030-01-07T09:30:00Z'), undefined);
    expect(await world.ctx.stores.bookings.coHosts(moved.uid)).toEqual([london]);
    expect(await starts()).toEqual(['09:00', '10:00', '10:30']);
  });

  it('round robin: the booking goes to a host free at its start, never to one who is not', async ({ world }) => {
    const { berlin, london, eventTypeId } = await team(world);
    await change(world, eventTypeId, { schedulingType: 'roundRobin' });
    // Only Berlin works at 08:00Z, only London at 10:00Z.
    expect((await bookAt(world, eventTypeId, '2030-01-07T08:00:00Z')).booking.hostId).toBe(berlin);
    expect((await bookAt(world, eventTypeId, '2030-01-07T10:00:00Z')).booking.hostId).toBe(london);
    // 09:00Z: both work and each has one upcoming booking: the longer member, Berlin.
    expect((await bookAt(world, eventTypeId, '2030-01-07T09:00:00Z')).booking.hostId).toBe(berlin);
    // 09:00Z again: Berlin is booked, London is free.
    expect((await bookAt(world, eventTypeId, '2030-01-07T09:00:00Z', { attendee: { ...attendee, email: 'bo@example.com' } })).booking.hostId).toBe(london);
    await expect(bookAt(world, eventTypeId, '2030-01-07T09:00:00Z')).rejects.toMatchObject({ kind: 'conflict' });
  });

  it("reassigning: the new member is asked as a booking of them would be (hours, buffers, limits), not only for another booking at that time; then it is theirs", async ({ world }) => {
    const { berlin, london, eventTypeId } = await team(world);
    await change(world, eventTypeId, { schedulingType: 'roundRobin', lengthMinutes: 30, slotInterval: 30, afterEventBuffer: 30 });
    // 09:00Z goes to Berlin, the longer member, and so does 08:00Z, when only Berlin works.
    const nine = await bookAt(world, eventTypeId, '2030-01-07T09:00:00Z');
    const early = await bookAt(world, eventTypeId, '2030-01-07T08:00:00Z');
    expect([early.booking.hostId, nine.booking.hostId]).toEqual([berlin, berlin]);
    // 08:00Z is before London's hours.
    await expect(reassignBooking(world.ctx, berlin, early.booking.uid, london)).rejects.toMatchObject({
      kind: 'validation',
      message: `userId: 2030-01-07 08:00 (Europe/London) is outside the working hours of that member; ${SEE}`,
    });
    // London's own booking at 09:30Z meets no time of 09:00-09:30, but the 30 minutes kept after it.
    const own = await bookAt(world, await world.eventType({ userId: london }), '2030-01-07T09:30:00Z');
    const tooClose = `userId: too close to another booking of that member: the buffers around bookings keep that time free (this event type's: 0 minutes before, 30 after); ${SEE}`;
    await expect(reassignBooking(world.ctx, berlin, nine.booking.uid, london)).rejects.toMatchObject({ kind: 'conflict', message: tooClose });
    await expect(reassignBooking(world.ctx, berlin, nine.booking.uid, undefined)).rejects.toMatchObject({ kind: 'conflict', message: 'no other member of the team is available at the booking time' });
    // Without it, a limit of one booking a day that London has reached.
    await world.ctx.stores.bookings.transition(own.booking.uid, ['accepted'], 'cancelled', { updatedAt: world.now() });
    await change(world, eventTypeId, { bookingLimitsCount: { day: 1 } });
    const londons = await bookAt(world, eventTypeId, '2030-01-07T10:30:00Z');
    expect(londons.booking.hostId).toBe(london);
    await expect(reassignBooking(world.ctx, berlin, nine.booking.uid, london)).rejects.toMatchObject({
      kind: 'conflict',
      message: `userId: the booking limit is reached: that member takes at most 1 booking of this event type a day; ${SEE}`,
    });
    await change(world, eventTypeId, { bookingLimitsCount: null });
    expect((await reassignBooking(world.ctx, berlin, nine.booking.uid, undefined)).hostId).toBe(london);
    expect((await world.ctx.stores.bookings.find(nine.booking.uid))?.hostId).toBe(london);
  });
});

describe("booking keeps to the event type's slot rules (docs/integrating.md#slot-rules): each booked or refused as GET /v2/slots decides", () => {
  const mondayMorning = { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '12:00' }] };

  it('slot interval: a 60-minute event type starts every 30 minutes when it says so; off that grid is refused', async ({ world }) => {
    const { eventTypeId } = await host(world, mondayMorning);
    await change(world, eventTypeId, { lengthMinutes: 60 });
    await expect(bookAt(world, eventTypeId, '2030-01-07T09:30:00Z')).rejects.toMatchObject({ message: /^start: is not a slot: this event type's slots start every 60 minutes/ });
    await change(world, eventTypeId, { slotInterval: 30 });
    expect((await bookAt(world, eventTypeId, '2030-01-07T09:30:00Z')).booking.start).toBe(at('2030-01-07T09:30:00Z'));
    await expect(bookAt(world, eventTypeId, '2030-01-07T09:45:00Z')).rejects.toMatchObject({ message: /slots start every 30 minutes/ });
  });

  it('buffers: a start too close to another booking is refused saying so (409), on either side', async ({ world }) => {
    const { eventTypeId } = await host(world, mondayMorning);
    await change(world, eventTypeId, { lengthMinutes: 30, slotInterval: 30, beforeEventBuffer: 15, afterEventBuffer: 30 });
    await bookAt(world, eventTypeId, '2030-01-07T10:00:00Z');
    // 10:00-10:30 keeps 09:45-11:00 free; a new slot keeps 15 minutes before it and 30 after it free as well.
    const { slots } = await findFreeSlots(world.ctx, { eventType: { id: eventTypeId }, start: at('2030-01-07T00:00:00Z'), end: at('2030-01-07T23:59:00Z') });
    expect(slots.map((x) => new Date(x.start).toISOString().slice(11, 16))).toEqual(['11:30']);
    const tooClose = `start: too close to another booking of the host: the buffers around bookings keep that time free (this event type's: 15 minutes before, 30 after); ${SEE}`;
    await expect(bookAt(world, eventTypeId, '2030-01-07T11:00:00Z')).rejects.toMatchObject({ kind: 'conflict', message: tooClose });
    await expect(bookAt(world, eventTypeId, '2030-01-07T09:00:00Z')).rejects.toMatchObject({ kind: 'conflict', message: tooClose });
    expect((await bookAt(world, eventTypeId, '2030-01-07T11:30:00Z')).booking.start).toBe(at('2030-01-07T11:30:00Z'));
  });

  it('booking window: a start beyond it is refused naming the window; the last date inside it is booked', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: WEEKDAYS, startTime: '09:00', endTime: '12:00' }] });
    // Sunday 6 January: three calendar days are the 6th, 7th and 8th.
    await change(world, eventTypeId, { bookingWindow: { type: 'calendarDays', days: 3, rolling: false } });
    await expect(bookAt(world, eventTypeId, '2030-01-09T09:00:00Z')).rejects.toMatchObject({ kind: 'validation', message: `start: is beyond the booking window (3 calendar days from today); ${SEE}` });
    expect((await bookAt(world, eventTypeId, '2030-01-08T11:00:00Z')).booking.status).toBe('accepted');
    await change(world, eventTypeId, { bookingWindow: { type: 'range', from: '2030-01-10', to: '2030-01-11' } });
    await expect(bookAt(world, eventTypeId, '2030-01-09T09:00:00Z')).rejects.toMatchObject({ message: `start: is before the booking window (from 2030-01-10 to 2030-01-11); ${SEE}` });
    expect((await bookAt(world, eventTypeId, '2030-01-10T09:00:00Z')).booking.status).toBe('accepted');
  });

  it("booking limits: the host's bookings of the event type per day; the next is refused as the limit reached (409), the next day is free, a cancelled one frees its place", async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: WEEKDAYS, startTime: '09:00', endTime: '12:00' }] });
    await change(world, eventTypeId, { bookingLimitsCount: { day: 1, week: 2 } });
    const first = await bookAt(world, eventTypeId, '2030-01-07T09:00:00Z');
    await expect(bookAt(world, eventTypeId, '2030-01-07T11:00:00Z')).rejects.toMatchObject({
      kind: 'conflict',
      message: `start: the booking limit is reached: the host takes at most 1 booking of this event type a day; ${SEE}`,
    });
    await bookAt(world, eventTypeId, '2030-01-08T09:00:00Z');
    await expect(bookAt(world, eventTypeId, '2030-01-09T09:00:00Z')).rejects.toMatchObject({ message: /takes at most 2 bookings of this event type a week \(from Monday\)/ });
    await world.ctx.stores.bookings.transition(first.booking.uid, ['accepted'], 'cancelled', { updatedAt: world.now() });
    expect((await bookAt(world, eventTypeId, '2030-01-09T09:00:00Z')).booking.status).toBe('accepted');
  });

  it("booking limits of minutes: the host's minutes of the event type per day; a booking that would pass them is refused as the limit reached (409), a shorter slot is free", async ({ world }) => {
    const { eventTypeId } = await host(world, mondayMorning);
    await change(world, eventTypeId, { lengthMinutes: 60, slotInterval: 30, bookingLimitsDuration: { day: 90 } });
    await bookAt(world, eventTypeId, '2030-01-07T09:00:00Z');
    const { slots } = await findFreeSlots(world.ctx, { eventType: { id: eventTypeId }, start: at('2030-01-07T00:00:00Z'), end: at('2030-01-07T23:59:00Z') });
    expect(slots).toEqual([]);
    await expect(bookAt(world, eventTypeId, '2030-01-07T10:00:00Z')).rejects.toMatchObject({
      kind: 'conflict',
      message: `start: the booking limit is reached: the host takes at most 90 minutes of bookings of this event type a day (60 are booked); ${SEE}`,
    });
    await change(world, eventTypeId, { lengthMinutes: 30 });
    expect((await bookAt(world, eventTypeId, '2030-01-07T10:00:00Z')).booking.status).toBe('accepted');
  });

  it('offset start and only the first slot of each day: GET /v2/slots and a booking agree on the shifted first free start', async ({ world }) => {
    const { eventTypeId } = await host(world, mondayMorning);
    await change(world, eventTypeId, { lengthMinutes: 30, slotInterval: 30, offsetStart: 15, onlyShowFirstAvailableSlot: true });
    const monday = { eventType: { id: eventTypeId }, start: at('2030-01-07T00:00:00Z'), end: at('2030-01-07T23:59:00Z') };
    expect((await findFreeSlots(world.ctx, monday)).slots.map((x) => new Date(x.start).toISOString().slice(11, 16))).toEqual(['09:15']);
    await expect(bookAt(world, eventTypeId, '2030-01-07T09:00:00Z')).rejects.toMatchObject({ kind: 'validation', message: /^start: is not a slot: this event type's slots start every 30 minutes from 15 minutes after the start of the working hours/ });
    await expect(bookAt(world, eventTypeId, '2030-01-07T10:15:00Z')).rejects.toMatchObject({
      kind: 'validation',
      message: `start: is not offered: this event type offers only the first free slot of each day, 2030-01-07 09:15 (UTC) for that day; ${SEE}`,
    });
    await bookAt(world, eventTypeId, '2030-01-07T09:15:00Z');
    // Booked, the next free start is the day's first.
    expect((await findFreeSlots(world.ctx, monday)).slots.map((x) => new Date(x.start).toISOString().slice(11, 16))).toEqual(['09:45']);
    expect((await bookAt(world, eventTypeId, '2030-01-07T09:45:00Z')).booking.status).toBe('accepted');
  });

  it('seats: bookers share a seated slot up to its seats, each their own booking with the host; GET /v2/slots shows the seats taken; then it is full', async ({ world }) => {
    const { userId, eventTypeId } = await host(world, mondayMorning);
    await change(world, eventTypeId, { lengthMinutes: 60, seats: { perTimeSlot: 2, showAttendeeInfo: false, showAvailabilityCount: true } });
    const first = await bookAt(world, eventTypeId, '2030-01-07T10:00:00Z');
    const { slots } = await findFreeSlots(world.ctx, { eventType: { id: eventTypeId }, start: at('2030-01-07T10:00:00Z'), end: at('2030-01-07T10:00:00Z') });
    expect(slots).toEqual([{ start: at('2030-01-07T10:00:00Z'), end: at('2030-01-07T11:00:00Z'), hostIds: [userId], attendeesCount: 1, bookingUid: first.booking.uid }]);
    const second = await bookAt(world, eventTypeId, '2030-01-07T10:00:00Z', { attendee: { ...attendee, email: 'bo@example.com' } });
    expect(second.booking).toMatchObject({ hostId: userId, start: at('2030-01-07T10:00:00Z'), attendee: { email: 'bo@example.com' } });
    await expect(bookAt(world, eventTypeId, '2030-01-07T10:00:00Z', { attendee: { ...attendee, email: 'cy@example.com' } })).rejects.toMatchObject({ kind: 'conflict', message: `start: the slot is full: its 2 seats are taken; ${SEE}` });
    // Another start over the seated slot's time is the host's busy time.
    await change(world, eventTypeId, { slotInterval: 30 });
    await expect(bookAt(world, eventTypeId, '2030-01-07T10:30:00Z')).rejects.toMatchObject({ kind: 'conflict', message: 'start: the host is not available at that time' });
  });
});

