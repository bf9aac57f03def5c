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

export interface SlotStore {
  /**
   * The event type's hosts, by id: its owner for a personal one (one user), every member of
   * its team for a team's (a pending invitee is none), with their default schedules.
   */
  hosts(owner: { userId: string } | { teamId: string }): Promise<SlotHost[]>;
  /**
   * The hosts' accepted and pending bookings overlapping [from, to), except the booking of
   * exceptUid, by start.
   */
  bookings(hostIds: string[], from: number, to: number, exceptUid?: string): Promise<HostTime[]>;
  /** The hosts' out-of-office entries overlapping [from, to), by start. */
  away(hostIds: string[], from: number, to: number): Promise<HostTime[]>;
}
