// The stores of the platform wing, one port per resource in its folder, with the contract of
// every method. PlatformStores adds them to the authorization server's ServiceStores, so that
// one transaction spans both wings (a booking and its webhook event, a team and its audit
// line); the authorization server itself never sees them. src/storage/stores/platform/
// implements them.
import type { ServiceContext, ServiceStores } from './authorization-server.ts';
import type { ApiAccessStore } from './access-check.ts';
import type { BookingAttendeeStore } from './bookings/attendee-store.ts';
import type { BookingProviderStore } from './bookings/provider-records.ts';
import type { BookingStore } from './bookings/store.ts';
import type { ConnectedAppStore } from './connected-apps/store.ts';
import type { ConnectionRequestStore } from './connection-requests/store.ts';
import type { EventTypeStore } from './event-types/store.ts';
import type { MembershipStore } from './memberships/store.ts';
import type { ProfileStore } from './me/store.ts';
import type { OutOfOfficeStore } from './out-of-office/store.ts';
import type { PhoneCallStore } from './phone-calls/store.ts';
import type { RoutingFormStore } from './routing-forms/store.ts';
import type { ScheduleStore } from './schedules/store.ts';
import type { SlotStore } from './slots/store.ts';
import type { SlotReservationStore } from './slots/reservation-store.ts';
import type { WorkflowStore } from './workflows/store.ts';

export interface ApiStores {
  /** The guard's one read: token, client, and the path's team or organization with the user's roles. */
  access: ApiAccessStore;
  /** docs/integrating.md#booking-attendees: who attends a booking, and who was absent. */
  bookingAttendees: BookingAttendeeStore;
  /** docs/integrating.md#provider-records: what outside calendars and video report of bookings, as an operator recorded it. */
  bookingProviders: BookingProviderStore;
  connectedApps: ConnectedAppStore;
  /** docs/rules.md#connect-pages: the connections applications asked for, awaiting the user on the connect page. */
  connectionRequests: ConnectionRequestStore;
  eventTypes: EventTypeStore;
  memberships: MembershipStore;
  /** docs/rules.md#out-of-office: when users are away, and who covers. */
  outOfOffice: OutOfOfficeStore;
  /** docs/integrating.md#phone-calls: outbound calls asked of team event types, held for an operator. */
  phoneCalls: PhoneCallStore;
  /** The users table as /v2/me and an organization's users routes see it. */
  profiles: ProfileStore;
  routingForms: RoutingFormStore;
  schedules: ScheduleStore;
  /** docs/integrating.md#slots: an event type's hosts, their schedules and what takes their time. */
  slots: SlotStore;
  /** docs/integrating.md#slot-reservations: slots held for a few minutes by whoever has the hold's uid. */
  slotReservations: SlotReservationStore;
  workflows: WorkflowStore;
}

export interface PlatformStores extends ServiceStores {
  api: ApiStores;
  bookings: BookingStore;
  /** ServiceStores.transaction, with the platform's stores bound to the transaction too. */
  transaction<T>(fn: (tx: PlatformStores) => Promise<T>): Promise<T>;
}

/** The services' context as the platform wing sees it: its stores beside the authorization server's. */
export interface PlatformContext extends ServiceContext {
  stores: PlatformStores;
}
