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

export interface EventType {
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

/** What an update may change; updatedAt always. */
export type EventTypeChanges = Partial<Pick<EventType, 'title' | 'slug' | 'description' | 'lengthMinutes' | 'locations' | 'bookingFields' | 'hidden' | 'requiresConfirmation' | 'minimumBookingNotice' | 'schedulingType'>> & {
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
  findOwned(owner: EventTypeOwner, id: string): Promise<EventType | undefined>;
  /** The owner's event types, oldest first. */
  list(owner: EventTypeOwner, limit: number, offset: number): Promise<EventType[]>;
  /** The event type only if it is an organization's (its teams' and its members'); undefined otherwise. */
  findInOrganization(organizationId: string, id: string): Promise<EventType | undefined>;
  /** An organization's event types (its teams' and its members'), oldest first. */
  listInOrganization(organizationId: string, limit: number, offset: number): Promise<EventType[]>;
  /** The event types of the organization's teams (not of its members), oldest first. */
  listOfOrganizationTeams(organizationId: string, limit: number, offset: number): Promise<EventType[]>;
  /**
   * Changes it and returns it as stored; undefined when there is no such event type,
   * 'slugTaken' (nothing changed) when the new slug is the owner's other event type's.
   */
  update(id: string, changes: EventTypeChanges): Promise<EventType | SlugTaken | undefined>;
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
