// The rules of the slot computation an event type sets (src/platform/slots/compute.ts and
// window.ts, docs/integrating.md#slot-rules), checked on the pure functions with fixed instants:
// the slot interval, buffers before and after, the booking window (calendar and business days,
// fixed and rolling, a range), the limits a host takes, and seats; with the refusal a booking
// of a start left out gets (checkStart). The rules read from the world's data are in
// slots.test.ts; booking through them in booking-availability.test.ts.
import { describe, expect, it } from 'vitest';
import { checkStart, freeSlots, type HostAvailability, type HostBooking, type SlotRules } from '../../../src/platform/slots/compute.ts';
import { windowRule } from '../../../src/platform/slots/window.ts';

const at = (iso: string) => Date.parse(iso);
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const NOW = at('2030-01-01T00:00:00Z');
const MONDAY = { start: at('2030-01-07T00:00:00Z'), end: at('2030-01-07T23:59:59.999Z') };
const ET = 'et1';

/** A host working Mondays (or the days given) 09:00-12:00 UTC, with these bookings on Monday 7 January. */
const host = (bookings: Array<[string, string] | HostBooking> = [], days = ['Monday'], hostId = 'h1'): HostAvailability => ({
  hostId,
  timeZone: 'UTC',
  weeklyHours: [{ days, startTime: '09:00', endTime: '12:00' }],
  overrides: [],
  bookings: bookings.map((b) => (Array.isArray(b) ? { start: at(`2030-01-07T${b[0]}:00Z`), end: at(`2030-01-07T${b[1]}:00Z`) } : b)),
  away: [],
});
const rules = (over: Partial<SlotRules> = {}): SlotRules => ({ lengthMinutes: 60, intervalMinutes: 60, minimumNoticeMinutes: 0, beforeBufferMinutes: 0, afterBufferMinutes: 0, window: null, eventTypeId: ET, ...over });
const startsOf = (h: HostAvailability, r: SlotRules, period = MONDAY, now = NOW) => freeSlots([h], r, period, now, 'all').map((s) => hhmm(s.start));
const datesOf = (hosts: HostAvailability[], r: SlotRules, period: { start: number; end: number }, now: number) => [...new Set(freeSlots(hosts, r, period, now, 'all').map((s) => dateOf(s.start)))];
/** A booking of the event type (or another's) on a date at HH:MM, an hour long. */
const booked = (date: string, time: string, eventTypeId: string | null = ET, uid = `b-${date}-${time}`): HostBooking => ({ start: at(`${date}T${time}:00Z`), end: at(`${date}T${time}:00Z`) + 3_600_000, eventTypeId, uid });

describe('slot rules', () => {
  it('slot interval: starts step by the interval, not the length', () => {
    expect(startsOf(host(), rules({ intervalMinutes: 30 }))).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
    expect(startsOf(host(), rules())).toEqual(['09:00', '10:00', '11:00']);
  });

  it('buffer before: a slot needs that much free time before it; a booking in it is refused as too close to another booking', () => {
    const busy = host([['09:00', '09:30']]);
    expect(startsOf(busy, rules({ intervalMinutes: 30 }))).toEqual(['09:30', '10:00', '10:30', '11:00']);
    expect(startsOf(busy, rules({ intervalMinutes: 30, beforeBufferMinutes: 15 }))).toEqual(['10:00', '10:30', '11:00']);
    expect(checkStart([busy], rules({ intervalMinutes: 30, beforeBufferMinutes: 15 }), at('2030-01-07T09:30:00Z'), NOW, 'all')).toEqual({ refusal: { reason: 'buffer', hostId: 'h1', beforeMinutes: 15, afterMinutes: 0 } });
    // Over the booking itself it is busy, not a matter of buffers.
    expect(checkStart([busy], rules({ intervalMinutes: 30, beforeBufferMinutes: 15 }), at('2030-01-07T09:00:00Z'), NOW, 'all')).toEqual({ refusal: { reason: 'busy', hostId: 'h1' } });
  });

  it("both sides: a booking keeps its own event type's buffers around it too", () => {
    const busy = host([{ start: at('2030-01-07T09:00:00Z'), end: at('2030-01-07T09:30:00Z'), afterBufferMinutes: 30 }]);
    expect(startsOf(busy, rules({ intervalMinutes: 30 }))).toEqual(['10:00', '10:30', '11:00']);
    expect(checkStart([busy], rules({ intervalMinutes: 30 }), at('2030-01-07T09:30:00Z'), NOW, 'all')).toMatchObject({ refusal: { reason: 'buffer' } });
  });

  it('buffer after: a slot needs that much free time after it', () => {
    const busy = host([['11:00', '12:00']]);
    expect(startsOf(busy, rules({ intervalMinutes: 30 }))).toEqual(['09:00', '09:30', '10:00']);
    expect(startsOf(busy, rules({ intervalMinutes: 30, afterBufferMinutes: 15 }))).toEqual(['09:00', '09:30']);
    expect(checkStart([busy], rules({ intervalMinutes: 30, afterBufferMinutes: 15 }), at('2030-01-07T10:00:00Z'), NOW, 'all')).toMatchObject({ refusal: { reason: 'buffer', afterMinutes: 15 } });
  });

  it('minimum notice and now: the first start is at least the notice after now', () => {
    expect(startsOf(host(), rules({ minimumNoticeMinutes: 30 }), MONDAY, at('2030-01-07T08:45:00Z'))).toEqual(['10:00', '11:00']);
  });

  it('no hosts, or a period that ends before it starts, offers nothing', () => {
    expect(freeSlots([], rules(), MONDAY, NOW, 'any')).toEqual([]);
    expect(freeSlots([host()], rules(), { start: MONDAY.end, end: MONDAY.start }, NOW, 'all')).toEqual([]);
  });
});

describe('booking window', () => {
  const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
  const twoWeeks = { start: at('2030-01-03T00:00:00Z'), end: at('2030-01-17T00:00:00Z') };
  // Thursday 3 January 2030, 10:30 UTC.
  const thursday = at('2030-01-03T10:30:00Z');

  it('calendar days: today and the days after it, that many dates in all; a start beyond is refused saying so', () => {
    const window = windowRule({ type: 'calendarDays', days: 3, rolling: false }, thursday, 'UTC', 92);
    expect(datesOf([host([], weekdays)], rules({ window }), twoWeeks, thursday)).toEqual(['2030-01-03', '2030-01-04', '2030-01-05']);
    expect(checkStart([host([], weekdays)], rules({ window }), at('2030-01-06T09:00:00Z'), thursday, 'all')).toEqual({ refusal: { reason: 'window', before: false } });
  });

  it("business days: the dates until that many weekdays have passed, today counted; the weekend between is in", () => {
    const window = windowRule({ type: 'businessDays', days: 3, rolling: false }, thursday, 'UTC', 92);
    // Thursday, Friday, then Monday the third business day: the weekend in between is inside the window.
    expect(datesOf([host([], weekdays)], rules({ window }), twoWeeks, thursday)).toEqual(['2030-01-03', '2030-01-04', '2030-01-05', '2030-01-06', '2030-01-07']);
  });

  it("days are counted in the window's zone: in Tokyo it is already Friday", () => {
    const window = windowRule({ type: 'calendarDays', days: 1, rolling: false }, at('2030-01-03T20:00:00Z'), 'Asia/Tokyo', 92);
    expect(window).toEqual({ kind: 'fixed', start: -Infinity, end: at('2030-01-04T15:00:00Z') - 1 });
  });

  it('a range: its dates, both included; a start before it is refused as before the window', () => {
    const window = windowRule({ type: 'range', from: '2030-01-07', to: '2030-01-08' }, thursday, 'UTC', 92);
    expect(datesOf([host([], weekdays)], rules({ window }), twoWeeks, thursday)).toEqual(['2030-01-07', '2030-01-08']);
    expect(checkStart([host([], weekdays)], rules({ window }), at('2030-01-04T09:00:00Z'), thursday, 'all')).toEqual({ refusal: { reason: 'window', before: true } });
  });

  it("rolling: that many dates that have a free slot, so a booked-up date moves the window's end on (the reference's Mondays)", () => {
    const window = windowRule({ type: 'calendarDays', days: 3, rolling: true }, thursday, 'UTC', 92);
    const month = { start: thursday, end: at('2030-02-28T00:00:00Z') };
    // Mondays only: the next three Mondays.
    expect(datesOf([host()], rules({ window }), month, thursday)).toEqual(['2030-01-07', '2030-01-14', '2030-01-21']);
    // The first Monday booked up: the fourth comes in.
    const full = host([['09:00', '12:00']]);
    expect(datesOf([full], rules({ window }), month, thursday)).toEqual(['2030-01-14', '2030-01-21', '2030-01-28']);
    expect(checkStart([full], rules({ window }), at('2030-02-04T09:00:00Z'), thursday, 'all')).toEqual({ refusal: { reason: 'window', before: false } });
  });

  it('rolling business days count only weekdays that have a free slot', () => {
    const window = windowRule({ type: 'businessDays', days: 2, rolling: true }, thursday, 'UTC', 92);
    // Thursday's hours have begun but 11:00 is free; Friday; the weekend is not counted and not reached.
    expect(datesOf([host([], weekdays)], rules({ window }), twoWeeks, thursday)).toEqual(['2030-01-03', '2030-01-04']);
  });
});

describe('booking limits', () => {
  const limited = (limits: SlotRules['limits']) => rules({ limits });

  it("a host's bookings of the event type per day: the day that has them offers no more; other event types' bookings do not count", () => {
    const mine = host([booked('2030-01-07', '09:00')]);
    expect(startsOf(mine, limited({ day: 1 }))).toEqual([]);
    expect(checkStart([mine], limited({ day: 1 }), at('2030-01-07T11:00:00Z'), NOW, 'all')).toEqual({ refusal: { reason: 'limit', hostId: 'h1', period: 'day', limit: 1 } });
    expect(startsOf(mine, limited({ day: 2 }))).toEqual(['10:00', '11:00']);
    expect(startsOf(host([booked('2030-01-07', '09:00', 'other')]), limited({ day: 1 }))).toEqual(['10:00', '11:00']);
  });

  it('per week (from Monday), month and year, each counted in its own period', () => {
    const period = { start: at('2030-01-07T00:00:00Z'), end: at('2030-01-14T23:59:59Z') };
    // A booking on Wednesday 2 January, the week before: this week is free, this month is not.
    const earlier = host([booked('2030-01-02', '09:00')], ['Monday', 'Wednesday']);
    expect(datesOf([earlier], limited({ week: 1 }), period, NOW)).toEqual(['2030-01-07', '2030-01-09', '2030-01-14']);
    expect(datesOf([earlier], limited({ month: 1 }), period, NOW)).toEqual([]);
    expect(datesOf([earlier], limited({ year: 2 }), period, NOW)).toEqual(['2030-01-07', '2030-01-09', '2030-01-14']);
    // A booking on Monday 7th: the week's limit closes that week only.
    const monday = host([booked('2030-01-07', '09:00')]);
    expect(datesOf([monday], limited({ week: 1 }), period, NOW)).toEqual(['2030-01-14']);
  });

  it('counted per host: round robin offers the host who has not reached it', () => {
    const busy = host([booked('2030-01-07', '09:00')], ['Monday'], 'h1');
    const free = host([], ['Monday'], 'h2');
    const slots = freeSlots([busy, free], limited({ day: 1 }), MONDAY, NOW, 'any');
    expect(slots.map((s) => [hhmm(s.start), s.hostIds])).toEqual([['09:00', ['h2']], ['10:00', ['h2']], ['11:00', ['h2']]]);
  });
});

describe('booking limits of minutes (bookingLimitsDuration)', () => {
  const limited = (durationLimits: SlotRules['durationLimits'], over: Partial<SlotRules> = {}) => rules({ durationLimits, ...over });

  it("a host's minutes of the event type per day: a slot that would pass the limit is left out and refused with the minutes booked; other event types' bookings do not count", () => {
    const mine = host([booked('2030-01-07', '09:00')]);
    // An hour booked of 90 minutes: another hour would make 120, a half hour 90.
    expect(startsOf(mine, limited({ day: 90 }))).toEqual([]);
    expect(checkStart([mine], limited({ day: 90 }), at('2030-01-07T11:00:00Z'), NOW, 'all')).toEqual({
      refusal: { reason: 'duration_limit', hostId: 'h1', period: 'day', limitMinutes: 90, takenMinutes: 60 },
    });
    expect(startsOf(mine, limited({ day: 90 }, { lengthMinutes: 30, intervalMinutes: 30 }))).toEqual(['10:00', '10:30', '11:00', '11:30']);
    expect(startsOf(mine, limited({ day: 120 }))).toEqual(['10:00', '11:00']);
    expect(startsOf(host([booked('2030-01-07', '09:00', 'other')]), limited({ day: 60 }))).toEqual(['10:00', '11:00']);
  });

  it('per week (from Monday) and month, each counted in its own period', () => {
    const period = { start: at('2030-01-07T00:00:00Z'), end: at('2030-01-14T23:59:59Z') };
    const earlier = host([booked('2030-01-02', '09:00')], ['Monday', 'Wednesday']);
    expect(datesOf([earlier], limited({ week: 60 }), period, NOW)).toEqual(['2030-01-07', '2030-01-09', '2030-01-14']);
    expect(datesOf([earlier], limited({ month: 60 }), period, NOW)).toEqual([]);
    expect(datesOf([earlier], limited({ month: 120 }), period, NOW)).toEqual(['2030-01-07', '2030-01-09', '2030-01-14']);
  });

  it('a seated slot already booked counts once and can still be joined', () => {
    const two = host([booked('2030-01-07', '10:00', ET, 'u1'), booked('2030-01-07', '10:00', ET, 'u2')]);
    expect(startsOf(two, limited({ day: 60 }, { seatsPerSlot: 3 }))).toEqual(['10:00']);
    expect(startsOf(two, limited({ day: 120 }, { seatsPerSlot: 3 }))).toEqual(['09:00', '10:00', '11:00']);
  });

  it('round robin offers the host who has minutes left', () => {
    const busy = host([booked('2030-01-07', '09:00')], ['Monday'], 'h1');
    const free = host([], ['Monday'], 'h2');
    expect(freeSlots([busy, free], limited({ day: 60 }), MONDAY, NOW, 'any').map((s) => [hhmm(s.start), s.hostIds])).toEqual([['09:00', ['h2']], ['10:00', ['h2']], ['11:00', ['h2']]]);
  });
});

describe('offset start (offsetStart)', () => {
  it('every start is shifted by the offset from the start of the hours, and still ends inside them; a start on the unshifted grid is off the grid', () => {
    expect(startsOf(host(), rules({ offsetMinutes: 15 }))).toEqual(['09:15', '10:15']);
    expect(startsOf(host(), rules({ offsetMinutes: 15, intervalMinutes: 30 }))).toEqual(['09:15', '09:45', '10:15', '10:45']);
    expect(checkStart([host()], rules({ offsetMinutes: 15 }), at('2030-01-07T10:00:00Z'), NOW, 'all')).toEqual({ refusal: { reason: 'off_grid', stepMinutes: 60 } });
    expect(checkStart([host()], rules({ offsetMinutes: 15 }), at('2030-01-07T10:15:00Z'), NOW, 'all')).toMatchObject({ slot: { start: at('2030-01-07T10:15:00Z') } });
  });
});

describe('only the first free slot of each day (onlyShowFirstAvailableSlot)', () => {
  const first = (over: Partial<SlotRules> = {}) => rules({ firstSlotOfDayIn: 'UTC', ...over });

  it("each date offers its first free start only, whatever the period asked; a later free start is refused naming the day's first", () => {
    const weekdays = ['Monday', 'Tuesday'];
    const twoDays = { start: at('2030-01-07T00:00:00Z'), end: at('2030-01-08T23:59:59Z') };
    expect(freeSlots([host([['09:00', '10:00']], weekdays)], first(), twoDays, NOW, 'all').map((s) => new Date(s.start).toISOString())).toEqual([
      '2030-01-07T10:00:00.000Z',
      '2030-01-08T09:00:00.000Z',
    ]);
    // Asked from 10:30, Monday's first is still 10:00: nothing that day.
    expect(startsOf(host([['09:00', '10:00']]), first(), { start: at('2030-01-07T10:30:00Z'), end: MONDAY.end })).toEqual([]);
    expect(checkStart([host([['09:00', '10:00']])], first(), at('2030-01-07T11:00:00Z'), NOW, 'all')).toEqual({
      refusal: { reason: 'not_first', first: at('2030-01-07T10:00:00Z'), timeZone: 'UTC' },
    });
    expect(checkStart([host([['09:00', '10:00']])], first(), at('2030-01-07T10:00:00Z'), NOW, 'all')).toMatchObject({ slot: { start: at('2030-01-07T10:00:00Z') } });
    // A start that is no slot at all keeps its own reason.
    expect(checkStart([host([['09:00', '10:00']])], first(), at('2030-01-07T09:00:00Z'), NOW, 'all')).toEqual({ refusal: { reason: 'busy', hostId: 'h1' } });
  });

  it('the days are those of the zone given: in Tokyo, 09:00 UTC and 15:00 UTC are different dates', () => {
    const long = { ...host([], ['Monday']), weeklyHours: [{ days: ['Monday'], startTime: '09:00', endTime: '18:00' }] };
    expect(startsOf(long, first())).toEqual(['09:00']);
    expect(startsOf(long, first({ firstSlotOfDayIn: 'Asia/Tokyo' }))).toEqual(['09:00', '15:00']);
  });
});

describe('seats', () => {
  const seated = (seats: number, over: Partial<SlotRules> = {}) => rules({ seatsPerSlot: seats, ...over });

  it('a seated slot stays offered, with its seats taken and its booking, until full; then it is refused as full', () => {
    const one = host([booked('2030-01-07', '10:00', ET, 'u1')]);
    expect(freeSlots([one], seated(2), MONDAY, NOW, 'all').map((s) => [hhmm(s.start), s.attendeesCount, s.bookingUid])).toEqual([
      ['09:00', 0, undefined],
      ['10:00', 1, 'u1'],
      ['11:00', 0, undefined],
    ]);
    const two = host([booked('2030-01-07', '10:00', ET, 'u1'), booked('2030-01-07', '10:00', ET, 'u2')]);
    expect(startsOf(two, seated(2))).toEqual(['09:00', '11:00']);
    expect(checkStart([two], seated(2), at('2030-01-07T10:00:00Z'), NOW, 'all')).toEqual({ refusal: { reason: 'full', seats: 2 } });
  });

  it('a seated slot names the booking whose uid sorts first by character code, whatever the locale (uids mix cases: "1X…" before "1k…")', () => {
    const two = host([booked('2030-01-07', '10:00', ET, '1k58BPFsm226bAcagLdKSx'), booked('2030-01-07', '10:00', ET, '1X3lx6BZIYlattdNOVCQ8G')]);
    expect(freeSlots([two], seated(3), MONDAY, NOW, 'all').find((s) => hhmm(s.start) === '10:00')?.bookingUid).toBe('1X3lx6BZIYlattdNOVCQ8G');
  });

  it("a seated slot's bookings take the host's time for every other start, buffers included; another event type's booking takes the slot whole", () => {
    const one = host([booked('2030-01-07', '10:00', ET, 'u1')]);
    expect(startsOf(one, seated(3, { intervalMinutes: 30 }))).toEqual(['09:00', '10:00', '11:00']);
    // The slot's own buffers keep 09:00 off; the booking's (of this event type too) keep 11:00 off.
    expect(startsOf(host([{ ...booked('2030-01-07', '10:00', ET, 'u1'), afterBufferMinutes: 30 }]), seated(3, { afterBufferMinutes: 30 }))).toEqual(['10:00']);
    expect(startsOf(host([booked('2030-01-07', '10:00', 'other')]), seated(3))).toEqual(['09:00', '11:00']);
  });

  it('a hold at a seated slot takes one seat; a hold elsewhere over it keeps it from everyone', () => {
    const one = host([booked('2030-01-07', '10:00', ET, 'u1')]);
    const hold = { start: at('2030-01-07T10:00:00Z'), end: at('2030-01-07T11:00:00Z') };
    expect(freeSlots([one], seated(3), MONDAY, NOW, 'all', [hold]).map((s) => hhmm(s.start))).toEqual(['09:00', '10:00', '11:00']);
    expect(freeSlots([one], seated(2), MONDAY, NOW, 'all', [hold]).map((s) => hhmm(s.start))).toEqual(['09:00', '11:00']);
    expect(freeSlots([one], seated(3), MONDAY, NOW, 'all', [{ start: at('2030-01-07T10:30:00Z'), end: at('2030-01-07T11:30:00Z') }]).map((s) => hhmm(s.start))).toEqual(['09:00']);
  });

  it('with limits, a seated slot already booked counts once and can still be joined', () => {
    const one = host([booked('2030-01-07', '10:00', ET, 'u1')]);
    expect(startsOf(one, seated(3, { limits: { day: 1 } }))).toEqual(['10:00']);
  });

  it('round robin: a seated slot is joined at the host whose booking it has, named first', () => {
    const h1 = host([], ['Monday'], 'h1');
    const h2 = host([booked('2030-01-07', '10:00', ET, 'u2')], ['Monday'], 'h2');
    const [, ten] = freeSlots([h1, h2], seated(2), MONDAY, NOW, 'any');
    expect(ten).toMatchObject({ hostIds: ['h2', 'h1'], attendeesCount: 1, bookingUid: 'u2' });
  });
});
