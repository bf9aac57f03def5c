// docs/rules.md#booking-availability, as a property on random data: on a host's random week,
// date overrides, time off, event-type length and notice, and its slot rules
// (docs/integrating.md#slot-rules: interval, buffers, booking window, limits of bookings and of
// minutes, seats, the offset and each date's first slot), with
// bookings already taken and the clock anywhere in the period (a daylight-saving change inside
// it), booking and GET /v2/slots agree. Every slot offered can be booked; once booked, no booked
// time is offered (but a seated slot's own, until full); and any other start is booked exactly
// when it is offered (never when it is not). Through the real services on SQLite :memory:, a
// world of its own per case.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { book } from '../../../src/platform/bookings/service.ts';
import { createEntry } from '../../../src/platform/out-of-office/service.ts';
import { createSchedule } from '../../../src/platform/schedules/service.ts';
import { findFreeSlots } from '../../../src/platform/slots/service.ts';
import { openPlatformWorld } from './world.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
// A week around Europe's spring-forward night (Sunday 31 March 2030).
const PERIOD = { start: Date.parse('2030-03-27T00:00:00Z'), end: Date.parse('2030-04-02T23:59:59.999Z') };
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'];
const attendee = (n: number) => ({ name: `Booker ${n}`, email: `booker-${n}@example.com`, timeZone: 'UTC' });

const hhmm = (quarter: number) => `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;
/** Hours as quarter-hours of the day, start before end. */
const hoursArb = fc.tuple(fc.integer({ min: 0, max: 92 }), fc.integer({ min: 4, max: 40 })).map(([a, len]) => ({ startTime: hhmm(a), endTime: hhmm(Math.min(96, a + len)) }));
const quarterIn = (n: number) => PERIOD.start + n * 15 * MINUTE;
const QUARTERS = Math.floor((PERIOD.end - PERIOD.start) / (15 * MINUTE));

const caseArb = fc.record({
  timeZone: fc.constantFrom(...ZONES),
  weekly: fc.array(fc.record({ days: fc.subarray(DAYS, { minLength: 1 }), hours: hoursArb }), { minLength: 1, maxLength: 2 }),
  overrides: fc.array(fc.record({ day: fc.integer({ min: 0, max: 6 }), hours: fc.option(hoursArb) }), { maxLength: 2 }),
  // One entry at most: the out-of-office service refuses a second that overlaps it.
  away: fc.array(fc.tuple(fc.integer({ min: 0, max: QUARTERS }), fc.integer({ min: 1, max: 16 })), { maxLength: 1 }),
  lengthMinutes: fc.constantFrom(15, 30, 45, 60),
  notice: fc.constantFrom(0, 120),
  slotInterval: fc.constantFrom(null, 15, 30),
  beforeEventBuffer: fc.constantFrom(0, 15),
  afterEventBuffer: fc.constantFrom(0, 30),
  bookingWindow: fc.constantFrom(
    null,
    { type: 'calendarDays' as const, days: 3, rolling: false },
    { type: 'businessDays' as const, days: 2, rolling: true },
    { type: 'range' as const, from: '2030-03-29', to: '2030-03-31' },
  ),
  bookingLimitsCount: fc.constantFrom(null, { day: 2 }, { day: 1, week: 3 }),
  seats: fc.constantFrom(null, { perTimeSlot: 2, showAttendeeInfo: false, showAvailabilityCount: true }),
  bookingLimitsDuration: fc.constantFrom(null, { day: 90 }, { day: 60, week: 120 }),
  onlyShowFirstAvailableSlot: fc.boolean(),
  offsetStart: fc.constantFrom(0, 10),
  nowQuarter: fc.integer({ min: -96, max: QUARTERS }),
  /** Which offered slots are booked first, as fractions of the list. */
  taken: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 3 }),
  /**
   * Starts tried afterwards: a quarter-hour of the period, or (most) near a slot still offered:
   * its start moved by -2 to 2 quarter-hours, where the edges of the rules lie.
   */
  tries: fc.array(fc.oneof(fc.record({ quarter: fc.integer({ min: 0, max: QUARTERS }) }), fc.record({ near: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), by: fc.integer({ min: -2, max: 2 }) })), { minLength: 1, maxLength: 6 }),
});

describe('booking and slots agree, on random data', () => {
  it('every slot offered can be booked, no booked time is offered, and a start not offered is refused', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const world = await openPlatformWorld();
        try {
          const userId = await world.user({ timeZone: c.timeZone });
          await createSchedule(world.ctx, { userId }, { name: 'Hours', timeZone: c.timeZone, availability: c.weekly.map((w) => ({ days: w.days, ...w.hours })) });
          // Overrides through the store: a day off (00:00-00:00) is written as the schedules routes store it.
          const [schedule] = await world.ctx.stores.api.schedules.list({ userId }, 1, 0);
          const overrides = c.overrides.map((o) => ({ date: new Date(PERIOD.start + o.day * DAY).toISOString().slice(0, 10), ...(o.hours ?? { startTime: '00:00', endTime: '00:00' }) }));
          await world.ctx.stores.api.schedules.update(schedule!.id, { overrides, updatedAt: world.now() });
          for (const [q, len] of c.away) await createEntry(world.ctx, userId, { start: new Date(quarterIn(q)).toISOString(), end: new Date(quarterIn(q + len)).toISOString() });
          const eventTypeId = await world.eventType({ userId });
          const { lengthMinutes, notice, slotInterval, beforeEventBuffer, afterEventBuffer, bookingWindow, bookingLimitsCount, seats, bookingLimitsDuration, onlyShowFirstAvailableSlot, offsetStart } = c;
          await world.ctx.stores.api.eventTypes.update(eventTypeId, { lengthMinutes, minimumBookingNotice: notice, slotInterval, beforeEventBuffer, afterEventBuffer, bookingWindow, bookingLimitsCount, seats, bookingLimitsDuration, onlyShowFirstAvailableSlot, offsetStart, updatedAt: world.now() });
          world.advance(quarterIn(c.nowQuarter) - world.now());
          const offered = async () => (await findFreeSlots(world.ctx, { eventType: { id: eventTypeId }, ...PERIOD })).slots;
          let n = 0;

          // Some offered slots are booked first; each offer is bookable.
          for (const pick of c.taken) {
            const slots = await offered();
            if (slots.length === 0) break;
            await book(world.ctx, { eventTypeId, start: slots[Math.floor(pick * slots.length)]!.start, attendee: attendee(n++) });
          }
          // No booked time is offered: but a seated slot's own start, with a seat left.
          const booked = (await world.ctx.stores.bookings.page({ userId }, {}, 100, 0)).bookings;
          const now = await offered();
          for (const s of now) {
            const meeting = booked.filter((b) => b.start < s.end && s.start < b.end);
            if (seats === null) expect(meeting).toEqual([]);
            else expect(meeting.every((b) => b.start === s.start) && meeting.length < seats.perTimeSlot).toBe(true);
          }
          // Any start is booked exactly when it is offered.
          for (const t of c.tries) {
            const slots = await offered();
            const near = 'near' in t ? slots[Math.floor(t.near * slots.length)] : undefined;
            const start = 'quarter' in t ? quarterIn(t.quarter) : near === undefined ? PERIOD.start : near.start + t.by * 15 * MINUTE;
            // A start moved past either end of the period lies outside what was asked for: the
            // slots found say nothing of it (a host's last hours may run on past PERIOD.end).
            if (start < PERIOD.start || start > PERIOD.end) continue;
            const isOffered = slots.some((s) => s.start === start);
            const outcome = await book(world.ctx, { eventTypeId, start, attendee: attendee(n++) }).then(
              () => 'booked',
              (e: { kind?: string }) => e.kind,
            );
            if (isOffered) expect(outcome).toBe('booked');
            else expect(['validation', 'conflict']).toContain(outcome);
          }
          // What is still offered can be booked, the first one after another, and is then offered
          // no more (a seated slot: with one seat more taken, until full).
          for (let i = 0; i < 6; i++) {
            const [first] = await offered();
            if (first === undefined) break;
            await book(world.ctx, { eventTypeId, start: first.start, attendee: attendee(n++) });
            const again = (await offered()).find((s) => s.start === first.start);
            if (seats === null) expect(again).toBeUndefined();
            else if (again !== undefined) expect(again.attendeesCount).toBe((first.attendeesCount ?? 0) + 1);
          }
        } finally {
          await world.close();
        }
      }),
      { numRuns: 20 },
    );
  });
});
