// EventTypeStore (src/platform/event-types/store.ts) over the event_types repository.
import type { Updateable } from 'kysely';
import type { BookingField, BookingLimits, BookingWindow, EventTypeChanges, EventTypeLocation, EventTypeStore, PrivateLink, SlotSettings, StoredEventType } from '../../../platform/event-types/store.ts';
import { isUniqueViolation } from '../../errors.ts';
import * as repo from '../../repositories/event-types.ts';
import type { Executor } from '../../repositories/executor.ts';
import type { EventTypesTable } from '../../schema.ts';

/** docs/integrating.md#slot-rules: the slot settings of a row (migrations 035, 036). */
export const slotSettingsOf = (r: repo.EventTypeRow): SlotSettings => ({
  slotInterval: r.slot_interval,
  beforeEventBuffer: r.before_event_buffer,
  afterEventBuffer: r.after_event_buffer,
  bookingWindow: r.booking_window === null ? null : (JSON.parse(r.booking_window) as BookingWindow),
  bookingLimitsCount: r.booking_limits_count === null ? null : (JSON.parse(r.booking_limits_count) as BookingLimits),
  seats: r.seats_per_time_slot === null ? null : { perTimeSlot: r.seats_per_time_slot, showAttendeeInfo: r.seats_show_attendees === 1, showAvailabilityCount: r.seats_show_availability_count === 1 },
  bookingLimitsDuration: r.booking_limits_duration === null ? null : (JSON.parse(r.booking_limits_duration) as BookingLimits),
  onlyShowFirstAvailableSlot: r.only_first_slot === 1,
  offsetStart: r.offset_start,
});

/** The columns of the slot settings a change names. */
function slotSettingsColumns(c: Partial<SlotSettings>): Updateable<EventTypesTable> {
  return {
    ...(c.slotInterval !== undefined ? { slot_interval: c.slotInterval } : {}),
    ...(c.beforeEventBuffer !== undefined ? { before_event_buffer: c.beforeEventBuffer } : {}),
    ...(c.afterEventBuffer !== undefined ? { after_event_buffer: c.afterEventBuffer } : {}),
    ...(c.bookingWindow !== undefined ? { booking_window: c.bookingWindow === null ? null : JSON.stringify(c.bookingWindow) } : {}),
    ...(c.bookingLimitsCount !== undefined ? { booking_limits_count: c.bookingLimitsCount === null ? null : JSON.stringify(c.bookingLimitsCount) } : {}),
    ...(c.seats !== undefined
      ? { seats_per_time_slot: c.seats?.perTimeSlot ?? null, seats_show_attendees: c.seats?.showAttendeeInfo ? 1 : 0, seats_show_availability_count: c.seats?.showAvailabilityCount ? 1 : 0 }
      : {}),
    ...(c.bookingLimitsDuration !== undefined ? { booking_limits_duration: c.bookingLimitsDuration === null ? null : JSON.stringify(c.bookingLimitsDuration) } : {}),
    ...(c.onlyShowFirstAvailableSlot !== undefined ? { only_first_slot: c.onlyShowFirstAvailableSlot ? 1 : 0 } : {}),
    ...(c.offsetStart !== undefined ? { offset_start: c.offsetStart } : {}),
  };
}

export const toEventType = (r: repo.EventTypeRow): StoredEventType => ({
  ...slotSettingsOf(r),
  id: r.id,
  ownerId: r.user_id,
  teamId: r.team_id,
  title: r.title,
  slug: r.slug,
  description: r.description,
  lengthMinutes: r.length_minutes,
  locations: JSON.parse(r.locations) as EventTypeLocation[],
  bookingFields: JSON.parse(r.booking_fields) as BookingField[],
  hidden: r.hidden === 1,
  requiresConfirmation: r.requires_confirmation === 1,
  minimumBookingNotice: r.minimum_booking_notice,
  schedulingType: r.scheduling_type,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function changeColumns(c: EventTypeChanges): Updateable<EventTypesTable> {
  return {
    ...(c.title !== undefined ? { title: c.title } : {}),
    ...(c.slug !== undefined ? { slug: c.slug } : {}),
    ...(c.description !== undefined ? { description: c.description } : {}),
    ...(c.lengthMinutes !== undefined ? { length_minutes: c.lengthMinutes } : {}),
    ...(c.locations !== undefined ? { locations: JSON.stringify(c.locations) } : {}),
    ...(c.bookingFields !== undefined ? { booking_fields: JSON.stringify(c.bookingFields) } : {}),
    ...(c.hidden !== undefined ? { hidden: c.hidden ? 1 : 0 } : {}),
    ...(c.requiresConfirmation !== undefined ? { requires_confirmation: c.requiresConfirmation ? 1 : 0 } : {}),
    ...(c.minimumBookingNotice !== undefined ? { minimum_booking_notice: c.minimumBookingNotice } : {}),
    ...(c.schedulingType !== undefined ? { scheduling_type: c.schedulingType } : {}),
    ...slotSettingsColumns(c),
    updated_at: c.updatedAt,
  };
}

const toLink = (l: repo.PrivateLinkRow): PrivateLink => ({
  id: l.id,
  eventTypeId: l.event_type_id,
  hash: l.link_hash,
  expiresAt: l.expires_at,
  maxUses: l.max_uses,
  useCount: l.use_count,
  createdAt: l.created_at,
});

/** Runs a write; a unique violation (the owner's slug) is 'slugTaken'. */
async function slugChecked<T>(write: () => Promise<T>): Promise<T | 'slugTaken'> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return 'slugTaken';
    throw error;
  }
}

export function createEventTypeStore(db: Executor): EventTypeStore {
  const one = (row: repo.EventTypeRow | undefined) => row && toEventType(row);
  return {
    insert: (e) =>
      slugChecked(() =>
        repo.insertEventType(db, {
          id: e.id,
          user_id: e.ownerId,
          team_id: e.teamId,
          title: e.title,
          slug: e.slug,
          description: e.description,
          length_minutes: e.lengthMinutes,
          locations: JSON.stringify(e.locations),
          booking_fields: JSON.stringify(e.bookingFields),
          hidden: e.hidden ? 1 : 0,
          requires_confirmation: e.requiresConfirmation ? 1 : 0,
          minimum_booking_notice: e.minimumBookingNotice,
          scheduling_type: e.schedulingType,
          ...slotSettingsColumns(e),
          created_at: e.createdAt,
          updated_at: e.updatedAt,
        }),
      ),
    findOwned: async (owner, id) => one(await repo.findOwnedEventType(db, owner, id)),
    list: async (owner, limit, offset) => (await repo.listEventTypes(db, owner, limit, offset)).map(toEventType),
    findInOrganization: async (organizationId, id) => one(await repo.findOrganizationEventType(db, organizationId, id)),
    listOfOrganizationTeams: async (organizationId, limit, offset) => (await repo.listOrganizationTeamEventTypes(db, organizationId, limit, offset)).map(toEventType),
    listInOrganization: async (organizationId, limit, offset) => (await repo.listOrganizationEventTypes(db, organizationId, limit, offset)).map(toEventType),
    update: async (id, changes) => {
      const saved = await slugChecked(() => repo.updateEventType(db, id, changeColumns(changes)));
      return saved === 'slugTaken' ? saved : one(saved);
    },
    delete: (id) => repo.deleteEventType(db, id),
    countInTeam: (teamId, ids) => repo.countTeamEventTypes(db, teamId, ids),
    insertPrivateLink: (l) =>
      repo.insertPrivateLink(db, { id: l.id, event_type_id: l.eventTypeId, link_hash: l.hash, expires_at: l.expiresAt, max_uses: l.maxUses, use_count: l.useCount, created_at: l.createdAt }),
    listPrivateLinks: async (eventTypeId) => (await repo.listPrivateLinks(db, eventTypeId)).map(toLink),
    updatePrivateLink: async (eventTypeId, id, changes) => {
      const row = await repo.updatePrivateLink(db, eventTypeId, id, {
        ...(changes.expiresAt !== undefined ? { expires_at: changes.expiresAt } : {}),
        ...(changes.maxUses !== undefined ? { max_uses: changes.maxUses } : {}),
      });
      return row && toLink(row);
    },
    deletePrivateLink: (eventTypeId, id) => repo.deletePrivateLink(db, eventTypeId, id),
  };
}
