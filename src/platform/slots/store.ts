// What the slots of an event type need to read (docs/integrating.md#slots): its hosts with
// their default schedules, and what takes their time, each in one read whatever the number
// of hosts or bookings. src/storage/stores/platform/slots.ts implements it.
import type { AvailabilityOverride, AvailabilityRange } from '../schedules/store.ts';

export interface SlotHost {
  id: string;
  /** The host's own zone: where Cal.com's default week is, when they have no schedule. */
  timeZone: string;
  /** The host's default schedule, or null when they have none. */
  schedule: { timeZone: string; availability: AvailabilityRange[]; overrides: AvailabilityOverride[] } | null;
}

/** A time of a host's, epoch milliseconds, half-open. */
export interface HostTime {
  hostId: string;
  start: number;
  end: number;
}

/** A booking of a host's: its uid and event type tell a seated slot's bookings and what a limit counts. */
export interface HostBookingTime extends HostTime {
  uid: string;
  eventTypeId: string | null;
  /** Its event type's buffers (0 when it has none, or is gone). */
  beforeBufferMinutes: number;
  afterBufferMinutes: number;
}

export interface SlotStore {
  /**
   * The event type's hosts, by id: its owner for a personal one (one user), every member of
   * its team for a team's (a pending invitee is none), with their default schedules.
   */
  hosts(owner: { userId: string } | { teamId: string }): Promise<SlotHost[]>;
  /**
   * docs/integrating.md#dynamic-groups: the users of these usernames (in the organization of
   * that slug, when given) who publish their time, having a personal event type that is not
   * hidden, with their default schedules and usernames; the others are left out.
   */
  publicHosts(usernames: string[], organizationSlug?: string): Promise<Array<SlotHost & { username: string }>>;
  /**
   * The hosts' accepted and pending bookings overlapping [from, to), except the booking of
   * exceptUid, by start, with their event types' buffers.
   */
  bookings(hostIds: string[], from: number, to: number, exceptUid?: string): Promise<HostBookingTime[]>;
  /** The hosts' out-of-office entries overlapping [from, to), by start. */
  away(hostIds: string[], from: number, to: number): Promise<HostTime[]>;
}
