// GET /v2/slots (docs/integrating.md#slots): the platform's query (cal-api-version 2024-09-04)
// mapped to the slots service's input, and its answer: the free starts grouped by date in the
// asked time zone.
import type { PlatformDeps } from '../deps.ts';
import { route, type HandlerMap } from '../handler.ts';
import { checkTimeZone, invalid } from '../input.ts';
import { int, numberedIdInput, object, str, timeZone, type JsonSchema } from '../schemas.ts';
import { dateIn, isoInZone, nextDay, startOfDay } from '../zoned-days.ts';
import { findFreeSlots, type EventTypeRef, type Slot } from './service.ts';
import { reservationHandlers } from './reservation-routes.ts';

interface SlotsQuery {
  eventTypeId?: string;
  eventTypeSlug?: string;
  username?: string;
  teamSlug?: string;
  organizationSlug?: string;
  usernames?: string;
  start: string;
  end: string;
  timeZone?: string;
  format?: 'time' | 'range';
  duration?: number;
  bookingUidToReschedule?: string;
}

/** A date (the day's start, or its end for `end`) or a date-time; without an offset, UTC. */
const DATE_OR_DATE_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,3})?)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$';
const moment = (description: string): JsonSchema => ({ type: 'string', pattern: DATE_OR_DATE_TIME, description });
const slug = str(1, 100);

const slotsQuery = object(
  {
    eventTypeId: numberedIdInput,
    eventTypeSlug: slug,
    username: slug,
    teamSlug: slug,
    organizationSlug: slug,
    usernames: str(1, 1000, { description: 'A dynamic group: 2 to 20 usernames, separated by commas, of people who publish their time; slots when all are free' }),
    start: moment('From: a date (its start in timeZone) or an ISO 8601 date-time'),
    end: moment('Until: a date (its end in timeZone) or an ISO 8601 date-time; at most 92 days after start'),
    timeZone: { ...timeZone, description: 'The zone the answer is written in, and dates of start and end are read in; UTC when absent' },
    format: { type: 'string', enum: ['time', 'range'], description: "time (default): each slot's start; range: its start and end" },
    duration: int(1, 1440, { description: "Minutes; only the event type's own length is offered; a dynamic group's slots last this long (30 when absent)" }),
    bookingUidToReschedule: str(1, 100, { description: "A booking being moved: its own time counts as free" }),
  },
  ['start', 'end'],
);

const slotsView: JsonSchema = {
  type: 'object',
  description: 'Free slots by date (YYYY-MM-DD in timeZone), each its start (and end with format=range) in timeZone; a seated slot with the seats taken (attendeesCount) and, once booked, its booking (bookingUid); {} when none',
  additionalProperties: {
    type: 'array',
    items: object({ start: { type: 'string' }, end: { type: 'string' }, attendeesCount: { type: 'integer' }, bookingUid: { type: 'string' } }, ['start']),
  },
};

/** The event type the query names, or a 400 saying which parameter is missing. */
function eventTypeOf(q: SlotsQuery): EventTypeRef {
  const organization = q.organizationSlug === undefined ? {} : { organizationSlug: q.organizationSlug };
  if (q.eventTypeId !== undefined) return { id: q.eventTypeId };
  if (q.usernames !== undefined && q.eventTypeSlug === undefined) return { usernames: q.usernames.split(',').map((u) => u.trim()).filter((u) => u !== ''), ...organization };
  if (q.eventTypeSlug === undefined) throw invalid('eventTypeId', 'required, or eventTypeSlug with username or teamSlug, or usernames for a dynamic group');
  if (q.username !== undefined) return { slug: q.eventTypeSlug, username: q.username, ...organization };
  if (q.teamSlug !== undefined) return { slug: q.eventTypeSlug, teamSlug: q.teamSlug, ...organization };
  throw invalid('username', 'required with eventTypeSlug (or teamSlug for a team event type)');
}

/** A date is its day's first instant in the zone (or, for `end`, its last); a date-time is itself. */
function instantOf(value: string, field: 'start' | 'end', zone: string): number {
  const date = value.slice(0, 10);
  const ms = Date.parse(value.length === 10 ? `${date}T00:00:00Z` : /[zZ]|[+-][0-9]{2}:[0-9]{2}$/.test(value) ? value : `${value}Z`);
  // Date.parse takes 2050-02-31 for March 3rd: a date that does not come back the same is no date.
  if (Number.isNaN(ms) || new Date(Date.parse(`${date}T00:00:00Z`)).toISOString().slice(0, 10) !== date) {
    throw invalid(field, 'must be a date such as 2050-09-05 or a date-time such as 2050-09-05T09:00:00Z');
  }
  if (value.length > 10) return ms;
  return field === 'start' ? startOfDay(date, zone) : startOfDay(nextDay(date), zone) - 1;
}

interface SlotAnswer {
  start: string;
  end?: string;
  attendeesCount?: number;
  bookingUid?: string;
}

/**
 * The platform's answer: dates in the zone, each with its slots' starts (and ends) written in
 * the zone; a seated slot with its seats taken and its booking, as Cal.com's answer has them.
 */
function byDate(slots: Slot[], zone: string, range: boolean): Record<string, SlotAnswer[]> {
  const out: Record<string, SlotAnswer[]> = {};
  for (const s of slots) {
    const date = dateIn(s.start, zone);
    (out[date] ??= []).push({
      start: isoInZone(s.start, zone),
      ...(range ? { end: isoInZone(s.end, zone) } : {}),
      ...(s.attendeesCount !== undefined ? { attendeesCount: s.attendeesCount } : {}),
      ...(s.bookingUid !== undefined ? { bookingUid: s.bookingUid } : {}),
    });
  }
  return out;
}

export function slotHandlers(deps: PlatformDeps): HandlerMap {
  return {
    ...reservationHandlers(deps),
    'slots.list': route<unknown, SlotsQuery>({
      query: slotsQuery,
      data: slotsView,
      handle: async ({ query: q }) => {
        checkTimeZone(q.timeZone);
        const zone = q.timeZone ?? 'UTC';
        const eventType = eventTypeOf(q);
        const start = instantOf(q.start, 'start', zone);
        const end = instantOf(q.end, 'end', zone);
        const { slots } = await findFreeSlots(deps.services, {
          eventType,
          start,
          end,
          ...(q.duration !== undefined ? { durationMinutes: q.duration } : {}),
          ...(q.bookingUidToReschedule !== undefined ? { bookingUidToReschedule: q.bookingUidToReschedule } : {}),
        });
        return byDate(slots, zone, q.format === 'range');
      },
    }),
  };
}
