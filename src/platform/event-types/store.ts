// Event types of a user, a team or across an organization, and their private links (the
// /v2 event types routes; workflows ask which event types a team has).

export interface EventTypeLocation {
  type: 'address' | 'link' | 'phone' | 'integration';
  value: string;
}

export type EventTypeOwner = { userId: string } | { teamId: string };

/**
 * A question of an event type's booking form (docs/integrating.md#booking-fields): a default
 * field (name, email, location, title, notes, guests, rescheduleReason) with the settings its
 * owner gave it, or a custom field of one of Cal.com API v2's kinds.
 */
export interface BookingField {
  slug: string;
  /** A default field's own type (name, email, radioInput, text, textarea, multiemail), or a custom field's kind. */
  type: string;
  label: string;
  required: boolean;
  hidden: boolean;
  /** Undefined for the kinds that show none (location, multiselect, checkbox, radio, boolean). */
  placeholder?: string;
  /** The choices of a select, multiselect, checkbox or radio field. */
  options?: string[];
  /** The platform's booking page shows a value prefilled from its address disabled; kept as given. */
  disableOnPrefill?: boolean;
  /** One of the default fields, which every event type has, rather than a custom one. */
  isDefault: boolean;
}

/**
 * docs/integrating.md#slot-rules: how far ahead an event type may be booked: a number of
 * calendar or business days counted from today (rolling: that many days that have a free slot),
 * or the dates from and to (YYYY-MM-DD, both included), in the hosts' zone.
 */
export type BookingWindow = { type: 'calendarDays' | 'businessDays'; days: number; rolling: boolean } | { type: 'range'; from: string; to: string };

/** How many bookings (or, for bookingLimitsDuration, minutes of them) of the event type a host takes per day, week (from Monday), month and year; an absent period has no limit. */
export interface BookingLimits {
  day?: number;
  week?: number;
  month?: number;
  year?: number;
}

/** Several bookers per slot, up to perTimeSlot; the show* settings are kept as given, for the booking page. */
export interface Seats {
  perTimeSlot: number;
  showAttendeeInfo: boolean;
  showAvailabilityCount: boolean;
}

/** What an event type sets of its slots beyond its length and notice (docs/integrating.md#slot-rules); each null or 0 when unset. */
export interface SlotSettings {
  /** Minutes between two starts; null: the length. */
  slotInterval: number | null;
  beforeEventBuffer: number;
  afterEventBuffer: number;
  bookingWindow: BookingWindow | null;
  bookingLimitsCount: BookingLimits | null;
  seats: Seats | null;
  /** Minutes of the event type's bookings a host takes per day, week (from Monday), month and year. */
  bookingLimitsDuration: BookingLimits | null;
  /** Only the first free slot of each day is offered. */
  onlyShowFirstAvailableSlot: boolean;
  /** Minutes every start is shifted by from the start of the hours. */
  offsetStart: number;
}

/** What an event type sets of nothing of its slots: Cal.com's defaults. */
export const NO_SLOT_SETTINGS: SlotSettings = { slotInterval: null, beforeEventBuffer: 0, afterEventBuffer: 0, bookingWindow: null, bookingLimitsCount: null, seats: null, bookingLimitsDuration: null, onlyShowFirstAvailableSlot: false, offsetStart: 0 };

/** An event type as it is written: a slot setting left out is its default (NO_SLOT_SETTINGS). */
export interface EventType extends Partial<SlotSettings> {
  id: string;
  /** The user who owns a personal event type; null for a team's. */
  ownerId: string | null;
  teamId: string | null;
  title: string;
  slug: string;
  description: string;
  lengthMinutes: number;
  locations: EventTypeLocation[];
  /** The booking fields its owner set, in their order: default fields' settings and custom fields; empty when none (the default form). */
  bookingFields: BookingField[];
  hidden: boolean;
  requiresConfirmation: boolean;
  minimumBookingNotice: number;
  schedulingType: string | null;
  createdAt: number;
  updatedAt: number;
}

/** An event type as the store reads it back: every slot setting, the defaults filled in. */
export type StoredEventType = EventType & SlotSettings;

/** What an update may change; updatedAt always. */
export type EventTypeChanges = Partial<Pick<EventType, 'title' | 'slug' | 'description' | 'lengthMinutes' | 'locations' | 'bookingFields' | 'hidden' | 'requiresConfirmation' | 'minimumBookingNotice' | 'schedulingType' | keyof SlotSettings>> & {
  updatedAt: number;
};

export interface PrivateLink {
  id: string;
  eventTypeId: string;
  /** The link's secret part, shown to the host, who shares it. */
  hash: string;
  expiresAt: number | null;
  maxUses: number | null;
  useCount: number;
  createdAt: number;
}

/** The answer of a write that may hit the owner's unique slug. */
export type SlugTaken = 'slugTaken';

export interface EventTypeStore {
  /** Inserts it; 'slugTaken' (nothing inserted) when the owner has an event type with that slug. */
  insert(eventType: EventType): Promise<void | SlugTaken>;
  /** The event type only if the owner owns it; undefined otherwise. */
  findOwned(owner: EventTypeOwner, id: string): Promise<StoredEventType | undefined>;
  /** The owner's event types, oldest first. */
  list(owner: EventTypeOwner, limit: number, offset: number): Promise<StoredEventType[]>;
  /** The event type only if it is an organization's (its teams' and its members'); undefined otherwise. */
  findInOrganization(organizationId: string, id: string): Promise<StoredEventType | undefined>;
  /** An organization's event types (its teams' and its members'), oldest first. */
  listInOrganization(organizationId: string, limit: number, offset: number): Promise<StoredEventType[]>;
  /** The event types of the organization's teams (not of its members), oldest first. */
  listOfOrganizationTeams(organizationId: string, limit: number, offset: number): Promise<StoredEventType[]>;
  /**
   * Changes it and returns it as stored; undefined when there is no such event type,
   * 'slugTaken' (nothing changed) when the new slug is the owner's other event type's.
   */
  update(id: string, changes: EventTypeChanges): Promise<StoredEventType | SlugTaken | undefined>;
  /** Removes it (its private links go with it); an unknown id removes nothing. */
  delete(id: string): Promise<void>;
  /** How many of these ids are event types of the team. */
  countInTeam(teamId: string, ids: string[]): Promise<number>;
  /** Inserts it; a duplicate id or an unknown event type throws (foreign key). */
  insertPrivateLink(link: PrivateLink): Promise<void>;
  /** The event type's private links, oldest first. */
  listPrivateLinks(eventTypeId: string): Promise<PrivateLink[]>;
  /** Changes the event type's link of that id (its expiry, its uses allowed; none changes nothing) and returns it; undefined when it has none. */
  updatePrivateLink(eventTypeId: string, id: string, changes: Partial<Pick<PrivateLink, 'expiresAt' | 'maxUses'>>): Promise<PrivateLink | undefined>;
  /** Removes the event type's link of that id; false when it has none. */
  deletePrivateLink(eventTypeId: string, id: string): Promise<boolean>;
}
