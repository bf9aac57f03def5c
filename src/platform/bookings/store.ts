// The store behind bookings (platform/bookings/service.ts and the /v2 booking routes): bookings,
// host availability, team host choice, and the event-type facts and private links a new
// booking needs. src/storage/stores/platform/bookings.ts implements it.
import type { Attendee } from './attendee-store.ts';
import type { BookingField, SlotSettings } from '../event-types/store.ts';

/** A booker's answer to a booking field, as the platform writes it: text, a number, a yes or no, or several choices or addresses. */
export type FieldAnswer = string | number | boolean | string[];

export type BookingStatus = 'pending' | 'accepted' | 'declined' | 'cancelled' | 'rescheduled';

/** Statuses that hold the host's time. */
export const ACTIVE: BookingStatus[] = ['pending', 'accepted'];

export interface Booking {
  /** docs/rules.md#numbered-ids: the booking's number; the uid addresses it. */
  id: string;
  uid: string;
  eventTypeId: string | null;
  /** The user who hosts the booking. */
  hostId: string | null;
  teamId: string | null;
  title: string;
  description: string;
  /** Epoch milliseconds. */
  start: number;
  end: number;
  status: BookingStatus;
  attendee: { name: string; email: string; timeZone: string };
  guests: string[];
  location: string;
  cancellationReason: string | null;
  declineReason: string | null;
  rescheduledFrom: string | null;
  rescheduledTo: string | null;
  /** SHA-256 of the booker's manageToken (docs/rules.md#public-booking); null for bookings older than it. */
  manageTokenHash: string | null;
  /** Whether the host was marked absent (docs/integrating.md#booking-attendees). */
  absentHost: boolean;
  /**
   * docs/integrating.md#booking-fields: the answers to the event type's booking fields by slug,
   * beyond those the booking keeps in its own fields (the booker, the guests, the notes).
   */
  responses: Record<string, FieldAnswer>;
  createdAt: number;
  updatedAt: number;
}

/** A booking's host, as an answer names them. */
export interface BookingHost {
  id: string;
  name: string;
  email: string;
  username: string;
  timeZone: string;
}

/** What the answers tell of bookings beyond their rows: hosts by id, event types by id, attendees by booking uid. */
export interface BookingRelations {
  hosts: Map<string, BookingHost>;
  eventTypes: Map<string, { id: string; slug: string }>;
  attendees: Map<string, Attendee[]>;
}

/** Whose bookings: the host's, a team's, or everything in an organization. */
export type BookingScope = { userId: string } | { teamId: string } | { organizationId: string };

/** One status a list asks for: bookings of these stored statuses, and ending in [endsFrom, endsBefore) when given. */
export interface StatusTerm {
  statuses: BookingStatus[];
  endsFrom?: number;
  endsBefore?: number;
}

export interface BookingFilter {
  /** Any of these terms matches (the platform's `status=upcoming,past`); absent, every status does. */
  status?: StatusTerm[];
  afterStart?: number;
  beforeEnd?: number;
  /** Only the bookings this user hosts, within the scope (an organization's member's). */
  hostId?: string;
}

/** What a booking may change besides its status. */
export interface BookingChanges {
  hostId?: string;
  guests?: string[];
  location?: string;
  cancellationReason?: string | null;
  declineReason?: string | null;
  rescheduledTo?: string | null;
  updatedAt: number;
}

/** What booking needs to know of an event type; its slot settings decide which starts are slots. */
export interface BookableEventType extends SlotSettings {
  id: string;
  userId: string | null;
  teamId: string | null;
  title: string;
  lengthMinutes: number;
  locations: Array<{ type?: string; value: string }>;
  /** The booking fields its owner set (event-types/store.ts); the form a booking answers is made from them. */
  bookingFields: BookingField[];
  hidden: boolean;
  requiresConfirmation: boolean;
  minimumBookingNotice: number;
  schedulingType: string | null;
}

export interface BookingStore {
  /** The booking of that uid, whoever it belongs to; undefined when there is none. */
  find(uid: string): Promise<Booking | undefined>;
  /**
   * The booking only if it is in the scope (an organization's: its teams' bookings and its
   * members' own ones, not another organization's team bookings); undefined otherwise.
   */
  findScoped(scope: BookingScope, uid: string): Promise<Booking | undefined>;
  /**
   * A page of the scope's bookings matching the filter, by start then uid, and the number of
   * all matches (count's), in one read when the page is not past the end.
   */
  page(scope: BookingScope, filter: BookingFilter, limit: number, offset: number): Promise<{ bookings: Booking[]; total: number }>;
  /** How many of the scope's bookings match the filter. */
  count(scope: BookingScope, filter: BookingFilter): Promise<number>;
  /** The hosts, event types and attendees of these bookings, in one read whatever their number. */
  relations(bookings: Booking[]): Promise<BookingRelations>;
  /**
   * Inserts a new booking, and its booker and guests as its attendees (attendee-store.ts): two
   * writes, and a third for a collective booking's other hosts (coHostIds, each of whose time
   * it takes too), for the caller's transaction. A duplicate uid throws.
   */
  insert(booking: Booking, coHostIds?: string[]): Promise<void>;
  /**
   * Changes a booking only if its status is still one of `from` (ARCHITECTURE.md#single-use-is-atomic): of two
   * concurrent confirm/decline/cancel requests exactly one wins. Returns whether it did; an
   * unknown uid is false.
   */
  transition(uid: string, from: BookingStatus[], status: BookingStatus, changes: BookingChanges): Promise<boolean>;
  /**
   * Changes a booking only if it was not changed since `seenUpdatedAt` (optimistic
   * concurrency): false when it was, or when the uid is unknown.
   */
  updateIfUnchanged(uid: string, seenUpdatedAt: number, changes: BookingChanges): Promise<boolean>;
  /** Changes a booking whatever its version; an unknown uid changes nothing. */
  update(uid: string, changes: BookingChanges): Promise<void>;
  /** Marks the booking's host absent or present (docs/integrating.md#booking-attendees); an unknown uid changes nothing. */
  setHostAbsent(uid: string, absent: boolean): Promise<void>;
  /**
   * Takes the host's row lock for the rest of the caller's transaction (a no-op write), so
   * that two bookings of one host cannot both pass the availability check before either is
   * written. Meaningful only inside a transaction.
   */
  lockHost(userId: string): Promise<void>;
  /** A collective booking's other hosts (the coHostIds inserted with it), by id; none for another booking. */
  coHosts(uid: string): Promise<string[]>;
  /** Does the host have an active booking overlapping [start, end), other than exceptUid (as its host or one of a collective booking's)? */
  hostIsBusy(userId: string, start: number, end: number, exceptUid?: string): Promise<boolean>;
  /** The host's active bookings overlapping [from, to), by start; at most 1000. */
  busyTimes(userId: string, from: number, to: number): Promise<Array<{ uid: string; start: number; end: number }>>;
  /**
   * The host for a new team booking: the first owner (then the longest member) for a
   * collective event type; for round robin, the member with the fewest upcoming active team
   * bookings (ties: longest member). Undefined when the team has no member.
   */
  pickTeamHost(teamId: string, roundRobin: boolean, now: number): Promise<string | undefined>;
  /**
   * The team's members in round-robin order: the fewest upcoming active team bookings first
   * (ties: longest member), as pickTeamHost ranks them for round robin.
   */
  rankTeamHosts(teamId: string, now: number): Promise<string[]>;
  /** Whether the user has a membership of the team (any role; a pending invitation is not one). */
  isTeamMember(teamId: string, userId: string): Promise<boolean>;
  /**
   * The id of the event type of that slug owned by the user of that username, or by the team
   * of that slug; with organizationSlug, only if that user or team is in that organization.
   * Undefined when there is none.
   */
  findEventTypeIdBySlug(slug: string, owner: { username: string } | { teamSlug: string }, organizationSlug?: string): Promise<string | undefined>;
  /** The event type of that id, whoever owns it; undefined when there is none. */
  findEventType(id: string): Promise<BookableEventType | undefined>;
  /**
   * Spends one use of a private link atomically (ARCHITECTURE.md#single-use-is-atomic): it must belong to the
   * event type, be unexpired and have uses left. Returns whether a use was spent.
   */
  usePrivateLink(eventTypeId: string, linkHash: string, at: number): Promise<boolean>;
}
