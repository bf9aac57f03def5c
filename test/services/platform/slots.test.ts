// The slots service's rules (src/platform/slots/service.ts, docs/integrating.md#slots), called
// in process on the world's people, schedules, bookings and time off: each test names the rule
// it checks. The rules the event type holds no field for yet (buffers, slot interval, booking
// window) are checked on the computation itself in slots-rules.test.ts.
import { describe, expect } from 'vitest';
import { book, cancelBooking } from '../../../src/platform/bookings/service.ts';
import { createEntry } from '../../../src/platform/out-of-office/service.ts';
import { createSchedule } from '../../../src/platform/schedules/service.ts';
import type { AvailabilityOverride, AvailabilityRange } from '../../../src/platform/schedules/store.ts';
import { findFreeSlots, type FreeSlots, type SlotQuery } from '../../../src/platform/slots/service.ts';
import type { EventTypeChanges } from '../../../src/platform/event-types/store.ts';
import { mondayMorningTeam } from './slot-fixtures.ts';
import { it, type PlatformWorld } from './world.ts';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const EVERY_DAY = [...WEEKDAYS, 'Saturday', 'Sunday'];

/** The slots' starts as UTC date-times, to the minute. */
const starts = (found: FreeSlots) => found.slots.map((s) => new Date(s.start).toISOString().slice(0, 16));
/** [from, to] as the route reads two dates in UTC: the first day's start to the last day's last instant. */
const days = (from: string, to = from) => ({ start: Date.parse(`${from}T00:00:00Z`), end: Date.parse(`${to}T23:59:59.999Z`) });
const at = (iso: string) => Date.parse(iso);

/** A host, their default schedule when given one, and a 30-minute event type of theirs. */
async function host(world: PlatformWorld, schedule?: { timeZone: string; availability: AvailabilityRange[]; overrides?: AvailabilityOverride[] }, user: { timeZone?: string } = {}) {
  const userId = await world.user(user);
  if (schedule) await createSchedule(world.ctx, { userId }, { name: 'Working hours', ...schedule });
  const eventTypeId = await world.eventType({ userId });
  return { userId, eventTypeId };
}

const slotsOf = (world: PlatformWorld, eventTypeId: string, period: { start: number; end: number }, extra: Partial<SlotQuery> = {}) =>
  findFreeSlots(world.ctx, { eventType: { id: eventTypeId }, ...period, ...extra });

const change = (world: PlatformWorld, eventTypeId: string, changes: Omit<EventTypeChanges, 'updatedAt'>) => world.ctx.stores.api.eventTypes.update(eventTypeId, { ...changes, updatedAt: world.now() });

const attendee = { name: 'Ada Booker', email: 'ada@example.com', timeZone: 'Europe/Berlin' };

describe('slots: working hours', () => {
  it("default week: a host with no schedule offers Monday to Friday, 09:00-17:00 in the host's own zone", async ({ world }) => {
    const { eventTypeId } = await host(world, undefined, { timeZone: 'America/New_York' });
    // Monday 7 January 2030 in New York (UTC-5): 14:00Z to 22:00Z, a 30-minute slot every 30 minutes.
    const monday = await slotsOf(world, eventTypeId, days('2030-01-07'));
    expect(starts(monday)).toHaveLength(16);
    expect(starts(monday)[0]).toBe('2030-01-07T14:00');
    expect(starts(monday).at(-1)).toBe('2030-01-07T21:30');
    expect(monday.slots[0]!.end - monday.slots[0]!.start).toBe(30 * 60_000);
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-05', '2030-01-06')))).toEqual([]);
  });

  it("schedule hours: the default schedule's hours are read in the schedule's zone, not the host's", async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'Europe/Berlin', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '11:00' }] }, { timeZone: 'America/New_York' });
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07', '2030-01-08')))).toEqual(['2030-01-07T08:00', '2030-01-07T08:30', '2030-01-07T09:00', '2030-01-07T09:30']);
  });

  it('a slot fits inside the hours: none starts where the length would run past their end', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '10:15' }] });
    await change(world, eventTypeId, { lengthMinutes: 45 });
    const found = await slotsOf(world, eventTypeId, days('2030-01-07'));
    // The starts step by the length (no slot interval of its own): 09:00 and 09:45 would end at 10:30.
    expect(starts(found)).toEqual(['2030-01-07T09:00']);
    expect(found.lengthMinutes).toBe(45);
  });

  it('daylight saving in Europe/Berlin: 09:00 stays 09:00 on the wall clock across both changes of 2030', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'Europe/Berlin', availability: [{ days: EVERY_DAY, startTime: '09:00', endTime: '10:00' }] });
    // Clocks go forward on Sunday 31 March (CET +01:00 to CEST +02:00) and back on Sunday 27 October.
    expect(starts(await slotsOf(world, eventTypeId, days('2030-03-30', '2030-04-01')))).toEqual([
      '2030-03-30T08:00', '2030-03-30T08:30',
      '2030-03-31T07:00', '2030-03-31T07:30',
      '2030-04-01T07:00', '2030-04-01T07:30',
    ]);
    expect(starts(await slotsOf(world, eventTypeId, days('2030-10-26', '2030-10-27')))).toEqual(['2030-10-26T07:00', '2030-10-26T07:30', '2030-10-27T08:00', '2030-10-27T08:30']);
  });

  it('daylight saving in America/New_York: 09:00 stays 09:00 on the wall clock across both changes of 2030', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'America/New_York', availability: [{ days: EVERY_DAY, startTime: '09:00', endTime: '09:30' }] });
    // Clocks go forward on Sunday 10 March (EST -05:00 to EDT -04:00) and back on Sunday 3 November.
    expect(starts(await slotsOf(world, eventTypeId, days('2030-03-09', '2030-03-10')))).toEqual(['2030-03-09T14:00', '2030-03-10T13:00']);
    expect(starts(await slotsOf(world, eventTypeId, days('2030-11-02', '2030-11-03')))).toEqual(['2030-11-02T13:00', '2030-11-03T14:00']);
  });

  it('daylight saving: hours across the skipped hour of the spring-forward night are one hour shorter', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'Europe/Berlin', availability: [{ days: ['Sunday'], startTime: '01:00', endTime: '04:00' }] });
    await change(world, eventTypeId, { lengthMinutes: 60 });
    // 01:00 CET is 00:00Z and 04:00 CEST is 02:00Z: two hours of time, two one-hour slots.
    expect(starts(await slotsOf(world, eventTypeId, days('2030-03-31')))).toEqual(['2030-03-31T00:00', '2030-03-31T01:00']);
  });
});

describe('slots: date overrides', () => {
  it("an override replaces its date's weekly hours, in the schedule's zone", async ({ world }) => {
    const { eventTypeId } = await host(world, {
      timeZone: 'Europe/Berlin',
      availability: [{ days: WEEKDAYS, startTime: '09:00', endTime: '10:00' }],
      overrides: [{ date: '2030-01-08', startTime: '14:00', endTime: '15:00' }, { date: '2030-01-12', startTime: '10:00', endTime: '10:30' }],
    });
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07', '2030-01-12')))).toEqual([
      '2030-01-07T08:00', '2030-01-07T08:30',
      '2030-01-08T13:00', '2030-01-08T13:30',
      '2030-01-09T08:00', '2030-01-09T08:30',
      '2030-01-10T08:00', '2030-01-10T08:30',
      '2030-01-11T08:00', '2030-01-11T08:30',
      // A Saturday the weekly hours leave free, worked by override.
      '2030-01-12T09:00',
    ]);
  });

  it('an override of 00:00-00:00 is a day off', async ({ world }) => {
    const { userId, eventTypeId } = await host(world, { timeZone: 'Europe/Berlin', availability: [{ days: WEEKDAYS, startTime: '09:00', endTime: '10:00' }] });
    // Written through the store: the schedules routes are being taught to accept this input
    // (docs/integrating.md#slots); what they store is this.
    const [schedule] = await world.ctx.stores.api.schedules.list({ userId }, 1, 0);
    await world.ctx.stores.api.schedules.update(schedule!.id, { overrides: [{ date: '2030-01-08', startTime: '00:00', endTime: '00:00' }], updatedAt: world.now() });
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07', '2030-01-09')))).toEqual(['2030-01-07T08:00', '2030-01-07T08:30', '2030-01-09T08:00', '2030-01-09T08:30']);
  });
});

describe('slots: what takes the host’s time', () => {
  it('accepted and pending bookings take their time; a cancelled one gives it back', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '11:00' }] });
    const accepted = await book(world.ctx, { eventTypeId, start: at('2030-01-07T09:00:00Z'), attendee });
    await change(world, eventTypeId, { requiresConfirmation: true });
    const pending = await book(world.ctx, { eventTypeId, start: at('2030-01-07T10:00:00Z'), attendee });
    expect(pending.booking.status).toBe('pending');
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07')))).toEqual(['2030-01-07T09:30', '2030-01-07T10:30']);
    await cancelBooking(world.ctx, accepted.booking.uid, 'Plans changed');
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07')))).toEqual(['2030-01-07T09:00', '2030-01-07T09:30', '2030-01-07T10:30']);
  });

  it("a booking of the host's other event type takes their time too, and a slot overlapping it in part is not offered", async ({ world }) => {
    const { userId, eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '11:00' }] });
    const other = await world.eventType({ userId });
    await change(world, other, { lengthMinutes: 20 });
    await book(world.ctx, { eventTypeId: other, start: at('2030-01-07T09:40:00Z'), attendee });
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07')))).toEqual(['2030-01-07T09:00', '2030-01-07T10:00', '2030-01-07T10:30']);
  });

  it('a slot offered can be booked, and once booked is offered no more', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'Europe/Berlin', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '10:30' }] });
    const before = await slotsOf(world, eventTypeId, days('2030-01-07'));
    for (const slot of before.slots) await book(world.ctx, { eventTypeId, start: slot.start, attendee });
    expect(before.slots).toHaveLength(3);
    expect((await slotsOf(world, eventTypeId, days('2030-01-07'))).slots).toEqual([]);
  });

  it('bookingUidToReschedule: the booking being moved does not take its own time', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '10:00' }] });
    const { booking } = await book(world.ctx, { eventTypeId, start: at('2030-01-07T09:00:00Z'), attendee });
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07')))).toEqual(['2030-01-07T09:30']);
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07'), { bookingUidToReschedule: booking.uid }))).toEqual(['2030-01-07T09:00', '2030-01-07T09:30']);
    // An unknown uid frees nothing.
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07'), { bookingUidToReschedule: 'no-such-booking' }))).toEqual(['2030-01-07T09:30']);
  });

  it("out of office: the host's entries take their time, to the minute", async ({ world }) => {
    const { userId, eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: WEEKDAYS, startTime: '09:00', endTime: '10:00' }] });
    await createEntry(world.ctx, userId, { start: '2030-01-07T00:00:00.000Z', end: '2030-01-09T00:00:00.000Z', reason: 'vacation' });
    await createEntry(world.ctx, userId, { start: '2030-01-09T09:15:00.000Z', end: '2030-01-09T09:30:00.000Z' });
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07', '2030-01-09')))).toEqual(['2030-01-09T09:30']);
  });
});

describe("slots: the event type's rules", () => {
  it('minimum booking notice: no slot starts sooner than the notice from now', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '12:00' }] });
    await change(world, eventTypeId, { minimumBookingNotice: 90 });
    world.advance(at('2030-01-07T08:00:00Z') - world.now());
    // 08:00 + 90 minutes: 09:30 is the first start allowed.
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07')))[0]).toBe('2030-01-07T09:30');
  });

  it('nothing in the past is offered, whatever the period asked', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '11:00' }] });
    world.advance(at('2030-01-07T10:10:00Z') - world.now());
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07')))).toEqual(['2030-01-07T10:30']);
  });

  it('the period: only starts in [start, end] are offered', async ({ world }) => {
    const { eventTypeId } = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '12:00' }] });
    expect(starts(await slotsOf(world, eventTypeId, { start: at('2030-01-07T09:30:00Z'), end: at('2030-01-07T10:30:00Z') }))).toEqual(['2030-01-07T09:30', '2030-01-07T10:00', '2030-01-07T10:30']);
  });

  it('duration: the event type offers its one length; another is refused naming the parameter', async ({ world }) => {
    const { eventTypeId } = await host(world);
    expect((await slotsOf(world, eventTypeId, days('2030-01-07'), { durationMinutes: 30 })).slots).toHaveLength(16);
    await expect(slotsOf(world, eventTypeId, days('2030-01-07'), { durationMinutes: 60 })).rejects.toMatchObject({
      kind: 'validation',
      message: 'duration: this event type lasts 30 minutes and offers no other length',
    });
  });

  it('a period that ends before it starts, or spans more than 92 days, is refused naming end', async ({ world }) => {
    const { eventTypeId } = await host(world);
    await expect(slotsOf(world, eventTypeId, { start: at('2030-01-08T00:00:00Z'), end: at('2030-01-07T00:00:00Z') })).rejects.toMatchObject({ kind: 'validation', message: 'end: must not be before start' });
    await expect(slotsOf(world, eventTypeId, { start: at('2030-01-01T00:00:00Z'), end: at('2030-04-04T00:00:00Z') })).rejects.toMatchObject({ kind: 'validation', message: 'end: at most 92 days after start' });
  });

  it('which event type: by id, or by slug with the username or the team slug; a hidden or unknown one is not found', async ({ world }) => {
    const { userId, eventTypeId } = await host(world);
    const user = await world.ctx.stores.users.findById(userId);
    const [et] = await world.ctx.stores.api.eventTypes.list({ userId }, 1, 0);
    const bySlug = await findFreeSlots(world.ctx, { eventType: { slug: et!.slug, username: user!.username }, ...days('2030-01-07') });
    expect(bySlug.slots).toHaveLength(16);
    await expect(findFreeSlots(world.ctx, { eventType: { slug: et!.slug, username: user!.username, organizationSlug: 'elsewhere' }, ...days('2030-01-07') })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(findFreeSlots(world.ctx, { eventType: { id: '999999' }, ...days('2030-01-07') })).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
    await change(world, eventTypeId, { hidden: true });
    await expect(slotsOf(world, eventTypeId, days('2030-01-07'))).rejects.toMatchObject({ kind: 'not_found', message: 'no such event type' });
  });
});

describe('slots: team event types', () => {
  const team = mondayMorningTeam;

  it('collective: a slot is offered only when every host is free, and names them all', async ({ world }) => {
    const { berlin, london, eventTypeId } = await team(world);
    const found = await slotsOf(world, eventTypeId, days('2030-01-07'));
    expect(starts(found)).toEqual(['2030-01-07T09:00', '2030-01-07T09:30']);
    expect(found.slots.every((s) => s.hostIds.length === 2 && s.hostIds.includes(berlin) && s.hostIds.includes(london))).toBe(true);
    await createEntry(world.ctx, london, { start: '2030-01-07T09:00:00.000Z', end: '2030-01-07T09:30:00.000Z' });
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07')))).toEqual(['2030-01-07T09:30']);
  });

  it('round robin: a slot is offered when any host is free, naming who could take it', async ({ world }) => {
    const { berlin, london, eventTypeId } = await team(world);
    await change(world, eventTypeId, { schedulingType: 'roundRobin' });
    await createEntry(world.ctx, london, { start: '2030-01-07T09:00:00.000Z', end: '2030-01-07T09:30:00.000Z' });
    const found = await slotsOf(world, eventTypeId, days('2030-01-07'));
    expect(found.slots.map((s) => [new Date(s.start).toISOString().slice(11, 16), s.hostIds])).toEqual([
      ['08:00', [berlin]],
      ['08:30', [berlin]],
      ['09:00', [berlin]],
      ['09:30', [berlin, london]],
      ['10:00', [london]],
      ['10:30', [london]],
    ]);
  });

  it("a team member's booking elsewhere takes their time for the team too", async ({ world }) => {
    const { berlin, eventTypeId } = await team(world);
    const own = await world.eventType({ userId: berlin });
    await book(world.ctx, { eventTypeId: own, start: at('2030-01-07T09:30:00Z'), attendee });
    expect(starts(await slotsOf(world, eventTypeId, days('2030-01-07')))).toEqual(['2030-01-07T09:00']);
  });
});

describe('slots: dynamic groups (docs/integrating.md#dynamic-groups)', () => {
  const group = (world: PlatformWorld, usernames: string[], period: { start: number; end: number }, extra: Partial<SlotQuery> = {}) => findFreeSlots(world.ctx, { eventType: { usernames }, ...period, ...extra });
  const username = async (world: PlatformWorld, userId: string) => (await world.ctx.stores.users.findById(userId))!.username;

  it('two people who publish their time: slots of 30 minutes (or the duration asked) when both are free, their bookings of any event type kept clear', async ({ world }) => {
    world.advance(at('2030-01-01T00:00:00Z') - world.now());
    const ada = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '09:00', endTime: '12:00' }] });
    const bob = await host(world, { timeZone: 'UTC', availability: [{ days: ['Monday'], startTime: '10:00', endTime: '13:00' }] });
    const names = [await username(world, ada.userId), await username(world, bob.userId)];
    expect(starts(await group(world, names, days('2030-01-07')))).toEqual(['2030-01-07T10:00', '2030-01-07T10:30', '2030-01-07T11:00', '2030-01-07T11:30']);
    await book(world.ctx, { eventTypeId: bob.eventTypeId, start: at('2030-01-07T10:30:00Z'), attendee });
    const hour = await group(world, names, days('2030-01-07'), { durationMinutes: 60 });
    expect(hour.lengthMinutes).toBe(60);
    expect(starts(hour)).toEqual(['2030-01-07T11:00']);
  });

  it('a username of someone who publishes no time (no personal event type, or only hidden ones) is as unknown as a missing one; one name is not a group', async ({ world }) => {
    const ada = await host(world);
    const quiet = await world.user();
    const names = [await username(world, ada.userId), await username(world, quiet)];
    await expect(group(world, names, days('2030-01-07'))).rejects.toMatchObject({ kind: 'not_found', message: `no such user "${names[1]}"` });
    const hidden = await world.eventType({ userId: quiet });
    await change(world, hidden, { hidden: true });
    await expect(group(world, names, days('2030-01-07'))).rejects.toMatchObject({ kind: 'not_found' });
    await expect(group(world, [names[0]!, names[0]!], days('2030-01-07'))).rejects.toMatchObject({ kind: 'validation', message: 'usernames: at least 2 usernames, separated by commas, such as alice,bob' });
  });
});

