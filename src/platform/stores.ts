// The stores of the /v2 platform API, one file per resource beside this one: what the route
// handlers read and write, with the contract of every method. They hang off ServiceStores
// (`stores.api`), so a handler's writes join `stores.transaction` like any service's.
// src/storage/stores/platform*.ts implements them. Bookings are a service's store
// (platform/bookings/store.ts, `stores.bookings`): the booking rules live in platform/bookings/service.ts.
import type { ApiAccessStore } from './access-check.ts';
import type { ConnectedAppStore } from './connected-apps/store.ts';
import type { EventTypeStore } from './event-types/store.ts';
import type { MembershipStore } from './memberships/store.ts';
import type { ProfileStore } from './me/store.ts';
import type { RoutingFormStore } from './routing-forms/store.ts';
import type { ScheduleStore } from './schedules/store.ts';
import type { TeamStore } from './teams/store.ts';
import type { VerifiedResourceStore } from './verified-resources/store.ts';
import type { WebhookStore } from './webhooks/store.ts';
import type { WorkflowStore } from './workflows/store.ts';

export interface ApiStores {
  /** The guard's one read: token, client, and the path's team or organization with the user's roles. */
  access: ApiAccessStore;
  connectedApps: ConnectedAppStore;
  eventTypes: EventTypeStore;
  memberships: MembershipStore;
  /** The users table as /v2/me and an organization's users routes see it. */
  profiles: ProfileStore;
  routingForms: RoutingFormStore;
  schedules: ScheduleStore;
  teams: TeamStore;
  verifiedResources: VerifiedResourceStore;
  webhooks: WebhookStore;
  workflows: WorkflowStore;
}
