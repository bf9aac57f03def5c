// docs/integrating.md#slot-rules: what an event type sets of its slots beyond its length and
// notice, in Cal.com API v2's (2024-06-14) terms: read from its create and update bodies
// (slotInterval, beforeEventBuffer, afterEventBuffer, bookingWindow, bookingLimitsCount, seats,
// bookingLimitsDuration, onlyShowFirstAvailableSlot, offsetStart; each cleared by Cal.com's `{disabled: true}` or, for the numbers, null) and written back in
// its answers. The slots service (slots/service.ts) computes with what is kept here.
import { invalid } from '../input.ts';
import { arrayOf, bool, int, nullable, object, type JsonSchema } from '../schemas.ts';
import type { BookingLimits, BookingWindow, Seats, SlotSettings } from './store.ts';

/** Cal.com's BusinessDaysWindow, CalendarDaysWindow, RangeWindow or Disabled, as one object. */
export interface BookingWindowInput {
  type?: BookingWindow['type'];
  value?: number | string[];
  rolling?: boolean;
  disabled?: boolean;
}

/** Cal.com's BaseBookingLimitsCount or Disabled. */
export interface BookingLimitsCountInput extends BookingLimits {
  disabled?: boolean;
}

/** Cal.com's Seats or Disabled. */
export interface SeatsInput {
  seatsPerTimeSlot?: number;
  showAttendeeInfo?: boolean;
  showAvailabilityCount?: boolean;
  disabled?: boolean;
}

export interface SlotSettingsInput {
  slotInterval?: number | null;
  beforeEventBuffer?: number;
  afterEventBuffer?: number;
  bookingWindow?: BookingWindowInput;
  bookingLimitsCount?: BookingLimitsCountInput;
  seats?: SeatsInput;
  bookingLimitsDuration?: BookingLimitsCountInput;
  onlyShowFirstAvailableSlot?: boolean;
  offsetStart?: number;
}

/** The longest a window of days reaches: ten years. */
const MAX_WINDOW_DAYS = 3650;
const MAX_SEATS = 1000;
const DATE = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const disabled = { ...bool, description: 'true clears the setting (Cal.com\'s Disabled_2024_06_14)' };
const limit = int(1, 100_000);
/** Cal.com's duration limits are multiples of 15 minutes; a year holds at most 527,040. */
const minutes = int(15, 527_040, { multipleOf: 15 });

/**
 * The request schemas: one object per setting with every property of its variants, so that a
 * refusal names the property to fix (as booking fields do); what each variant needs is checked
 * by readSlotSettings.
 */
export const slotSettingsFields: Record<keyof SlotSettingsInput, JsonSchema> = {
  slotInterval: nullable(int(1, 1440, { description: 'Minutes between two starts; null: the length' })),
  beforeEventBuffer: int(0, 1440, { description: 'Minutes kept free before each booking' }),
  afterEventBuffer: int(0, 1440, { description: 'Minutes kept free after each booking' }),
  bookingWindow: object(
    {
      type: { type: 'string', enum: ['businessDays', 'calendarDays', 'range'] },
      value: {
        type: ['integer', 'array'],
        minimum: 1,
        maximum: MAX_WINDOW_DAYS,
        items: { type: 'string', pattern: DATE },
        description: 'Days from today (businessDays, calendarDays), or [from, to] dates YYYY-MM-DD (range)',
      },
      rolling: { ...bool, description: 'Days that have a free slot rather than days on the calendar' },
      disabled,
    },
    [],
    { description: 'How far ahead the event type may be booked (docs/integrating.md#slot-rules)' },
  ),
  bookingLimitsCount: object({ day: limit, week: limit, month: limit, year: limit, disabled }, [], { description: 'Bookings of this event type a host takes per day, week, month, year' }),
  seats: object(
    { seatsPerTimeSlot: int(1, MAX_SEATS), showAttendeeInfo: bool, showAvailabilityCount: bool, disabled },
    [],
    { description: 'Several bookers per slot, up to seatsPerTimeSlot' },
  ),
  bookingLimitsDuration: object({ day: minutes, week: minutes, month: minutes, year: minutes, disabled }, [], { description: 'Minutes of bookings of this event type a host takes per day, week, month, year (multiples of 15)' }),
  onlyShowFirstAvailableSlot: { ...bool, description: 'Only the first free slot of each day is offered' },
  offsetStart: int(0, 1440, { description: 'Minutes every start is shifted by from the start of the working hours' }),
};

/** The settings a create or change names, checked; the others are left out (unchanged, or the defaults). */
export function readSlotSettings(input: SlotSettingsInput): Partial<SlotSettings> {
  return {
    ...(input.slotInterval !== undefined ? { slotInterval: input.slotInterval } : {}),
    ...(input.beforeEventBuffer !== undefined ? { beforeEventBuffer: input.beforeEventBuffer } : {}),
    ...(input.afterEventBuffer !== undefined ? { afterEventBuffer: input.afterEventBuffer } : {}),
    ...(input.bookingWindow !== undefined ? { bookingWindow: readWindow(input.bookingWindow) } : {}),
    ...(input.bookingLimitsCount !== undefined ? { bookingLimitsCount: readLimits(input.bookingLimitsCount, 'bookingLimitsCount') } : {}),
    ...(input.seats !== undefined ? { seats: readSeats(input.seats) } : {}),
    ...(input.bookingLimitsDuration !== undefined ? { bookingLimitsDuration: readLimits(input.bookingLimitsDuration, 'bookingLimitsDuration') } : {}),
    ...(input.onlyShowFirstAvailableSlot !== undefined ? { onlyShowFirstAvailableSlot: input.onlyShowFirstAvailableSlot } : {}),
    ...(input.offsetStart !== undefined ? { offsetStart: input.offsetStart } : {}),
  };
}

function readWindow(w: BookingWindowInput): BookingWindow | null {
  if (w.disabled === true) return null;
  if (w.type === undefined) throw invalid('bookingWindow.type', 'is required: businessDays, calendarDays or range; or {"disabled": true} for no window');
  if (w.type === 'range') {
    if (!Array.isArray(w.value) || w.value.length !== 2) throw invalid('bookingWindow.value', 'a range window is two dates, [from, to], such as ["2030-09-05", "2030-09-09"]');
    const [from, to] = w.value as [string, string];
    for (const [i, date] of [from, to].entries()) {
      if (!isDate(date)) throw invalid(`bookingWindow.value.${i}`, `"${date}" is not a date YYYY-MM-DD`);
    }
    if (to < from) throw invalid('bookingWindow.value', 'the range ends before it starts');
    if (w.rolling !== undefined) throw invalid('bookingWindow.rolling', 'applies to businessDays and calendarDays windows');
    return { type: 'range', from, to };
  }
  if (typeof w.value !== 'number') throw invalid('bookingWindow.value', `a ${w.type} window is a number of days, 1 to ${MAX_WINDOW_DAYS}`);
  return { type: w.type, days: w.value, rolling: w.rolling ?? false };
}

/** A date that names a real day (Date.parse takes 2030-02-31 for March 3rd). */
function isDate(value: string): boolean {
  const ms = Date.parse(`${value}T00:00:00Z`);
  return /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value) && !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

const PERIODS = ['day', 'week', 'month', 'year'] as const;

function readLimits(l: BookingLimitsCountInput, field: 'bookingLimitsCount' | 'bookingLimitsDuration'): BookingLimits | null {
  if (l.disabled === true) return null;
  const limits: BookingLimits = {};
  for (const period of PERIODS) if (l[period] !== undefined) limits[period] = l[period];
  if (Object.keys(limits).length === 0) return null;
  // A longer period holds the shorter ones: a lower limit there would make the shorter one's unreachable.
  const set = PERIODS.filter((p) => limits[p] !== undefined);
  for (let i = 1; i < set.length; i += 1) {
    const shorter = set[i - 1]!;
    const longer = set[i]!;
    if (limits[longer]! < limits[shorter]!) throw invalid(`${field}.${longer}`, `must be at least the ${shorter}'s limit (${limits[shorter]})`);
  }
  return limits;
}

function readSeats(s: SeatsInput): Seats | null {
  if (s.disabled === true) return null;
  if (s.seatsPerTimeSlot === undefined) throw invalid('seats.seatsPerTimeSlot', `is required: the bookers a slot takes, 1 to ${MAX_SEATS}; or {"disabled": true} for one booker a slot`);
  return { perTimeSlot: s.seatsPerTimeSlot, showAttendeeInfo: s.showAttendeeInfo ?? false, showAvailabilityCount: s.showAvailabilityCount ?? false };
}

/** The answer's schema of the settings, as Cal.com's EventTypeOutput_2024_06_14 writes them. */
export const slotSettingsView: Record<string, JsonSchema> = {
  slotInterval: nullable({ type: 'integer' }),
  beforeEventBuffer: { type: 'integer' },
  afterEventBuffer: { type: 'integer' },
  // The platform's output lists the window (one at most): an array of its input's variants.
  bookingWindow: arrayOf(
    object({ type: { type: 'string', enum: ['businessDays', 'calendarDays', 'range'] }, value: { type: ['integer', 'array'], items: { type: 'string' } }, rolling: bool }, ['type', 'value']),
    0,
    1,
  ),
  bookingLimitsCount: object({ day: { type: 'integer' }, week: { type: 'integer' }, month: { type: 'integer' }, year: { type: 'integer' } }),
  seatsPerTimeSlot: nullable({ type: 'integer' }),
  seatsShowAvailabilityCount: nullable(bool),
  seats: object({ seatsPerTimeSlot: { type: 'integer' }, showAttendeeInfo: bool, showAvailabilityCount: bool }, ['seatsPerTimeSlot', 'showAttendeeInfo', 'showAvailabilityCount']),
  bookingLimitsDuration: object({ day: { type: 'integer' }, week: { type: 'integer' }, month: { type: 'integer' }, year: { type: 'integer' } }),
  onlyShowFirstAvailableSlot: bool,
  offsetStart: { type: 'integer' },
};

/** The settings as the answer writes them: a window, limits and seats only when set, as the platform answers. */
export function slotSettingsAnswer(s: SlotSettings) {
  const window = s.bookingWindow;
  return {
    slotInterval: s.slotInterval,
    beforeEventBuffer: s.beforeEventBuffer,
    afterEventBuffer: s.afterEventBuffer,
    ...(window === null ? {} : { bookingWindow: [window.type === 'range' ? { type: 'range', value: [window.from, window.to] } : { type: window.type, value: window.days, rolling: window.rolling }] }),
    ...(s.bookingLimitsCount === null ? {} : { bookingLimitsCount: s.bookingLimitsCount }),
    seatsPerTimeSlot: s.seats?.perTimeSlot ?? null,
    seatsShowAvailabilityCount: s.seats?.showAvailabilityCount ?? null,
    ...(s.seats === null ? {} : { seats: { seatsPerTimeSlot: s.seats.perTimeSlot, showAttendeeInfo: s.seats.showAttendeeInfo, showAvailabilityCount: s.seats.showAvailabilityCount } }),
    ...(s.bookingLimitsDuration === null ? {} : { bookingLimitsDuration: s.bookingLimitsDuration }),
    onlyShowFirstAvailableSlot: s.onlyShowFirstAvailableSlot,
    offsetStart: s.offsetStart,
  };
}
